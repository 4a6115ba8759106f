/*
 * The replay page (/r/<slug>, /examples/<name>; docs/viewer.md): its Viewer (viewer.js) with the
 * game's renderer module (the kit's, named by the page's <link rel="modulepreload" data-game>),
 * the owner's token notice, the language switch that keeps the step.
 */
import { el, pageData, whenReady } from "./dom.js";
import { loadGames } from "./games.js";
import { lang, t, tn } from "./i18n.js";
import { Viewer } from "./viewer.js";

export var viewer = null;  // the page's Viewer, once started (for tests: import("/assets/replay.js"))

function boot() {
  var page = pageData("replay-data");
  var root = document.getElementById("viewer");
  if (!page || !root) return;
  if (page.replay_url && !page.result.steps) {
    // a long game: the page carries its result, the steps come from the API (gzip, cached)
    fetch(page.replay_url, { headers: { Accept: "application/json", "Accept-Language": lang } })
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.json(); })
      .then(function (replay) { page.result = replay; start(root, page); })
      .catch(function () { start(root, page); });
    return;
  }
  start(root, page);
}

function start(root, page) {
  loadGames("renderer").then(function (games) {
    viewer = new Viewer(root, page, games[page.result.game] || null);
    root.dispatchEvent(new CustomEvent("popreplay:viewer", { bubbles: true, detail: viewer }));
  });
  keepStepInSwitch();
  ownerNotice(page.slug, root);
}

// The owner token is shown once, when the game is stored from the home page: that page keeps
// it in this browser's localStorage so that it survives the jump to the replay.
function ownerNotice(slug, root) {
  var token = null;
  try { token = slug ? window.localStorage.getItem("popreplay-owner:" + slug) : null; } catch (e) { token = null; }
  if (!token) return;
  var box = el("section", { class: "panel owner-notice", "aria-label": t("Your owner token") },
    el("p", null, tn("You stored this game from this browser. Keep its owner token: only with it can the game be deleted. {token}", {
      token: el("code", { class: "token", text: token }) })),
    el("details", { class: "error-details" }, el("summary", { text: t("Details") }),
      el("code", { text: "DELETE /api/v1/games/" + slug }), " ", el("code", { text: "Authorization: Bearer …" })),
    el("button", { type: "button", on: { click: function () {
      try { window.localStorage.removeItem("popreplay-owner:" + slug); } catch (e) { /* ignore */ }
      box.parentNode.removeChild(box);
    } } }, t("I have saved it: forget it here")));
  var layout = root.parentNode;
  layout.parentNode.insertBefore(box, layout);
}

// The language switch keeps the step: its links get the current #step=N.
function keepStepInSwitch() {
  var links = document.querySelectorAll(".lang-switch a[data-lang]");
  function update() {
    var m = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
    links.forEach(function (a) {
      a.setAttribute("href", a.getAttribute("href").split("#")[0] + (m ? "#step=" + m[1] : ""));
    });
  }
  links.forEach(function (a) { a.addEventListener("click", update); a.addEventListener("focus", update); a.addEventListener("mouseenter", update); });
  window.addEventListener("hashchange", update);
  update();
}

whenReady(boot);

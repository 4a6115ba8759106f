/*
 * What-if links on the replay page of a stored game (docs/recorder.md): "Try another move from
 * here" opens the recorder with the log cut by the engine at the step shown (#step=N), and the
 * game's branches (and the game it branched from) are listed, from GET /api/v1/record/branches.
 * Self-contained: it only reads the address and adds one box after the replay.
 */

import { el, whenReady } from "./dom.js";
import { lang, t, tn } from "./i18n.js";
import { statusWord } from "./words.js";

function boot() {
  var match = /^\/r\/([^/]+)$/.exec(window.location.pathname);
  var viewer = document.getElementById("viewer");
  if (!match || !viewer) return;
  var slug = decodeURIComponent(match[1]);
  function step() {
    var m = /(?:^#|&)step=(\d+)/.exec(window.location.hash);
    return m ? Number(m[1]) : 0;
  }
  var link = el("a", { class: "button whatif-link", dataset: { act: "whatif" }, href: "#" }, t("Try another move from here"));
  function point() {
    link.href = "/record?from=" + encodeURIComponent(slug) + "&step=" + step()
      + (lang === "fr" ? "&lang=fr" : "");
    link.setAttribute("aria-label", t("Try another move from step {step} (opens the recorder)", { step: step() }));
  }
  ["focus", "mouseenter", "touchstart", "mousedown"].forEach(function (name) { link.addEventListener(name, point); });
  window.addEventListener("hashchange", point);
  point();
  var list = el("ul", { class: "whatif-list" });
  // The action sits with the step controls (in view at any step, on a phone too); the box
  // after the replay explains it and lists the branches.
  var bar = document.querySelector("#control-bar .slider-row");
  if (bar) { link.textContent = t("Try another move"); bar.appendChild(link); }
  var box = el("section", { class: "panel whatif", "aria-label": t("What if") },
    el("p", null, bar ? null : link, " ", el("span", { class: "whatif-hint", text: t("“Try another move” records a what-if branch from the step shown, checked like any game.") }),
      " ", el("a", { href: "/record", dataset: { act: "record" } }, t("Record a game"))), list);
  // After the replay and its result, so on a phone the table stays right under the step note.
  var layout = viewer.closest(".replay-layout") || viewer;
  layout.parentNode.insertBefore(box, layout.nextSibling);
  fetch("/api/v1/record/branches/" + encodeURIComponent(slug), { headers: { Accept: "application/json" } })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) {
      if (!data) return;
      if (data.branch_of) {
        list.appendChild(el("li", { class: "branch-of" }, tn("A what-if branch of {game} from step {step}.", {
          game: el("a", { href: "/r/" + data.branch_of.slug + "#step=" + data.branch_of.step, text: data.branch_of.title || data.branch_of.slug }),
          step: data.branch_of.step })));
      }
      data.branches.forEach(function (b) {
        list.appendChild(el("li", { class: "branch" }, tn("Branch from step {step}: {game} ({status})", {
          step: b.step, game: el("a", { href: "/r/" + b.slug, text: b.title || b.slug }),
          status: statusWord(b.status) })));
      });
    })
    .catch(function () { /* the links are a bonus: the replay works without them */ });
}

whenReady(boot);

/*
 * slap renderer for the replay viewer (contract: see the top of static/replay.js).
 *
 * Draws the central pile's top cards (the top card largest, its slap conditions beside it), the
 * Folies pile, each player's pile size and status (in, out of cards on their last chance,
 * eliminated; who flips next), the running challenge, and every slap on the current card marked
 * as won, in time (a lone rainbow), too late or penalised. Styles are in games/slap.css, linked
 * once by this file. Colour is never the only cue: each colour also has a symbol and its name.
 */
(function () {
  "use strict";

  var COLOURS = {
    red: { symbol: "●", name: "red" },
    blue: { symbol: "■", name: "blue" },
    green: { symbol: "▲", name: "green" },
    yellow: { symbol: "★", name: "yellow" },
    rainbow: { symbol: "✦", name: "rainbow" },
    shadow: { symbol: "◆", name: "shadow" },
  };
  var CONDITIONS = {
    "same-value": "same value — slap!",
    "three-of-a-colour": "three of one colour — slap!",
    "shadow-on-shadow": "shadow on shadow — slap: a card from each player",
    "rainbow-on-shadow": "rainbow on shadow — slap the Folies pile",
    "lone-rainbow": "lone rainbow — everyone must slap",
    "shadow-trap": "shadow trap — don’t slap",
  };
  var RESULTS = {
    won: { text: "won", cls: "sl-won" },
    valid: { text: "in time", cls: "sl-valid" },
    late: { text: "too late", cls: "sl-late" },
    wrong: { text: "penalised", cls: "sl-wrong" },
  };
  var STATUS = { "in": "in the game", "no-cards": "out of cards — last chance", eliminated: "eliminated" };
  var ENDINGS = { elimination: "only one player was left", time: "time was up",
    "no-cards": "nobody held a card any more" };
  var TOP_CARDS = 6;


  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function parse(card) {
    if (!card || card.charAt(0) === "?") return null;
    var cut = card.lastIndexOf("-");
    return { colour: card.slice(0, cut), value: card.slice(cut + 1) };
  }

  // One card, face up (a known id) or face down (a slot id or nothing). opts: {big, top, mark}
  function card(h, id, opts) {
    opts = opts || {};
    var parts = parse(id);
    if (!parts) {
      return h.el("div", { class: "sl-card sl-back" + (opts.big ? " sl-big" : ""), role: "img",
        "aria-label": "a card not seen in the log", title: "a card not seen in the log" },
        h.el("span", { class: "sl-num", "aria-hidden": "true", text: "?" }));
    }
    var colour = COLOURS[parts.colour] || { symbol: "?", name: parts.colour };
    var label = colour.name + " " + parts.value + (opts.top ? ", top card" : "");
    return h.el("div", { class: "sl-card sl-" + parts.colour + (opts.big ? " sl-big" : "") + (opts.top ? " sl-top" : ""),
      role: "img", "aria-label": label, title: label, dataset: { card: id } },
      h.el("span", { class: "sl-sym", "aria-hidden": "true", text: colour.symbol }),
      h.el("span", { class: "sl-num", "aria-hidden": "true", text: parts.value }),
      h.el("span", { class: "sl-colour", "aria-hidden": "true", text: colour.name }));
  }

  function centralPile(h, st) {
    var central = st.central || [];
    var shown = central.slice(-TOP_CARDS);
    var box = h.el("section", { class: "sl-pile sl-central", "aria-label": "Central pile, " + plural(central.length, "card") },
      h.el("div", { class: "sl-pile-head" }, h.el("span", { class: "sl-title", text: "Central pile" }),
        h.el("span", { class: "sl-count", dataset: { count: String(central.length) }, text: plural(central.length, "card") })));
    if (!shown.length) {
      box.appendChild(h.el("p", { class: "empty-note", text: "empty" }));
      return box;
    }
    var row = h.el("div", { class: "sl-cards" });
    if (central.length > shown.length) {
      row.appendChild(h.el("span", { class: "sl-more", text: "+" + (central.length - shown.length) + " under" }));
    }
    shown.forEach(function (id, i) {
      row.appendChild(card(h, id, { big: i === shown.length - 1, top: i === shown.length - 1 }));
    });
    box.appendChild(row);
    var window_ = st.window;
    if (window_ && window_.card === central[central.length - 1] && window_.conditions.length) {
      box.appendChild(h.el("ul", { class: "sl-conditions", "aria-label": "Slap conditions of the top card" },
        window_.conditions.map(function (c) {
          return h.el("li", { class: "sl-cond sl-cond-" + c, text: CONDITIONS[c] || c });
        })));
    }
    return box;
  }

  function foliesPile(h, st) {
    var folies = st.folies || [];
    var top = folies.length ? folies[folies.length - 1] : null;
    return h.el("section", { class: "sl-pile sl-folies", "aria-label": "Folies pile, " + plural(folies.length, "card") },
      h.el("div", { class: "sl-pile-head" }, h.el("span", { class: "sl-title", text: "Folies pile" }),
        h.el("span", { class: "sl-count", dataset: { count: String(folies.length) }, text: plural(folies.length, "card") })),
      top ? h.el("div", { class: "sl-cards" }, card(h, top, {})) : h.el("p", { class: "empty-note", text: "empty" }));
  }

  function challengeBox(h, st) {
    var c = st.challenge;
    if (!c) return null;
    var who = c.player === null ? "Nobody can answer" : c.player + " owes " + plural(c.left, "card");
    return h.el("section", { class: "sl-challenge", role: "status", "aria-label": "Running challenge" },
      h.el("strong", { text: "Challenge " + c.size + ": " }),
      who + " (" + (c.size - c.left) + " of " + c.size + " flipped) — set by " + c.setter +
        ", who takes the pile if no 1–5 comes up.");
  }

  // Every slap judged against the current card, up to this step.
  function slapsOnThisCard(h, step) {
    var out = [];
    for (var i = step.index; i >= 0; i--) {
      var s = h.steps[i];
      if (!s || s.kind === "flip" || s.kind === "deal") break;
      if (s.kind === "slap") out.unshift(s);
    }
    return out;
  }

  function slapList(h, step) {
    var slaps = slapsOnThisCard(h, step);
    if (!slaps.length) return null;
    var list = h.el("ol", { class: "sl-slaps", "aria-label": "Slaps on this card, in the order hands landed" });
    slaps.forEach(function (s) {
      var r = RESULTS[s.data.result] || { text: s.data.result, cls: "" };
      var extra = "";
      if (s.data.result === "won" && s.data.claimed) extra = " (a missed slap, claimed)";
      if (s.data.result === "wrong") extra = " (paid " + plural((s.data.paid || []).length, "card") + ")";
      var item = h.el("li", { class: "sl-slap " + r.cls + (s.index === step.index ? " sl-current" : ""),
        dataset: { player: s.data.player, result: s.data.result } },
        h.el("span", { class: "sl-who", text: s.data.player }),
        h.el("span", { class: "sl-where", text: s.data.pile === "folies" ? " on Folies" : "" }),
        h.el("span", { class: "sl-mark " + r.cls, text: r.text + extra }));
      list.appendChild(item);
    });
    return h.el("section", { class: "sl-slap-box" }, h.el("div", { class: "sl-title", text: "Slaps on this card" }), list);
  }

  function players(h, step) {
    var st = step.state;
    var names = Object.keys(st.counts);
    var actor = step.data && step.data.player;
    var box = h.el("div", { class: "players sl-players", role: "group", "aria-label": "Players" });
    names.forEach(function (name) {
      var status = st.status[name];
      var classes = "player sl-player sl-" + status + (st.next === name ? " sl-next" : "") + (actor === name ? " sl-actor" : "");
      var count = st.counts[name];
      box.appendChild(h.el("section", { class: classes, dataset: { player: name, count: String(count), status: status }, "aria-label": name },
        h.el("div", { class: "player-head" },
          h.el("span", { class: "player-name", text: name }),
          h.el("span", { class: "sl-pile-size", title: plural(count, "card") + " in the pile" },
            h.el("span", { class: "sl-stack", "aria-hidden": "true" }), h.el("strong", { text: String(count) }))),
        h.el("div", { class: "sub", text: STATUS[status] + (st.next === name ? " · flips next" : "") })));
    });
    return box;
  }

  function renderState(container, step, result, h) {
    var st = step.state;
    if (!st) {
      container.appendChild(h.el("p", { class: "empty-note", text: "No table at this step." }));
      return;
    }
    var table = h.el("div", { class: "sl-table" },
      h.el("div", { class: "sl-piles" }, centralPile(h, st), foliesPile(h, st)),
      challengeBox(h, st),
      slapList(h, step));
    container.appendChild(h.el("div", { class: "sl-layout" }, table, players(h, step)));
  }

  function renderOutcome(container, result, h) {
    var o = result.outcome;
    if (!o) return;
    var dl = h.el("dl", { class: "kv sl-outcome" });
    function row(term, value) { dl.appendChild(h.el("dt", { text: term })); dl.appendChild(h.el("dd", { text: value })); }
    if (o.winners === null) row("Winner", "not decided yet (the log stops early)");
    else if (!o.winners.length) row("Winner", "nobody");
    else row(o.winners.length > 1 ? "Winners (shared)" : "Winner", o.winners.join(", "));
    if (o.ended_by) row("Ended because", ENDINGS[o.ended_by] || o.ended_by);
    row("Cards held", Object.keys(o.cards).map(function (n) { return n + " " + o.cards[n]; }).join(", "));
    row("Eliminated, in order", o.eliminated.length ? o.eliminated.join(", ") : "nobody");
    row("Central pile", plural(o.central_pile, "card"));
    row("Folies pile", plural(o.folies_pile, "card"));
    row("Flips and slaps", o.flips + " flips, " + o.slaps + " slaps");
    container.appendChild(dl);
  }

  window.PopReplayGames = window.PopReplayGames || {};
  window.PopReplayGames.slap = { renderState: renderState, renderOutcome: renderOutcome };
})();

/*
 * POP! renderer for the replay viewer (contract: see the top of static/replay.js).
 *
 * Draws the play area as it lies on the table: five queues A–E, each resting on its Queue card
 * (rows are absolute table rows, row 0 at the top), the cards of the turn waiting to be placed,
 * the cards of an explosion wave, the Chief's waiting pile and each player's cards and scores.
 * Colour of a card = number mod 5; each colour also has a symbol, so colour is never the only cue.
 */
(function () {
  "use strict";

  var COLOURS = [
    { name: "purple", symbol: "◆" },
    { name: "red", symbol: "●" },
    { name: "yellow", symbol: "▲" },
    { name: "green", symbol: "■" },
    { name: "blue", symbol: "★" },
  ];
  var QUEUES = ["A", "B", "C", "D", "E"];
  var CHIEF = "the Multicolour Chief";

  function hasArrow(n) { return n <= 10 || n >= 41; }
  function icons(n) {
    if (n <= 5 || n >= 46) return 3;
    if ((n >= 16 && n <= 20) || (n >= 31 && n <= 35)) return 2;
    return 1;
  }
  function sumIcons(cards) { return (cards || []).reduce(function (s, c) { return s + icons(c); }, 0); }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function describe(n) {
    var colour = COLOURS[n % 5];
    return n + ", " + colour.name + " " + colour.symbol + ", " + plural(icons(n), "explosion icon") +
      (hasArrow(n) ? ", Arrow" : "");
  }

  // One card. opts: {mini, row, col, placed, boom}
  function card(h, n, opts) {
    opts = opts || {};
    var classes = ["card", "c" + (n % 5)];
    if (opts.mini) classes.push("mini");
    if (opts.placed) classes.push("just-placed");
    if (opts.boom) classes.push("will-explode");
    var label = describe(n);
    if (opts.placed) label += ", just placed";
    if (opts.boom) label += ", about to explode";
    var dataset = { card: String(n) };
    if (opts.row !== undefined) { dataset.row = String(opts.row); dataset.col = String(opts.col); }
    return h.el("div", { class: classes.join(" "), role: "img", "aria-label": label, title: label, dataset: dataset },
      h.el("span", { class: "sym", "aria-hidden": "true", text: COLOURS[n % 5].symbol }),
      h.el("span", { class: "num", "aria-hidden": "true", text: String(n) }),
      hasArrow(n) ? h.el("span", { class: "arrow", "aria-hidden": "true", text: "➜" }) : null,
      h.el("span", { class: "icons", "aria-hidden": "true" }, burst(h, icons(n))),

      opts.boom ? h.el("span", { class: "boom-badge", "aria-hidden": "true" }) : null);
  }

  function burst(h, count) {
    var out = [];
    for (var i = 0; i < count; i++) out.push(h.el("i", { class: "burst" }));
    return out;
  }

  function cardsRow(h, cards, opts) {
    if (!cards || !cards.length) return h.el("div", { class: "cards-row" }, h.el("span", { class: "empty-note", text: (opts && opts.empty) || "none" }));
    return h.el("div", { class: "cards-row" + (opts && opts.big ? " big" : "") },
      cards.map(function (n) { return card(h, n, { mini: !(opts && opts.big) }); }));
  }

  // The cards the next step makes explode (a wave is shown on the table before it vanishes).
  function aboutToExplode(step, h) {
    var set = {};
    if (h.next && h.next.kind === "explode" && h.next.round === step.round) {
      (h.next.data.cards || []).forEach(function (c) { set[c] = true; });
    }
    return set;
  }

  function findReveal(step, h) {
    if (step.turn === null || step.turn === undefined) return null;
    for (var i = step.index; i >= 0; i--) {
      var s = h.steps[i];
      if (!s || s.round !== step.round || s.turn !== step.turn) break;
      if (s.kind === "reveal") return s;
    }
    return null;
  }

  function area(h, step, boom) {
    var a = step.state.area;
    var rows = a.rows || [];
    var qr = a.queue_rows;
    var placed = step.kind === "place" ? step.data : null;
    var top = null;
    rows.forEach(function (row, r) {
      if (top === null && row.some(function (c) { return c !== null; })) top = r;
    });
    var bottom = Math.max.apply(null, qr);
    if (top === null) top = Math.min.apply(null, qr);
    var grid = h.el("div", { class: "pop-area", role: "group", "aria-label": "Play area: queues A to E, rows from the top" });
    grid.appendChild(h.el("span", { class: "rowlabel", "aria-hidden": "true", text: "row" }));
    QUEUES.forEach(function (q) { grid.appendChild(h.el("span", { class: "colhead", "aria-hidden": "true", text: q })); });
    for (var r = top; r <= bottom; r++) {
      grid.appendChild(h.el("span", { class: "rowlabel", "aria-hidden": "true", text: String(r) }));
      for (var c = 0; c < 5; c++) {
        var n = r < rows.length ? rows[r][c] : null;
        if (r < qr[c] && n !== null && n !== undefined) {
          var isPlaced = !!placed && placed.card === n;
          grid.appendChild(card(h, n, { row: r, col: c, placed: isPlaced, boom: !!boom[n] }));
        } else if (r === qr[c]) {
          grid.appendChild(h.el("div", { class: "card queue", role: "img", "aria-label": "Queue card " + QUEUES[c], dataset: { queue: QUEUES[c], row: String(r) } },
            h.el("span", { class: "num", "aria-hidden": "true", text: QUEUES[c] }),
            h.el("span", { class: "label", "aria-hidden": "true", text: "queue" })));
        } else {
          grid.appendChild(h.el("div", { class: "slot " + (r < qr[c] ? "empty" : "below"), "aria-hidden": "true" }));
        }
      }
    }
    return h.el("div", { class: "pop-area-wrap" }, grid);
  }

  function turnStrip(h, step) {
    var reveal = findReveal(step, h);
    if (!reveal) return null;
    var waiting = {};
    (step.state.unplaced || []).forEach(function (c) { waiting[c] = true; });
    var d = reveal.data;
    var strip = h.el("div", { class: "turn-strip", role: "group", "aria-label": "Cards revealed this turn" },
      h.el("div", { class: "title" }, "Turn " + reveal.turn + ": revealed — " + plural(d.arrows, "Arrow") + ", placed " +
        d.direction + " (" + (d.direction === "descending" ? "E" : "A") + " first)"));
    d.cards.forEach(function (entry) {
      var done = !waiting[entry.card];
      var placedNow = step.kind === "place" && step.data.card === entry.card;
      var stateText = placedNow ? "just placed" : done ? (step.kind === "reveal" ? "" : "placed") : "waiting";
      if (step.kind === "reveal") { done = false; stateText = "to " + entry.queue; }
      strip.appendChild(h.el("div", { class: "revealed" + (done && !placedNow ? " done" : ""), dataset: { card: String(entry.card) } },
        h.el("span", { class: "queue-letter", text: "→ " + entry.queue }),
        card(h, entry.card, { mini: false }),
        h.el("span", { class: "owner", text: entry.owner === null ? "Chief" : entry.owner, title: entry.owner === null ? CHIEF : entry.owner }),
        h.el("span", { class: "state", text: stateText })));
    });
    return strip;
  }

  function explodedStrip(h, step) {
    if (step.kind !== "explode") return null;
    var d = step.data;
    var who = d.collector === null ? "wait beside the Chief" : "go to " + d.collector;
    var strip = h.el("div", { class: "exploded-strip", role: "group", "aria-label": "Cards exploded in this wave" },
      h.el("div", { class: "title" }, "Wave " + d.wave + " exploded — " + plural(d.icons, "icon") + " " + who),
      h.el("div", { class: "cards-row big wave-cards" }, d.cards.map(function (c) { return card(h, c, {}); })));
    if (d.chief_pile_taken && d.chief_pile_taken.length) {
      strip.appendChild(h.el("div", { class: "title" }, d.collector + " also takes the Chief’s waiting pile (" +
        plural(sumIcons(d.chief_pile_taken), "icon") + "):"));
      var taken = cardsRow(h, d.chief_pile_taken, {});
      taken.classList.add("taken-pile");
      strip.appendChild(taken);
    }
    return strip;
  }

  function sidePanel(h, step, result) {
    var st = step.state;
    var battle = result.mode === "battle";
    var names = Object.keys(st.scores);
    var collector = step.kind === "explode" ? step.data.collector : undefined;
    var side = h.el("div", { class: "players", role: "group", "aria-label": "Players" });
    names.forEach(function (name) {
      var hand = st.hands ? st.hands[name] : null;
      var box = h.el("section", { class: "player" + (collector === name ? " collector" : ""), dataset: { player: name }, "aria-label": name },
        h.el("div", { class: "player-head" },
          h.el("span", { class: "player-name", text: name }),
          h.el("span", { class: "player-score" }, battle
            ? ["round ", h.el("strong", { class: "round-score", text: String(st.scores[name]) }), " · total ", h.el("strong", { class: "total-score", text: String(st.totals[name]) })]
            : ["icons collected ", h.el("strong", { class: "round-score", text: String(st.scores[name]) })])),
        h.el("div", { class: "sub", text: "Collected" + (battle ? " this round" : "") + " (" + st.collected[name].length + ")" }),
        cardsRow(h, st.collected[name], {}));
      var handHead = h.el("div", { class: "sub" });
      if (!hand) {
        handHead.textContent = "Hand not recorded in the log";
        box.appendChild(handHead);
      } else {
        handHead.appendChild(document.createTextNode("Hand: " + plural(hand.length, "card") + " "));
        handHead.appendChild(h.revealButton(name));
        box.appendChild(handHead);
        if (h.isRevealed(name)) {
          var row = cardsRow(h, hand, { empty: "empty" });
          row.classList.add("hand");
          box.appendChild(row);
        }
      }
      side.appendChild(box);
    });
    if (result.mode === "battle" || result.mode === "coop") {
      side.appendChild(h.el("section", { class: "player chief" + (collector === null ? " collector" : ""), "aria-label": "The Multicolour Chief's waiting pile" },
        h.el("div", { class: "player-head" }, h.el("span", { class: "player-name", text: "Multicolour Chief" }),
          h.el("span", { class: "player-score", text: "waiting pile " + plural(sumIcons(st.chief_pending), "icon") })),
        h.el("div", { class: "sub", text: "Taken by the next player who collects" }),
        h.el("div", { class: "chief-pile" }, cardsRow(h, st.chief_pending, { empty: "empty" }))));
    }
    return side;
  }

  function legend(h) {
    return h.el("div", { class: "legend", "aria-label": "Legend" },
      COLOURS.map(function (c, i) {
        // a card's colour is its number mod 5, said plainly: the number's last digit
        return h.el("span", { dataset: { colour: c.name } }, h.el("span", { class: "swatch card c" + i, "aria-hidden": "true", text: c.symbol }),
          c.name + ": ends in " + (i === 0 ? "0 or 5" : i + " or " + (i + 5)));
      }),
      h.el("span", null, "➜ Arrow"), h.el("span", null, h.el("span", { class: "legend-burst", "aria-hidden": "true" }, h.el("i", { class: "burst" })), "explosion icon"),
      h.el("span", null, "black and white ring: card just placed"), h.el("span", null, h.el("span", { class: "legend-boom", "aria-hidden": "true" }), "dashed ring and burst: about to explode"));
  }

  function renderState(container, step, result, h) {
    var st = step.state;
    if (!st) {
      container.appendChild(h.el("p", { class: "empty-note", text: "No table yet at this step." }));
      return;
    }
    var boom = aboutToExplode(step, h);
    var strip = turnStrip(h, step);
    if (strip) container.appendChild(strip);
    var exploded = explodedStrip(h, step);
    if (exploded) container.appendChild(exploded);
    var table = h.el("div", { class: "pop-table" }, h.el("div", null, area(h, step, boom), legend(h)), sidePanel(h, step, result));
    container.appendChild(table);
  }

  // ---- result panel ----

  function winnersLine(h, outcome) {
    if (!outcome.winners) return h.el("p", { class: "outcome-big", text: "Winner: not decided yet (the log stops early)." });
    var p = h.el("p", { class: "outcome-big", id: "winners" },
      (outcome.winners.length === 1 ? "Winner: " : "Winners: ") + outcome.winners.join(", ") +
      " (lowest total wins)");
    var tie = { "kept-card": "Tied on the total; the card left in hand broke the tie.",
      shared: "Tied on the total and on the kept cards: the victory is shared.",
      unknown: "Tied on the total; the kept cards are not recorded, so the tie cannot be broken." }[outcome.tie_break];
    return tie ? [p, h.el("p", { text: tie })] : p;
  }

  function battleOutcome(container, result, h) {
    var o = result.outcome;
    var players = Object.keys(o.totals);
    var winners = o.winners || [];
    container.appendChild(h.el("div", null, winnersLine(h, o)));
    var head = h.el("tr", null, h.el("th", { scope: "col", text: "Round" }),
      players.map(function (p) { return h.el("th", { scope: "col", class: "num" + (winners.indexOf(p) >= 0 ? " winner" : ""), text: p }); }));
    var body = h.el("tbody");
    o.rounds.forEach(function (r, i) {
      body.appendChild(h.el("tr", null, h.el("th", { scope: "row", text: String(i + 1) }),
        players.map(function (p) { return h.el("td", { class: "num", text: String(r.scores[p]) }); })));
    });
    var foot = h.el("tfoot", null, h.el("tr", { class: "totals" }, h.el("th", { scope: "row", text: "Total" }),
      players.map(function (p) { return h.el("td", { class: "num", dataset: { player: p } }, h.el("strong", { text: String(o.totals[p]) })); })));
    container.appendChild(h.el("div", { class: "table-scroll" }, h.el("table", { class: "totals-table" },
      h.el("caption", { class: "visually-hidden", text: "Points per round and totals (icons collected; lowest wins)" }),
      h.el("thead", null, head), body, foot)));
    var extra = h.el("dl", { class: "kv" });
    o.rounds.forEach(function (r, i) {
      var kept = players.map(function (p) { return p + " " + (r.kept[p] === null ? "?" : r.kept[p]); }).join(", ");
      extra.appendChild(h.el("dt", { text: "Round " + (i + 1) + " kept" }));
      extra.appendChild(h.el("dd", { text: kept }));
      if (r.chief_pending.length) {
        extra.appendChild(h.el("dt", { text: "Left with the Chief" }));
        extra.appendChild(h.el("dd", { text: r.chief_pending.join(", ") + " (scored by nobody)" }));
      }
    });
    container.appendChild(extra);
  }

  function firstStep(h, kind) {
    for (var i = 0; i < h.steps.length; i++) if (h.steps[i].kind === kind) return h.steps[i];
    return null;
  }

  function renderOutcome(container, result, h) {
    var o = result.outcome;
    if (result.mode === "battle") { battleOutcome(container, result, h); return; }
    var big;
    var facts = [];
    if (result.mode === "coop") {
      big = o.result === null ? "Not finished yet" : o.result === "won" ? "The group wins — level " + o.level
        : "The group loses on turn " + o.failed_turn + " — level " + o.level;
      facts = [["Level", o.level], ["Cards left in each hand", o.cards_left], ["Failed turn", o.failed_turn]];
    } else if (result.mode === "solo") {
      big = o.result === null ? "Not finished yet" : o.result === "won" ? "Won — title “" + o.title + "”"
        : "Lost — " + plural(o.cards_left_in_play, "card") + " still in play";
      facts = [["Difficulty", o.difficulty], ["Title", o.title], ["Turns played", o.turns_played], ["Cards left in play", o.cards_left_in_play]];
    } else if (result.mode === "puzzle") {
      big = o.solved === null ? "Not played yet" : o.solved ? "Solved: every starting card exploded"
        : "Not solved — " + plural(o.layout_cards_left, "starting card") + " left";
      facts = [["Starting cards left", o.layout_cards_left], ["Cards left in play", o.cards_left_in_play]];
    }
    container.appendChild(h.el("p", { class: "outcome-big", id: "outcome-line", text: big }));
    var dl = h.el("dl", { class: "kv" });
    facts.forEach(function (f) {
      dl.appendChild(h.el("dt", { text: f[0] }));
      dl.appendChild(h.el("dd", { text: f[1] === null || f[1] === undefined ? "—" : String(f[1]) }));
    });
    container.appendChild(dl);
    var boom = result.mode === "coop" && o.result === "lost" ? firstStep(h, "explode") : null;
    if (boom) container.appendChild(h.el("p", null, "The explosion that lost the game: ", h.stepButton(boom.index, "step " + boom.index)));
  }

  function pointSources(result, h) {
    if (result.mode !== "battle") return [];
    return h.steps.filter(function (s) { return s.kind === "explode" && typeof s.data.collector === "string"; })
      .map(function (s) {
        var points = s.data.icons + sumIcons(s.data.chief_pile_taken);
        return {
          player: s.data.collector, index: s.index, points: points,
          label: "R" + s.round + " T" + s.turn + " +" + points,
          title: "Round " + s.round + ", turn " + s.turn + ", wave " + s.data.wave + ": " + s.data.cards.join(", ") +
            (s.data.chief_pile_taken.length ? " and the Chief’s pile " + s.data.chief_pile_taken.join(", ") : ""),
        };
      });
  }

  window.PopReplayGames = window.PopReplayGames || {};
  window.PopReplayGames.pop = { renderState: renderState, renderOutcome: renderOutcome, pointSources: pointSources };
})();

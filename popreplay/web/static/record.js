/*
 * popreplay recorder (GET /record): the game-agnostic frame — setup form, draft in localStorage,
 * undo/redo, offline queue, live check, table drawn by the replay renderers, running scores, step
 * notes, end screen with claims, saving/continuing, what-if branches.
 *
 * THE PER-GAME PANEL CONTRACT (the full text, with the engine and API sides: docs/recorder.md,
 * section "Contracts for game panels")
 * ---------------------------------------------------------------------------------------------
 * The page loads static/games/<game>.js (replay renderer), static/games/<game>.record.js (the
 * entry panel), then this file. A panel registers:
 *
 *   window.PopReplayRecorders = window.PopReplayRecorders || {};
 *   window.PopReplayRecorders["<game>"] = {
 *     renderPanel(container, rec),          // required: draw the entry panel into container
 *     reset(),                              // optional: drop any half-built entry
 *     start(setup) -> log,                  // optional: the empty draft for this setup
 *     setupForm(container, setup, helpers), // optional: the game's options in the setup form
 *   };
 *
 * setup = {game, mode, players: [names], options: {}, recordHands: bool, meta: {}}
 *
 * rec (fresh for each renderPanel call):
 *   game, mode, players, recordHands   from the setup
 *   draft        deep copy of the current draft log
 *   choices      the engine's `choices` answer for the draft ({over, next, ...}), null unchecked
 *   result       the last result object (no steps), or null
 *   steps        the last steps ("tail": all notes, the last two steps whole), or []
 *   offline      true while the network is down (entries queued, checked when it is back)
 *   commit(mutate, label) -> Promise<bool>
 *                mutate(log) edits a deep copy of the draft in place (or returns a new log);
 *                the frame checks it; refused (engine message shown, draft unchanged) -> false
 *   ask(pending) -> Promise<choices answer | null offline>   (POST /api/v1/record/check, steps "none")
 *   refresh()    re-render the panel now
 *   helpers      {el(tag, attrs, ...children), clear(node)} as in replay.js
 *
 * Shared classes (static/record.css): rp-box rp-head rp-sub rp-hint rp-row rp-big rp-key rp-toggle
 * rp-on rp-check rp-done rp-error. Buttons carry data-act for tests and a text or aria-label.
 */
(function () {
  "use strict";
})();

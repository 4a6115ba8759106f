/*
 * The table as last checked, drawn by the game's renderer module (its contract in viewer.js) from
 * the latest steps of a draft: the recorder's and the table page's "The table" box.
 */
import { el } from "./dom.js";
import { t } from "./i18n.js";

// the last step's table (null: no step with a table, or no renderer)
export function lastStage(renderer, steps, result, players) {
  var step = steps.length ? steps[steps.length - 1] : null;
  if (!step || !step.state || !renderer || !renderer.renderState) return null;
  var stage = el("div", { class: "stage" });
  var index = steps.length - 1;
  var helpers = { el: el, index: index, steps: steps, prev: index > 0 ? steps[index - 1] : null, next: null,
    players: players, isRevealed: function () { return true; }, revealButton: function () { return document.createTextNode(""); },
    stepButton: function (i, text) { return el("span", { text: text }); }, goTo: function () {} };
  try { renderer.renderState(stage, step, Object.assign({ steps: steps }, result || {}), helpers); }
  catch (e) { stage.appendChild(el("p", { class: "rp-error", text: t("The table could not be drawn: {why}", { why: e.message }) })); }
  return stage;
}

// the running scores (null: no outcome yet, or the renderer draws none)
export function runningScores(renderer, steps, result, players) {
  if (!result || !result.outcome || !renderer || !renderer.renderOutcome) return null;
  var out = el("div", { class: "rp-outcome", "aria-label": t("Running scores") });
  try { renderer.renderOutcome(out, Object.assign({ steps: steps }, result), { el: el, players: players }); }
  catch (e) { return null; }  // the table above still shows the state
  return out;
}

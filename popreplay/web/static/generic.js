/*
 * The replay's fallback renderer: a game without a renderer module (or one that throws) has its
 * state and outcome shown as definition lists (docs/viewer.md).
 */
import { t } from "./i18n.js";
import { show } from "./words.js";

export var generic = {
  renderState: function (container, step, result, h) {
    if (!step.state) {
      container.appendChild(h.el("p", { class: "empty-note", text: t("No table at this step.") }));
      return;
    }
    var dl = h.el("dl", { class: "kv generic-state" });
    Object.keys(step.state).forEach(function (key) {
      dl.appendChild(h.el("dt", { text: key }));
      dl.appendChild(h.el("dd", null, h.el("code", { text: show(step.state[key]) })));
    });
    container.appendChild(h.el("h3", { text: t("Table after this step") }));
    container.appendChild(dl);
  },
  renderOutcome: function (container, result, h) {
    var outcome = result.outcome;
    if (!outcome) return;
    var dl = h.el("dl", { class: "kv" });
    Object.keys(outcome).forEach(function (key) {
      dl.appendChild(h.el("dt", { text: key }));
      dl.appendChild(h.el("dd", { text: show(outcome[key]) }));
    });
    container.appendChild(dl);
  },
};

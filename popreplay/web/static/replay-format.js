/*
 * Replay format 2 (docs/log-format.md, "Replay formats"): a step after the first carries
 * `state_patch` (JSON Patch ops: add, remove, replace, against the step before's state) instead of
 * `state`. withStates gives every step its whole `state` again, in place; a new state shares with
 * the one before every object and array its patch does not touch. Format 1 passes as is.
 */
import { tokens as pointerTokens } from "./pointer.js";

export function withStates(steps) {
  var before = null;
  steps.forEach(function (step) {
    if (step.state_patch) {
      var fresh = new Set();
      var own = function (node) {
        if (fresh.has(node)) return node;
        var copy = Array.isArray(node) ? node.slice() : Object.assign({}, node);
        fresh.add(copy);
        return copy;
      };
      var state = before;
      step.state_patch.forEach(function (op) {
        var keys = pointerTokens(op.path);
        if (!keys.length) { state = op.value; return; }
        state = own(state);
        var node = state;
        for (var i = 0; i < keys.length - 1; i++) node = node[keys[i]] = own(node[keys[i]]);
        var last = keys[keys.length - 1];
        if (Array.isArray(node)) {
          if (op.op === "remove") node.splice(Number(last), 1);
          else if (op.op === "add") node.splice(last === "-" ? node.length : Number(last), 0, op.value);
          else node[Number(last)] = op.value;
        } else if (op.op === "remove") delete node[last];
        else node[last] = op.value;
      });
      step.state = state;
      delete step.state_patch;
    }
    before = step.state;
  });
  return steps;
}

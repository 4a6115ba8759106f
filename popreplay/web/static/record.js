/*
 * The recorder's page (GET /record, docs/recorder.md): its Recorder (recorder.js) with every
 * game's renderer and entry panel (the kits' modules, games.js).
 */
import { pageData, whenReady } from "./dom.js";
import { loadGames } from "./games.js";
import { Recorder } from "./recorder.js";

export var recorder = null;  // the page's Recorder, once started (for tests: import("/assets/record.js"))

function boot() {
  var root = document.getElementById("recorder");
  var page = pageData("record-data");
  if (!root || !page) return;
  Promise.all([loadGames("renderer"), loadGames("panel")]).then(function (found) {
    recorder = new Recorder(root, page, { renderers: found[0], panels: found[1] });
    recorder.start();
    root.dispatchEvent(new CustomEvent("popreplay:recorder", { bubbles: true, detail: recorder }));
  });
}

whenReady(boot);

/*
 * The games' page modules, as the page names them: each kit's renderer and entry panel
 * (popreplay/games/<g>/static/, docs/viewer.md and docs/recorder.md for their contracts) is a
 * <link rel="modulepreload" href="…" data-game="<g>" data-part="renderer|panel"> of the page.
 */

// {game: module} of the page's modules of that part ("renderer" or "panel"); a module that fails
// to load is left out (the page then draws without it)
export function loadGames(part) {
  var links = Array.prototype.slice.call(document.querySelectorAll('link[data-game][data-part="' + part + '"]'));
  return Promise.all(links.map(function (link) {
    return import(link.href).then(function (module) { return [link.dataset.game, module]; },
      function (error) { if (window.console) window.console.error(error); return null; });
  })).then(function (pairs) {
    var games = {};
    pairs.forEach(function (pair) { if (pair) games[pair[0]] = pair[1]; });
    return games;
  });
}

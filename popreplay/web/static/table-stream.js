/*
 * A table's live stream, read with fetch (docs/table.md, "Streams"): the token goes in the
 * Authorization header, never in the URL (EventSource sends no header, and a URL reaches access
 * logs and histories). The Server-Sent Events are parsed here: "id: …", "event: …", "data: …"
 * lines, a blank line after each event; comments (": keep-alive", ": polling …") are skipped.
 *
 * open(url, {token, lastId}, on) -> {close()}: on.open(); on.event(name,
 * data, id); on.refused(status) (429, 503: too many streams; 401, 403: the token); on.lost()
 * (the network, or the stream's lifetime is over: open it again with the last id).
 */
export function open(url, opts, on) {
  var ctl = new AbortController(), closed = false;
  var headers = { Accept: "text/event-stream", Authorization: "Bearer " + opts.token };
  if (opts.lastId !== null && opts.lastId !== undefined) headers["Last-Event-ID"] = opts.lastId;
  fetch(url, { headers: headers, signal: ctl.signal, cache: "no-store" }).then(function (r) {
    if (r.status !== 200) { if (!closed) on.refused(r.status); return; }
    on.open();
    var reader = r.body.getReader(), text = new TextDecoder(), buf = "";
    return reader.read().then(function pump(c) {
      if (c.done) throw new Error("the stream ended");
      var blocks = (buf += text.decode(c.value, { stream: true })).split("\n\n");
      buf = blocks.pop();
      blocks.forEach(function (b) { if (!closed) dispatch(b, on); });
      return reader.read().then(pump);
    });
  }).catch(function () { if (!closed) on.lost(); });
  return { close: function () { closed = true; ctl.abort(); } };
}

function dispatch(block, on) {
  var ev = {};
  block.split("\n").forEach(function (line) {
    var i = line.indexOf(": ");
    if (i > 0) ev[line.slice(0, i)] = line.slice(i + 2);
  });
  if (ev.event) on.event(ev.event, JSON.parse(ev.data), ev.id);
}

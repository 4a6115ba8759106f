"""An embedded replay in a real Chromium page of another site (another origin: a small HTTP server
on another port): the embed is framed and steps; the full replay page refuses to be framed."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import pytest

from .conftest import Server

pytestmark = pytest.mark.browser


@contextmanager
def forum(page: bytes) -> Iterator[str]:
    """A site of another origin serving ``page`` at ``/thread``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/thread"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def test_a_forum_page_frames_the_embed_and_not_the_page(browser: Any, server: Server,
                                                         stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    thread = (f"<!doctype html><title>forum</title><p>Look at this game:</p>"
              f'<iframe id="embed" src="{server.url}/embed/{slug}" width="380" height="560">'
              f'</iframe><iframe id="page" src="{server.url}/r/{slug}" width="380" '
              f'height="200"></iframe>').encode()
    context = browser.new_context(viewport={"width": 390, "height": 844})
    problems: list[str] = []
    try:
        tab = context.new_page()
        tab.set_default_timeout(15000)
        tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        tab.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        with forum(thread) as url:
            tab.goto(url)
            viewer = tab.frame_locator("#embed")
            viewer.locator("#viewer[data-step='0']").wait_for(state="attached")
            assert viewer.locator(".site-header").count() == 0
            viewer.get_by_role("button", name="Next step").click()
            viewer.locator("#viewer[data-step='1']").wait_for(state="attached")
            assert viewer.locator("#step-count").inner_text().startswith("Step 1 /")
            assert viewer.locator(".pop-area .card[data-card]").count() > 0
            title = viewer.locator(".embed-title a").first
            assert title.get_attribute("target") == "_blank"
            assert (title.get_attribute("href") or "").endswith(f"/r/{slug}")

            page = tab.frame_locator("#page")
            tab.wait_for_timeout(500)
            assert page.locator("#viewer").count() == 0  # refused: frame-ancestors 'none'
        refusals = [p for p in problems if "frame-ancestors 'none'" in p]
        assert len(refusals) == 1, problems  # the replay page's, not the embed's
        assert [p for p in problems if p not in refusals] == []
    finally:
        context.close()

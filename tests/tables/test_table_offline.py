"""Nothing lost (issue 23) on the table page, in Debian's Chromium at 390×844 against the real
server (SQLite): an entry tapped offline is kept in the phone's storage and sent once when the
page opens again online; a POST answered 503 busy is sent again (same id) after Retry-After, never
shown as refused; a stream refused with 503 becomes a poll, and the page still follows the table;
a host killed and started again mid-game: the entry tapped meanwhile is sent once, the stream comes
back and the page catches up."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.e2e.test_serve import free_port, wait_until_up
from tests.tables.helpers import API, game_log, start_of
from tests.tables.live import PHONE, Live
from tests.web.conftest import browser, server, watched_page  # noqa: F401

pytestmark = pytest.mark.browser
BUSY = {"status": 503, "headers": {"Retry-After": "1"}, "content_type": "application/json",
        "body": json.dumps({"message": "The server is busy.",
                            "errors": [{"code": "busy", "path": "", "message": "busy"}]})}


def table(server) -> tuple[Live, list[int]]:  # noqa: F811
    log = game_log(seed=3)
    return Live(server, start_of(log), hands=True), log["rounds"][0]["layout"][0]


def seat_url(live: Live, name: str) -> str:
    """The link the host hands a seat with (its own seat token), on this phone: the first seat the
    host hands keeps the layout (docs/table.md "Who may make which entry")."""
    seat = live.call("POST", f"{API}/{live.id}/seats", {"player": name}, live.host)["seat_token"]
    live.seats[name] = seat
    return f"{live.server.url}/t/{live.id}#key={live.key}&seat={seat}"


def opened(tab: Any, url: str, name: str) -> None:
    tab.goto(url)
    tab.wait_for_selector(f"[data-act=you]:has-text('{name}')")


def tap_layout(tab: Any, row: list[int]) -> None:
    for card in row:
        tab.click(f"[data-entry=round] [data-slot='0'] [data-act=card][data-card='{card}']")


def entries(live: Live) -> list[dict[str, Any]]:
    return live.call("GET", f"{API}/{live.id}/entries", token=live.host)["entries"]


def test_an_entry_tapped_offline_is_sent_once_when_the_page_opens_again(server, browser):  # noqa: F811
    live, row = table(server)
    with watched_page(browser, viewport=PHONE, timeout=20000) as alice:
        opened(alice, seat_url(live, "Alice"), "Alice")
        alice.context.set_offline(True)
        tap_layout(alice, row)
        alice.wait_for_selector("[data-act=queue]:has-text('1 entry is waiting to be sent.')")
        assert alice.locator("[data-entry=round] [data-slot='0'] [data-act=unsent]").count() == 1
        kept = json.loads(alice.evaluate(f"localStorage.getItem('popreplay-table-queue:{live.id}:Alice')"))
        assert [q["entry"]["slots"] for q in kept] == [{"0": row}]
        assert entries(live) == []  # offline: nothing reached the server
        # The phone's page closed while offline: its storage keeps the entry. (Whether a retry
        # timer firing while Playwright closes the page gets out is Chromium's emulation, not the
        # page's: the CI of stop 44 saw one. The reopened page must send the kept entry all the same,
        # and the server count it once, by its id.)
        alice.close()
        alice.context.set_offline(False)
        posted: list[str] = []
        alice.context.on("request", lambda r: posted.append(json.loads(r.post_data)["id"])
                         if r.method == "POST" and r.url.endswith("/entries") else None)
        again = alice.context.new_page()
        opened(again, f"{server.url}/t/{live.id}", "Alice")
        again.wait_for_selector("[data-entry=round] [data-slot='0'] .tb-ok")
        again.wait_for_function("() => !document.querySelector('[data-act=queue]').textContent")
        assert posted == [kept[0]["id"]]  # the reopened page sent the kept entry, same id
        again.reload()  # nothing left to send: the entry is not sent twice
        again.wait_for_selector("[data-entry=round] [data-slot='0'] .tb-ok")
        assert posted == [kept[0]["id"]]
        assert [(e["seq"], e["id"]) for e in entries(live)] == [(1, kept[0]["id"])]
        assert again.evaluate(f"localStorage.getItem('popreplay-table-queue:{live.id}:Alice')") is None


def test_a_busy_server_gets_the_entry_again_after_retry_after(server, browser):  # noqa: F811
    live, row = table(server)
    posts: list[dict[str, Any]] = []
    statuses: list[tuple[int, str]] = []

    def busy_twice(route: Any) -> None:
        posts.append(json.loads(route.request.post_data))
        if len(posts) == 1:  # appended, but answered busy (the table after it not ready)
            route.fetch()
            route.fulfill(**BUSY)
        elif len(posts) == 2:
            route.fulfill(**BUSY)
        else:
            answer = route.fetch()
            statuses.append((answer.status, answer.json()["status"]))
            route.fulfill(response=answer)

    with watched_page(browser, viewport=PHONE, timeout=20000) as alice:
        alice.route("**/entries", busy_twice)
        opened(alice, seat_url(live, "Alice"), "Alice")
        alice.evaluate("""() => { window.refused = []; new MutationObserver(() => {
            const text = document.getElementById('table').textContent;
            if (/Refused/.test(text)) window.refused.push(text); })
            .observe(document.getElementById('table'), {subtree: true, childList: true,
                                                         characterData: true}); }""")
        tap_layout(alice, row)
        alice.wait_for_selector("[data-act=queue]:has-text('The server is busy: sending again in 1 s')")
        alice.wait_for_function("() => !document.querySelector('[data-act=queue]').textContent")
        alice.wait_for_selector("[data-entry=round] [data-slot='0'] .tb-ok")
        assert len(posts) == 3 and len({p["id"] for p in posts}) == 1  # one entry, one id
        assert statuses == [(200, "duplicate")]  # the server had it from the first POST
        assert [e["seq"] for e in entries(live)] == [1]  # counted once
        assert alice.evaluate("window.refused") == []


def test_a_refused_stream_becomes_a_poll(server, browser):  # noqa: F811
    live, row = table(server)
    streams: list[tuple[str, str | None]] = []

    def refused(route: Any) -> None:  # the token in a header, never in the URL (issue 36)
        streams.append((route.request.url, route.request.headers.get("authorization")))
        route.fulfill(**{**BUSY, "headers": {"Retry-After": "10"}})

    with watched_page(browser, viewport=PHONE, timeout=20000) as watcher:
        watcher.route("**/stream", refused)
        watcher.goto(f"{server.url}/t/{live.id}#key={live.key}")
        watcher.wait_for_selector("[data-act=you]:has-text('You are watching.')")
        # the status is written when the refusal comes back, which may be after the first draw
        watcher.wait_for_selector("#tb-status:has-text('refused for now')", timeout=5000)
        seat_url(live, "Bruno")
        live.send("Bruno", {"type": "part", "entry": "round", "slots": {"0": row}})
        watcher.wait_for_selector("[data-entry=round] [data-slot='0'] .tb-ok", timeout=5000)
        assert len(streams) == 1  # the stream is asked for again only after ~10 s
        assert streams[0] == (f"{server.url}/api/v1/tables/{live.id}/stream", f"Bearer {live.key}")


def test_a_409_that_is_not_stale_is_shown_and_the_entry_dropped(server, browser):  # noqa: F811
    live, row = table(server)
    posts: list[str] = []
    stored = {"message": "This table's game is stored: it takes no more entries.", "errors": []}

    def stored_already(route: Any) -> None:  # what the server answers once the game is stored
        posts.append(route.request.url)
        route.fulfill(status=409, content_type="application/json", body=json.dumps(stored))

    with watched_page(browser, viewport=PHONE, timeout=20000) as alice:
        alice.route("**/entries", stored_already)
        opened(alice, seat_url(live, "Alice"), "Alice")
        tap_layout(alice, row)
        alice.wait_for_selector("#tb-status:has-text('Refused: This table\\'s game is stored')")
        assert alice.evaluate(f"localStorage.getItem('popreplay-table-queue:{live.id}:Alice')") is None
        alice.wait_for_timeout(1500)
        assert len(posts) == 1 and alice.inner_text("[data-act=queue]") == ""


class Host:
    """``popreplay serve`` on a port and a SQLite file of its own, killed and started again."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{self.folder / 'host.sqlite'}",
               "POPREPLAY_SECRET_KEY": "browser-tests"}
        env.pop("POPREPLAY_PUBLIC_URL", None)
        with (self.folder / "host.log").open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "popreplay", "serve", "--host", "127.0.0.1", "--port",
                 str(self.port), "--workers", "1"], env=env, stdout=log,
                stderr=subprocess.STDOUT, cwd=self.folder, start_new_session=True)
        wait_until_up(self.url, self.process)

    def kill(self) -> None:  # no graceful stop: the open streams end at once
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@contextmanager
def host(folder: Path) -> Iterator[Host]:
    one = Host(folder)
    one.start()
    try:
        yield one
    finally:
        one.kill()


def test_a_host_killed_mid_game_loses_nothing(browser, tmp_path):  # noqa: F811
    log = game_log(seed=3)
    rnd = log["rounds"][0]
    with host(tmp_path) as one, watched_page(browser, viewport=PHONE, timeout=20000) as alice:
        live = Live(one, start_of(log), hands=True)
        opened(alice, seat_url(live, "Alice"), "Alice")
        seat_url(live, "Bruno")
        one.kill()
        tap_layout(alice, rnd["layout"][0])  # the host is gone: the entry waits on the phone
        alice.wait_for_selector("[data-act=queue]:has-text('1 entry is waiting to be sent.')")
        one.start()  # the same port, the same database
        alice.wait_for_selector("[data-entry=round] [data-slot='0'] .tb-ok", timeout=30000)
        live.send("Bruno", {"type": "part", "entry": "round", "slots": {"2": rnd["hands"]["Bruno"]}})
        alice.wait_for_selector("[data-entry=round] [data-slot='2'] .tb-ok")  # the stream is back
        assert [e["seq"] for e in entries(live)] == [1, 2]
        assert "refused for now" not in alice.inner_text("#tb-status")

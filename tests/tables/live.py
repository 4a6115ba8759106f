"""A table on the real server, seen by phones in the browser: the tables API over HTTP (urllib),
the phones' pages (one browser context each), and the checks after every entry."""

from __future__ import annotations

import itertools
import json
import urllib.error
import urllib.request
from contextlib import ExitStack
from typing import Any

from tests.tables.helpers import API
from tests.web.conftest import store_locally, watched_page

PHONE = {"width": 390, "height": 844}
_ids = itertools.count(1)


class Live:
    """A table made through the API; its host token is put on the first phone (the host)."""

    def __init__(self, server: Any, start: dict[str, Any], *, hands: bool) -> None:
        self.server = server
        made = self.call("POST", API, {"log": start, "record_hands": hands})
        self.id, self.host, self.key = made["table"], made["host_token"], made["join_key"]
        self.seats: dict[str, str] = {}
        self.phones: dict[str | None, Any] = {}
        self._stack = ExitStack()

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             ok: tuple[int, ...] = (200, 201)) -> Any:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.server.url + path, method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                status, data = answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            with error:
                status, data = error.code, json.loads(error.read())
        assert status in ok, (status, data)
        return data

    def open(self, browser: Any, names: list[str]) -> dict[str | None, Any]:
        """A phone per seat (the first one also the host: its storage gets the host token) and
        a spectator (``None``); each seat taps its name on the page."""
        join = f"{self.server.url}/t/{self.id}#key={self.key}"
        for k, name in enumerate([*names, None]):
            tab = self._stack.enter_context(watched_page(browser, viewport=PHONE, timeout=20000))
            if k == 0:
                store_locally(tab, self.server.url, {f"popreplay-table:{self.id}": json.dumps(
                    {"host": self.host, "key": self.key})})
                tab.goto(f"{self.server.url}/t/{self.id}?x=1")
            else:
                tab.goto(join)
            if name is None:
                tab.wait_for_selector("[data-act=you]:has-text('You are watching.')")
            else:
                tab.click(f"[data-act=seat][data-player='{name}']")
                tab.wait_for_selector(f"[data-act=you]:has-text('{name}')")
                stored = json.loads(tab.evaluate(
                    f"localStorage.getItem('popreplay-table:{self.id}')"))
                self.seats[name] = stored["seat"]
            self.phones[name] = tab
        return self.phones

    def close(self) -> None:
        self._stack.close()

    def seq(self) -> int:
        return self.call("GET", f"{API}/{self.id}", token=self.key)["seq"]

    def send(self, who: str, entry: dict[str, Any]) -> list[int]:
        """One entry from ``who``'s seat through the API (as its phone would send it)."""
        answer = self.call("POST", f"{API}/{self.id}/entries", {
            "id": f"api{next(_ids)}", "seen": self.seq(), "entry": entry}, self.seats[who])
        return answer["seqs"]

    def in_step(self, seq: int) -> None:
        """Every screen shows the table at ``seq`` (or later) and has drawn it."""
        for tab in self.phones.values():
            tab.wait_for_function("n => { const r = document.getElementById('table');"
                                  " return r && Number(r.dataset.seq || -1) >= n && (r.dataset.game === 'pop'"
                                  " || Number(r.dataset.checked || -1) >= n); }", arg=seq)

    def texts(self) -> dict[str | None, str]:
        """Each screen's text, its buttons left out: the cards a panel offers are every card not
        known elsewhere (a hidden card among them), not what the screen shows."""
        return {name: tab.evaluate("""() => { const c = document.getElementById('table').cloneNode(true);
            c.querySelectorAll('button').forEach(b => b.remove());
            c.querySelectorAll('*').forEach(e => e.append(' ')); return c.textContent; }""")
            for name, tab in self.phones.items()}

    def whole_log(self) -> dict[str, Any]:
        return self.call("GET", f"{API}/{self.id}/log", token=self.host)["log"]

    def store(self) -> dict[str, Any]:
        stored = self.call("POST", f"{API}/{self.id}/store", {"visibility": "public"}, self.host)
        slug = stored["slug"] if "slug" in stored else stored["share_url"].rsplit("/r/", 1)[1]
        return self.call("GET", f"/api/v1/games/{slug}/log")

"""The table page's corrections and sign-off panel (static/table-sign.js) in Debian's Chromium
against the real server, 390×844: Bruno corrects his own card of turn 3 from his phone; after the
host stores the game, Bruno disputes a step and Alice and Chloé confirm; the replay page then says
so (docs/table.md "Corrections", "Sign-off")."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.tables.helpers import API, Table, game_log
from tests.web.conftest import browser, server, watched_page  # noqa: F401

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


class Answer:
    def __init__(self, status: int, body: bytes) -> None:
        self.status_code, self._body = status, body

    def get_json(self) -> Any:
        return json.loads(self._body)


class Http:
    """The few calls of tests/tables/helpers.Table, over HTTP to the real server."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _call(self, method: str, path: str, json_body: Any = None,
              headers: dict[str, str] | None = None) -> Answer:
        data = json.dumps(json_body).encode() if json_body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=20) as answer:
                return Answer(answer.status, answer.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read())

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:
        return self._call("POST", path, json, headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._call("GET", path, None, headers)


def test_a_seat_corrects_its_card_and_the_seats_sign_off_on_the_phone(server, browser):  # noqa: F811
    http = Http(server.url)
    table = Table(http, game_log(seed=5))
    for name in table.log["players"]:
        assert table.join(name).status_code == 201
    table.deal(0)
    for k in range(3):
        assert [a.status_code for a in table.turn(0, k)] == [201] * 4
    turns = table.log["rounds"][0]["turns"]
    old, later = turns[2]["plays"]["Bruno"], turns[3]["plays"]["Bruno"]
    with watched_page(browser, viewport=PHONE, timeout=20000) as bruno, \
            watched_page(browser, viewport=PHONE, timeout=20000) as alice:
        bruno.goto(f"{server.url}/t/{table.id}?lang=en#seat={table.seats['Bruno']}")
        bruno.wait_for_selector("[data-act=you]:has-text('Bruno')")
        bruno.click("[data-act=corrections] summary")
        row = bruno.locator(".tb-fix", has_text="Round 1, turn 3 — Bruno").first
        row.locator("input").fill(" ".join(str(c) for c in later))
        row.locator("[data-act=correct]").click()
        bruno.wait_for_selector(".tb-history li")
        text = bruno.inner_text(".tb-history")
        assert "corrected by Bruno at" in text
        assert f"Round 1, turn 3 — Bruno, {' '.join(map(str, old))} → " \
               f"{' '.join(map(str, later))}" in text
        whole = http.get(f"{API}/{table.id}/log",
                         headers={"Authorization": f"Bearer {table.host}"}).get_json()["log"]
        assert whole["rounds"][0]["turns"][2]["plays"]["Bruno"] == later

        stored = http.post(f"{API}/{table.id}/store", json={"visibility": "public"},
                           headers={"Authorization": f"Bearer {table.host}"})
        assert stored.status_code == 201
        slug = stored.get_json()["slug"]
        bruno.wait_for_selector("[data-act=signoff]")
        assert bruno.locator("[data-act=signoff] .tb-result p").count() >= 1
        # a turn chosen from the list (docs/table.md "Sign-off"): the API gets its last step
        bruno.wait_for_selector("[data-act=dispute-turn] option:nth-child(3)", state="attached")
        turn2 = bruno.locator("[data-act=dispute-turn] option", has_text="Round 1, turn 2")
        step = int(turn2.get_attribute("value"))
        bruno.select_option("[data-act=dispute-turn]", value=str(step))
        bruno.fill("#tb-dispute-why", "The Chief took 9, not 25.")
        bruno.click("[data-act=dispute]")
        bruno.wait_for_selector("[data-act=yours]:has-text('You dispute Round 1, turn 2.')")
        assert "confirmed by 0 of 3" in bruno.inner_text("[data-act=summary]")
        assert bruno.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        alice.goto(f"{server.url}/t/{table.id}?lang=fr#seat={table.seats['Alice']}")
        alice.wait_for_selector("[data-act=signoff]")
        alice.click("[data-act=confirm]")
        alice.wait_for_selector("[data-act=yours]:has-text('Vous avez confirmé ce résultat.')")
        assert "confirmé par 1 sur 3" in alice.inner_text("[data-act=summary]")
        alice.wait_for_selector("[data-act=disputed]:has-text('Bruno conteste Manche 1, tour 2')")
        assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        bruno.goto(f"{server.url}/r/{slug}?lang=en")
        assert "confirmed by 1 of 3" in bruno.inner_text("#signoff-text")
        assert bruno.inner_text("#signoff-disputes") == \
            "Bruno disputes Round 1, turn 2: The Chief took 9, not 25."  # words, no step number
        assert "corrected by Bruno at" in bruno.inner_text("#corrections")
        bruno.click("#signoff-disputes a")
        bruno.wait_for_function(f"location.hash === '#step={step}'")

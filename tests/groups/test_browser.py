"""A club at 390×844, in English and French: the group made from the home page, members added on
its page, games stored through the API with the invite key (battles of 2 to 5, a score sheet, a
game whose name is asked then answered on the page); the leaderboard agrees with ``openskill``
called directly on the same games in the same order, to the last digit; no page scrolls
sideways. Screenshots (docs/img/group-*.png) with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect
from openskill.models import PlackettLuce

from popreplay.engine import get_game
from tests.conftest import simulated
from tests.web.conftest import SCREENSHOTS, screenshots_wanted, watched_page

pytestmark = pytest.mark.browser
# 390×844 CSS pixels, as a phone lays the page out; drawn at twice the pixels only for the
# screenshots (the same layout: a quarter of the raster work for Chromium otherwise)
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
         "device_scale_factor": 2 if screenshots_wanted() else 1, "has_touch": True}
NAMES = ["Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji"]


def post(server, path: str, body: dict, key: str) -> dict:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(),
                                     method="POST", headers={
                                         "Content-Type": "application/json",
                                         "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def expected_ordinals(logs: list[dict]) -> dict[str, float]:
    model, now = PlackettLuce(), {}
    for log in logs:
        outcome = get_game("pop").replay(log).outcome
        players = log["players"]
        key = {p: (p not in outcome["winners"], outcome["totals"][p]) for p in players}
        ranks = [1 + sum(key[o] < key[p] for o in players) for p in players]
        teams = [[now.get(p) or model.rating()] for p in players]
        for p, [rating] in zip(players, model.rate(teams, ranks=ranks)):
            now[p] = rating
    return {p: r.mu - 3 * r.sigma for p, r in now.items()}


def no_sideways_scroll(tab) -> None:
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_club_at_phone_width_in_both_languages(browser, server):
    with watched_page(browser, http_errors=True, **PHONE) as tab:
        tab.goto(server.url + "/?lang=en")
        tab.fill("#group-name", "Club du Jeudi")
        tab.click("#create-group")
        invite = tab.get_attribute("#invite-link", "href")
        key = re.search(r"key=([^&]+)", invite).group(1)
        slug = re.search(r"/g/([^/]+)/join", invite).group(1)
        no_sideways_scroll(tab)
        tab.click("#open-group")
        for name in NAMES:
            tab.fill("#member-name", name)
            tab.click("#members button[type=submit]")
        expect(tab.locator("#members li")).to_have_count(5)  # each added member drawn in turn
        logs = []
        for k in range(12):
            log = simulated("battle", 2 + k % 4, 300 + k)
            log["meta"]["played_at"] = f"2026-04-{k + 1:02d}T20:00:00Z"
            post(server, f"/api/v1/groups/{slug}/games", {"log": log}, key)
            logs.append(log)
        asked = simulated("battle", 2, 399)
        asked["meta"]["played_at"] = "2026-04-20T20:00:00Z"
        text = json.dumps(asked, ensure_ascii=False).replace('"Alice"', '"Ali"')
        post(server, f"/api/v1/groups/{slug}/games", {"log": json.loads(text)}, key)
        post(server, f"/api/v1/groups/{slug}/sheets", {
            "game": "pop", "mode": "coop", "players": ["Alice", "Bruno", "Chloé"],
            "played_at": "2026-04-21T20:00:00Z", "claimed": {"result": "won"}}, key)
        tab.goto(server.url + f"/g/{slug}")
        assert "score sheet — not checked move by move" in tab.inner_text("#games")
        tab.select_option("#asked select", label="Alice")
        tab.click("#asked button[type=submit]")
        # the answer redirects to the group's page at #asked; waiting for that address waits for
        # its load event too, so the leaderboard below is whole (a wait for #asked to be gone
        # could end while the new page was still being parsed, before its leaderboard rows)
        tab.wait_for_url(re.compile(r"/g/[^/?#]+#asked$"))
        expect(tab.locator("#asked")).to_have_count(0)  # the game has its name: nothing asked
        logs.append(asked)
        expected = expected_ordinals(logs)
        shown = {row.inner_text().split("\t")[1]: float(
            row.locator("[data-ordinal]").get_attribute("data-ordinal"))
            for row in tab.locator("table.leaderboard tbody tr").all()}
        assert shown == expected  # the same floats, digit for digit
        no_sideways_scroll(tab)
        if screenshots_wanted():
            tab.screenshot(path=str(SCREENSHOTS / "group-phone.png"), full_page=True)
        tab.click("table.leaderboard tbody tr:first-child a")
        expect(tab.locator("svg.rating-chart")).to_have_count(1)  # the member's page loaded
        no_sideways_scroll(tab)
        if screenshots_wanted():
            tab.screenshot(path=str(SCREENSHOTS / "group-member-phone.png"), full_page=True)
        tab.goto(tab.url + "?lang=fr")
        assert "Face à face" in tab.inner_text("main")
        no_sideways_scroll(tab)
        tab.goto(server.url + f"/g/{slug}?lang=fr")
        assert "Classements" in tab.inner_text("main")
        assert "feuille de score" in tab.inner_text("#games")
        no_sideways_scroll(tab)

"""The table pages as players live them (issue 37), in Debian's Chromium against the real server,
at 390×844 and at desktop width, in English and French: the host's first screen (the QR code and
a short join link above the fold, "You host this table: tap your name"), storing on purpose (only
the host, after a question; then every phone shows the stored game: the replay link, the
sign-off, nothing to enter), and a dispute chosen from the list of turns, whose link opens the
replay at that turn. Screenshots docs/img/table-host-phone.png, table-stored-phone.png with
POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from popreplay.engine import get_game
from tests.tables.helpers import API, game_log, start_of
from tests.tables.live import Live
from tests.web.conftest import (browser, screenshots_wanted, server,  # noqa: F401
                                store_locally, watched_page)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
HOST = {"en": "You host this table: tap your name.",
        "fr": "Vous accueillez cette table\u00a0: touchez votre nom."}


def qr_of(live: Live) -> str:
    """The join link's QR code (the recorder keeps the one the table came with)."""
    req = urllib.request.Request(f"{live.server.url}{API}/{live.id}/qr.svg",
                                 headers={"Authorization": f"Bearer {live.key}"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return answer.read().decode()


def host_phone(live: Live, tab: Any, qr: str | None, lang: str = "en") -> None:
    """``tab`` becomes the host's phone (its storage holds what "Record together" keeps)."""
    store_locally(tab, live.server.url, {f"popreplay-table:{live.id}": json.dumps(
        {"host": live.host, "key": live.key, "qr": qr})})
    tab.goto(f"{live.server.url}/t/{live.id}?lang={lang}")


def shown_box(locator: Any) -> dict[str, float] | None:
    """``locator``'s box once it is shown. ``bounding_box`` does not wait for an element to be
    visible: on a loaded machine the host's QR code was measured before the table's state had
    shown it (None, a failed run), so wait for it, and measure again if the page redrew it."""
    for _ in range(5):
        locator.wait_for(state="visible")
        box = locator.bounding_box()
        if box:
            return box
    return None


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_host_first_screen(server, browser, lang, viewport):  # noqa: F811
    log = game_log(seed=3)
    live = Live(server, start_of(log), hands=True)
    qr = qr_of(live)
    with watched_page(browser, viewport=viewport, timeout=20000) as tab:
        host_phone(live, tab, qr, lang)
        tab.wait_for_selector("[data-act=you]")
        assert tab.inner_text("[data-act=you]") == HOST[lang]
        img = shown_box(tab.locator("[data-act=host] img"))
        link = tab.locator("[data-act=join-link]")
        assert img and img["y"] + img["height"] <= viewport["height"]  # above the fold
        box = shown_box(link)
        assert box and box["y"] + box["height"] <= viewport["height"]
        assert "#key=" not in link.inner_text() and len(link.inner_text()) < 48  # short to read
        assert f"#key={live.key}" in link.get_attribute("href")  # the whole link behind it
        # no blank band: the first box follows the line under the title
        gap = tab.evaluate("""() => {
            const you = document.querySelector('[data-act=you]').getBoundingClientRect();
            const title = document.getElementById('tb-title').getBoundingClientRect();
            return you.top - title.bottom; }""")
        assert gap < 24, gap
        # the names come right after the code; storing is asked, not done, on the first tap
        assert tab.locator("[data-act=seat]").count() == 3
        tab.click("[data-act=store]")
        ask = tab.inner_text("[data-act=store-ask]")
        assert ("not over" in ask) if lang == "en" else ("pas finie" in ask)
        tab.click("[data-act=store-no]")
        tab.wait_for_selector("[data-act=store-ask]", state="detached")
        assert live.call("GET", f"{API}/{live.id}", token=live.key)["status"] == "live"
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        if screenshots_wanted() and viewport is PHONE:
            tab.screenshot(path=str(IMG / f"table-host-phone{'-fr' if lang == 'fr' else ''}.png"))


def cube_start(full: dict[str, Any]) -> dict[str, Any]:
    start = {k: full[k] for k in ("format", "game", "mode", "players", "deck") if k in full}
    start.update(deal={n: [None] * 5 for n in full["players"]}, turns=[])
    return start


def test_cube_stored_mid_game_tells_every_phone(server, browser):  # noqa: F811
    full = get_game("cube").simulate(mode="standard", players=3, seed=25)
    full.pop("claimed", None)
    names = full["players"]
    live = Live(server, cube_start(full), hands=True)
    try:
        phones = live.open(browser, names)
        for name in names:
            live.send(name, {"type": "place", "at": f"/deal/{name}", "how": "set",
                             "value": full["deal"][name]})
        for turn in full["turns"][:2]:
            [seq] = live.send(turn["player"], {"type": "place", "at": "/turns", "how": "append",
                                               "value": turn})
        live.in_step(seq)
        host, seat, watcher = phones[names[0]], phones[names[1]], phones[None]
        assert seat.locator("[data-act=store]").count() == 0  # only the host stores
        assert watcher.locator("[data-act=store]").count() == 0
        host.click("[data-act=store]")
        assert "not over" in host.inner_text("[data-act=store-ask]")
        host.click("[data-act=store-yes]")
        for tab in (host, seat, watcher):  # every phone: stored, the replay, nothing to enter
            tab.wait_for_selector("[data-act=stored] [data-act=replay]")
            assert tab.locator("[data-act=panel], [data-act=turn], [data-act=seat]").count() == 0
            text = tab.inner_text("#table")
            assert "to play: waiting" not in text and "Your move" not in text, text
            href = tab.get_attribute("[data-act=replay]", "href")
            assert re.fullmatch(r"/r/[\w-]+", href)
        seat.wait_for_selector("[data-act=signoff] [data-act=confirm]")
        if screenshots_wanted():
            seat.screenshot(path=str(IMG / "table-stored-phone.png"))
    finally:
        live.close()


def test_a_dispute_names_a_turn_and_opens_the_replay_there(server, browser):  # noqa: F811
    log = game_log(seed=3)
    live = Live(server, start_of(log), hands=True)
    names = log["players"]
    try:
        live.open(browser, names[:2])
        for name in names[2:]:
            live.seats[name] = live.call("POST", f"{API}/{live.id}/seats", {"player": name},
                                         live.key)["seat_token"]
        rnd = log["rounds"][0]
        rows = len(rnd["layout"])
        live.send(names[0], {"type": "part", "entry": "round",
                             "slots": {str(r): row for r, row in enumerate(rnd["layout"])}})
        for k, name in enumerate(names):
            live.send(name, {"type": "part", "entry": "round",
                             "slots": {str(rows + k): rnd["hands"][name]}})
        for turn in rnd["turns"][:3]:
            for k, name in enumerate(names):
                seq = live.send(name, {"type": "part", "entry": "turn",
                                       "slots": {str(k): turn["plays"][name]}})[-1]
            if "chief" in turn:
                seq = live.send(names[0], {"type": "part", "entry": "turn",
                                           "slots": {str(len(names)): turn["chief"]}})[-1]
        live.in_step(seq)
        host, bruno = live.phones[names[0]], live.phones[names[1]]
        host.click("[data-act=store]")
        host.click("[data-act=store-yes]")
        bruno.wait_for_selector("[data-act=signoff]")
        bruno.wait_for_selector("[data-act=dispute-turn] option:nth-child(3)", state="attached")
        options = bruno.locator("[data-act=dispute-turn] option").all_inner_texts()
        turn2 = next(o for o in options if o.startswith("Round 1, turn 2"))
        assert re.search(rf"{names[0]} \d+, {names[1]} \d+", turn2), turn2  # the scores so far
        bruno.select_option("[data-act=dispute-turn]", label=turn2)
        bruno.fill("#tb-dispute-why", "Chloé took the row, not me")
        bruno.click("[data-act=dispute]")
        bruno.wait_for_selector("[data-act=disputed-step]")
        line = bruno.inner_text("[data-act=disputed]")
        assert "Round 1, turn 2" in line and "Chloé took the row" in line, line
        href = bruno.get_attribute("[data-act=disputed-step]", "href")
        step = int(href.rsplit("#step=", 1)[1])
        bruno.click("[data-act=disputed-step]")
        bruno.wait_for_function("n => document.getElementById('step-slider')"
                                " && document.getElementById('step-slider').value === String(n)", arg=step)
    finally:
        live.close()

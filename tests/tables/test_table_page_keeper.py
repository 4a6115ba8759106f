"""The table page's keeper and slips (issue 37), in Debian's Chromium against the real server, at
390×844 and at desktop width, in English and French: every phone says who enters what nobody
holds (POP!'s layout and Chief's cards, slap's flips); the host's phone names another keeper;
another seat takes over only after a question, and every phone is told at once; on slap, "Record
from this phone" on a seat makes it the keeper, and its flips are taken (no 403); a slip marks
only the refused card and says why. Screenshots docs/img/table-keeper-phone.png,
table-slip-phone.png with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from popreplay.engine import get_game
from tests.games.recording import Taps, record_slap
from tests.tables.helpers import API, game_log, start_of
from tests.tables.live import Live
from tests.web.conftest import (browser, screenshots_wanted, server,  # noqa: F401
                                store_locally, watched_page)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
POP_KEPT = {"en": "the layout and the Multicolour Chief's cards",
            "fr": "les cartes de départ et celles du Chef Multicolore"}
SLAP_KEPT = {"en": "the flips and slaps", "fr": "les cartes retournées et les tapes"}
WORDS = {
    "en": {"you": "You enter {what}.", "other": "{name} enters {what}."},
    "fr": {"you": "Vous saisissez {what}.", "other": "{name} saisit {what}."},
}


def open_phones(live: Live, browser: Any, names: list[str], *, viewport: dict[str, int],  # noqa: F811
                lang: str) -> dict[str | None, Any]:
    """A phone per seat in ``lang`` (the first one the host's, which takes its seat: the keeper)
    and a spectator (``None``)."""
    join = f"{live.server.url}/t/{live.id}?lang={lang}#key={live.key}"
    for k, name in enumerate([*names, None]):
        tab = live._stack.enter_context(watched_page(browser, viewport=viewport, timeout=20000))
        if k == 0:
            store_locally(tab, live.server.url, {f"popreplay-table:{live.id}": json.dumps(
                {"host": live.host, "key": live.key})})
            tab.goto(f"{live.server.url}/t/{live.id}?lang={lang}")
        else:
            tab.goto(join)
        if name is not None:
            tab.click(f"[data-act=seat][data-player='{name}']")
            tab.wait_for_selector(f"[data-act=you]:has-text('{name}')")
            stored = json.loads(tab.evaluate(f"localStorage.getItem('popreplay-table:{live.id}')"))
            live.seats[name] = stored["seat"]
        else:
            tab.wait_for_selector("[data-act=you]")
        live.phones[name] = tab
    return live.phones


def lines(lang: str, kept: str, keeper: str, phones: dict[str | None, Any]) -> None:
    """Every phone says who enters what nobody holds (waiting for the stream)."""
    for name, tab in phones.items():
        said = WORDS[lang]["you" if name == keeper else "other"].format(name=keeper, what=kept)
        expect(tab.locator("[data-act=keeper-line]")).to_have_text(said)


def keeper_now(live: Live) -> str | None:
    return live.call("GET", f"{API}/{live.id}", token=live.key)["keeper"]


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "en"), (DESKTOP, "fr")],
                         ids=["phone-en", "desktop-fr"])
def test_every_phone_shows_the_keeper_and_a_seat_takes_over(server, browser, viewport, lang):  # noqa: F811
    log = game_log(seed=3)
    live = Live(server, start_of(log), hands=True)
    try:
        names = log["players"][:2]
        phones = open_phones(live, browser, names, viewport=viewport, lang=lang)
        alice, bruno, watcher = phones[names[0]], phones[names[1]], phones[None]
        lines(lang, POP_KEPT[lang], "Alice", phones)
        # the host's phone chooses; a seat takes over; a spectator only reads
        expect(alice.locator("[data-act=keeper-pick]")).to_have_value("Alice")
        assert bruno.locator("[data-act=keeper-pick]").count() == 0
        assert watcher.locator("[data-act=keeper-pick], [data-act=take-over]").count() == 0
        # the layout is not Bruno's to tap: his screen says who enters it
        layout = "[data-entry=round] [data-slot='0']"
        assert bruno.locator(f"{layout} [data-act=card]").count() == 0
        expect(bruno.locator(f"{layout} [data-act=slot-keeper]")).to_contain_text("Alice")
        # taking over is asked first; "Cancel" changes nothing
        bruno.click("[data-act=take-over]")
        expect(bruno.locator("[data-act=take-over-ask]")).to_contain_text("Alice")
        if screenshots_wanted() and viewport is PHONE:
            bruno.screenshot(path=str(IMG / "table-keeper-phone.png"))
        bruno.click("[data-act=take-over-no]")
        expect(bruno.locator("[data-act=take-over-ask]")).to_have_count(0)
        assert keeper_now(live) == "Alice"
        bruno.click("[data-act=take-over]")
        bruno.click("[data-act=take-over-yes]")
        lines(lang, POP_KEPT[lang], "Bruno", phones)  # every phone is told at once
        assert keeper_now(live) == "Bruno"
        expect(alice.locator("[data-act=keeper-pick]")).to_have_value("Bruno")
        expect(bruno.locator(f"{layout} [data-act=card]")).to_have_count(50)  # now his to tap
        expect(alice.locator(f"{layout} [data-act=slot-keeper]")).to_contain_text("Bruno")
        # the host's phone names Alice again
        alice.select_option("[data-act=keeper-pick]", "Alice")
        lines(lang, POP_KEPT[lang], "Alice", phones)
        expect(bruno.locator("[data-act=take-over]")).to_have_count(1)
        for tab in phones.values():
            assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        live.close()


def slap_start() -> tuple[dict[str, Any], dict[str, Any]]:
    full = get_game("slap").simulate(mode="timed", players=3, seed=1)
    start = {k: full[k] for k in ("format", "game", "mode", "players", "options") if k in full}
    start["events"] = []
    return full, start


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "fr"), (DESKTOP, "en")],
                         ids=["phone-fr", "desktop-en"])
def test_slap_a_seat_records_from_its_phone(server, browser, viewport, lang):  # noqa: F811
    full, start = slap_start()
    live = Live(server, start, hands=False)
    try:
        names = full["players"][:2]
        phones = open_phones(live, browser, names, viewport=viewport, lang=lang)
        alice, bruno, watcher = phones[names[0]], phones[names[1]], phones[None]
        lines(lang, SLAP_KEPT[lang], names[0], phones)
        assert bruno.locator("[data-act=flip], [data-act=colour]").count() == 0  # it watches
        bruno.click("[data-act=records]")  # "Record from this phone": asked, then the keeper
        bruno.click("[data-act=take-over-yes]")
        lines(lang, SLAP_KEPT[lang], names[1], phones)
        expect(bruno.locator("[data-act=panel]")).to_have_count(1)
        expect(alice.locator("[data-act=panel]")).to_have_count(0)  # Alice's phone now watches
        assert watcher.locator("[data-act=panel]").count() == 0
        seen = {"seq": live.seq()}

        def settled(page: Any) -> None:  # each flip taken and on every screen
            seen["seq"] += 1
            live.in_step(seen["seq"])

        events = full["events"][:4]
        record_slap(bruno, {"events": events}, settled, Taps())
        assert live.whole_log()["events"] == events  # taken from Bruno's phone: no 403
        assert bruno.locator(".rp-error").count() == 0
        for tab in phones.values():
            assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        live.close()


@pytest.mark.parametrize(("viewport", "lang"), [(PHONE, "fr"), (DESKTOP, "en")],
                         ids=["phone-fr", "desktop-en"])
def test_a_slip_marks_only_the_refused_card(server, browser, viewport, lang):  # noqa: F811
    log = game_log(seed=3)
    live = Live(server, start_of(log), hands=True)
    try:
        names = log["players"][:2]
        phones = open_phones(live, browser, names, viewport=viewport, lang=lang)
        bruno = phones[names[1]]
        rnd = log["rounds"][0]
        rows = len(rnd["layout"])
        slot = f"[data-entry=round] [data-slot='{rows + 1}']"
        hand = rnd["hands"]["Bruno"]
        slip = rnd["layout"][0][0]  # a layout card, tapped before the layout is entered
        for card in [*hand[:7], slip]:
            bruno.click(f"{slot} [data-act=card][data-card='{card}']")
        expect(bruno.locator(f"{slot} [data-act=progress]")).to_have_text(
            "8/9 tapped" if lang == "en" else "8/9 touchées")
        [seq] = live.send("Alice", {"type": "part", "entry": "round",
                                    "slots": {str(r): row for r, row in enumerate(rnd["layout"])}})
        live.in_step(seq)
        bruno.click(f"{slot} [data-act=card][data-card='{hand[7]}']")  # the 9th: sent, refused
        expect(bruno.locator(f"{slot} [data-act=slip]")).to_have_count(1)
        refused = bruno.locator(f"{slot} [data-refused]")
        expect(refused).to_have_count(1)
        assert refused.get_attribute("data-card") == str(slip)
        expect(bruno.locator(f"{slot} .tb-picked")).to_have_count(8)  # the others stay tapped
        said = bruno.inner_text(f"{slot} [data-act=slip]")
        assert str(slip) in said and ("Tap 1 other card" if lang == "en"
                                      else "Touchez 1 autre carte") in said, said
        assert "0" not in said.split(str(slip))[-1].split()[:2]  # never "Tap 0 cards"
        assert bruno.locator("#tb-status.rp-error").count() == 0  # said on the card, not above
        if screenshots_wanted() and viewport is PHONE:
            bruno.locator(f"[data-entry=round] div.tb-slot[data-slot='{rows + 1}']").screenshot(
                path=str(IMG / "table-slip-phone.png"))
        bruno.click(f"{slot} [data-act=card][data-card='{hand[8]}']")  # one tap replaces it
        expect(bruno.locator(f"{slot} .tb-ok")).to_have_count(1)
        mine = live.call("GET", f"{API}/{live.id}", token=live.seats["Bruno"])
        assert sorted(mine["gathering"]["round"]["slots"][rows + 1]["cards"]) == sorted(hand)
        assert bruno.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        live.close()

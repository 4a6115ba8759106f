"""The table page (/t/<id>) in Debian's Chromium against the real server, 390×844: the recorder's
"Record together", then three phones (one browser context per seat) and a spectator record a
round of a simulated 3-player POP! battle with hands; each hand and each chosen card is never on
another seat's or the spectator's screen before it may be; the stored round is the simulated one.
Screenshot docs/img/table-phone.png with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.tables.helpers import API, game_log
from tests.web.conftest import browser, screenshots_wanted, server, watched_page  # noqa: F401

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]


def host_log(server, table: str, host: str) -> dict:  # noqa: F811
    req = urllib.request.Request(f"{server.url}{API}/{table}/log",
                                 headers={"Authorization": f"Bearer {host}"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read())["log"]


def tap_cards(tab, kind: str, slot: int, cards: list[int]) -> None:
    for card in cards:
        tab.click(f"[data-entry={kind}] [data-slot='{slot}'] [data-act=card][data-card='{card}']")


def filled(tab, kind: str, slot: int) -> None:
    tab.wait_for_selector(f"[data-entry={kind}] [data-slot='{slot}'] .tb-ok")


def test_three_phones_and_a_spectator_record_a_round(server, browser):  # noqa: F811
    log = game_log(seed=3)
    names = log["players"]
    rnd = log["rounds"][0]
    with watched_page(browser, viewport=PHONE, timeout=20000) as alice, \
            watched_page(browser, viewport=PHONE, timeout=20000) as bruno, \
            watched_page(browser, viewport=PHONE, timeout=20000) as chloe, \
            watched_page(browser, viewport=PHONE, timeout=20000) as watcher:
        alice.goto(server.url + "/record")
        alice.select_option("#rec-game", "pop")
        alice.select_option("#rec-mode", "battle")
        for _ in range(3):
            if alice.locator("#rec-player-3").count():
                break
            alice.click("[data-act=add-player]")
        for i, name in enumerate(names, start=1):
            alice.fill(f"#rec-player-{i}", name)
        alice.click("[data-act=together]")
        alice.wait_for_url("**/t/*")
        join = alice.get_attribute("[data-act=join-link]", "href")
        table = alice.url.rsplit("/t/", 1)[1].split("#")[0]
        stored = json.loads(alice.evaluate(f"localStorage.getItem('popreplay-table:{table}')"))
        alice.click("[data-act=seat][data-player=Alice]")
        alice.wait_for_selector("[data-act=you]:has-text('Alice')")
        for tab, name in ((bruno, "Bruno"), (chloe, "Chloé")):
            tab.goto(join)
            tab.click(f"[data-act=seat][data-player='{name}']")
            tab.wait_for_selector("[data-act=you]:has-text('%s')" % name)
        watcher.goto(join.replace("#", "?lang=fr#"))  # the spectator reads French
        watcher.wait_for_selector("[data-act=you]:has-text('Vous regardez.')")
        phones = {"Alice": alice, "Bruno": bruno, "Chloé": chloe}

        # the deal: Alice the layout, each seat its own hand
        rows = len(rnd["layout"])
        dealer = alice.evaluate("window.__taps = 0; document.addEventListener('click', e => {"
                                " if (e.target.closest('[data-act=card]')) window.__taps++; }, true); 0")
        alice.wait_for_selector("[data-entry=round] [data-act=next-grid]")  # one grid at a time
        assert alice.locator("[data-entry=round] .tb-grid").count() == 1
        tap_cards(alice, "round", 0, rnd["layout"][0][:2])
        # a tap redraws once the finger is lifted (table.js holds redraws while it is down)
        expect(alice.locator("[data-entry=round] [data-slot='0'] [data-act=progress]")).to_have_text(
            f"2/{len(rnd['layout'][0])} tapped")
        tap_cards(alice, "round", 0, rnd["layout"][0][1:2])  # untapped before it is sent
        tap_cards(alice, "round", 0, rnd["layout"][0][1:2])
        for r, row in enumerate(rnd["layout"]):
            tap_cards(alice, "round", r, row[2:] if r == 0 else row)
        tap_cards(alice, "round", rows, rnd["hands"]["Alice"])
        dealer = alice.evaluate("window.__taps")
        print(f"\nthe dealer's deal: {dealer - 2} taps (layout and own hand; 2 more: one card untapped and tapped again)")
        assert dealer == sum(len(row) for row in rnd["layout"]) + len(rnd["hands"]["Alice"]) + 2
        filled(bruno, "round", rows)
        for tab in (bruno, chloe, watcher):  # Alice's hand entered: not on any other screen
            assert tab.locator(f"[data-entry=round] [data-slot='{rows}'] .tb-card").count() == 0
        assert alice.locator(f"[data-entry=round] [data-slot='{rows}'] .tb-card").count() == 9
        tap_cards(bruno, "round", rows + 1, rnd["hands"]["Bruno"])
        tap_cards(chloe, "round", rows + 2, rnd["hands"]["Chloé"])
        for name, tab in phones.items():
            tab.wait_for_selector("[data-entry=turn]")
            shown = [int(x) for x in tab.locator("[data-act=hand] .tb-card").all_inner_texts()]
            assert shown == sorted(rnd["hands"][name])
        watcher.wait_for_selector("[data-entry=turn]")
        assert watcher.locator("[data-act=hand]").count() == 0

        # the turns: one tap per seat (its card), the Chief's two cards by Alice
        taps = 0
        for k, turn in enumerate(rnd["turns"], start=1):
            for i, name in enumerate(names):
                tap_cards(phones[name], "turn", i, turn["plays"][name])
                taps += len(turn["plays"][name])
                if i == 0:  # Alice has chosen: nobody else sees her card yet
                    filled(chloe, "turn", 0)
                    assert chloe.locator("[data-entry=turn] [data-slot='0'] .tb-card").count() == 0
                    assert watcher.locator(f".tb-revealed[data-turn='{k}']").count() == 0
            tap_cards(alice, "turn", len(names), turn["chief"])
            taps += len(turn["chief"])
            for tab in (*phones.values(), watcher):
                tab.wait_for_selector(f".tb-revealed[data-turn='{k}']")
            if k == 2:  # the table as the replay draws it, on every screen, the spectator's too
                for tab in (*phones.values(), watcher):
                    tab.wait_for_selector("[data-act=drawn] .pop-area .card.queue")
            if k == 2 and screenshots_wanted():
                bruno.screenshot(path=str(ROOT / "docs" / "img" / "table-phone.png"))
                watcher.locator("[data-act=drawn]").screenshot(path=str(ROOT / "docs" / "img" / "table-pop-drawn.png"))
        print(f"\n{taps / (len(rnd['turns']) * len(names)):.2f} taps per seat per turn")
        whole = host_log(server, table, stored["host"])
        assert whole["rounds"][0] == rnd
        assert watcher.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert "Manche 1" in watcher.inner_text("#table")

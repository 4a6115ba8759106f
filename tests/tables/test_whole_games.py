"""Whole simulated games of cube, Bloops and slap recorded at a table by three phones (a browser
context per seat, 390×844) and a spectator, against the real server: a first round through each
seat's own page (the recorder's entry panel, drawn by table.js), the rest from each seat through
the API; after every entry, every screen is checked for the cards it may not see yet; the stored
game is the simulated one, field for field. (POP!'s whole game: test_table_page.py.)
Screenshots docs/img/table-<game>-phone.png and table-desktop.png with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from popreplay.checking import check_log
from popreplay.engine import get_game
from tests.games.recording import Taps, record_bloops, record_cube, record_slap
from tests.tables.live import PHONE, Live
from tests.web.conftest import browser, screenshots_wanted, server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]
IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def shot(tab: Any, name: str, *, desktop: bool = False) -> None:
    if not screenshots_wanted():
        return
    if desktop:
        tab.set_viewport_size({"width": 1280, "height": 900})
    tab.evaluate("window.scrollTo(0, 0)")
    tab.wait_for_function("() => Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    tab.screenshot(path=str(IMG / name), full_page=desktop)
    if desktop:
        tab.set_viewport_size(PHONE)


class SeatTaps(Taps):
    """Taps on a seat's page; a move out of its turn opens the folded panel first (one tap)."""

    def tap(self, page: Any, selector: str) -> None:
        fold = page.locator("details.tb-other:not([open]) > summary")
        if fold.count():
            fold.first.click()
            self.count += 1
        super().tap(page, selector)


def settler(live: Live, check: Any) -> Any:
    """``settled(page)`` of tests/games/recording.py: one more entry, on every screen, checked."""
    state = {"seq": live.seq()}

    def settled(page: Any) -> None:
        state["seq"] += 1
        live.in_step(state["seq"])
        check()

    settled.state = state  # type: ignore[attr-defined]
    return settled


def same_game(stored: dict[str, Any], full: dict[str, Any]) -> None:
    """The stored log is the simulated one, field for field (its title aside), and so is its
    checked result."""
    game = {k: v for k, v in full.items() if k != "meta"}
    assert {k: stored.get(k) for k in game} == game
    assert check_log(stored) == check_log(game)


def no_panel_for_spectator(live: Live) -> None:
    assert live.phones[None].locator("[data-act=panel]").count() == 0


# --- cube ---------------------------------------------------------------------------------------

def _word(card: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(card)}(?![\w-])")


def cube_secrets(log: dict[str, Any], turns: int, dealt: set[str]) -> dict[str, set[str]]:
    """Per player, the card ids only they have seen after the deal of ``dealt`` and ``turns``
    turns: dealt and drawn, not yet laid, played, discarded, shown or taken."""
    own: dict[str, set[str]] = {n: set(log["deal"][n]) if n in dealt else set()
                                for n in log["players"]}
    shown: set[str] = set()
    for turn in log["turns"][:turns]:
        own[turn["player"]] |= set(turn.get("draw") or [])
        shown |= set(turn.get("lay") or [])
        for event in turn.get("events") or []:
            own[turn["player"]] |= set(event.get("draw") or [])
            shown |= {event.get("play")} | set(event.get("discard") or []) | set(
                event.get("show") or []) | set(event.get("take") or [])
    return {n: cards - shown - {None} for n, cards in own.items()}


def test_cube_at_a_table(server, browser):  # noqa: F811
    full = get_game("cube").simulate(mode="standard", players=3, seed=25)
    full.pop("claimed", None)
    names = full["players"]
    start = {k: full[k] for k in ("format", "game", "mode", "players", "deck") if k in full}
    start.update(deal={n: [None] * 5 for n in names}, turns=[])
    live = Live(server, start, hands=True)
    try:
        phones = live.open(browser, names)
        progress = {"turns": 0, "dealt": set()}

        def check() -> None:
            secrets = cube_secrets(full, progress["turns"], progress["dealt"])
            for who, text in live.texts().items():
                for other, cards in secrets.items():
                    if other == who:
                        continue
                    for card in cards:
                        assert not _word(card).search(text), (who, other, card)
            no_panel_for_spectator(live)

        settled = settler(live, check)
        taps = SeatTaps()
        for name in names:  # each seat its own hand, on its own page
            progress["dealt"].add(name)
            record_cube(phones[name], {"players": [name], "deal": {name: full["deal"][name]},
                                       "turns": []}, settled, taps)
        for k, turn in enumerate(full["turns"][:3]):  # a whole round through the buttons
            progress["turns"] = k + 1
            record_cube(phones[turn["player"]], {"players": names, "turns": [turn]}, settled,
                        taps, dealt=True)
        shot(phones[names[1]], "table-cube-phone.png")
        for k, turn in enumerate(full["turns"][3:], start=4):  # the rest through the API
            progress["turns"] = k
            [seq] = live.send(turn["player"], {"type": "place", "at": "/turns",
                                               "how": "append", "value": turn})
            live.in_step(seq)
            if k < len(full["turns"]):  # (once the game is over, every card is shown)
                check()
        assert live.whole_log()["deal"] == full["deal"]
        stored = live.store()
        assert stored["deal"] == full["deal"] and stored["turns"] == full["turns"]
        same_game(stored, full)
    finally:
        live.close()


# --- Bloops ---------------------------------------------------------------------------------------

def places_shown(tab: Any) -> dict[str, list[str]]:
    return tab.evaluate("""() => { const out = {};
        document.querySelectorAll('.bl-place[data-player]').forEach(p => {
          const n = p.querySelector('.bl-num'); (out[p.dataset.player] = out[p.dataset.player] || [])
            .push(n ? n.textContent : ''); });
        return out; }""")


def test_bloops_at_a_table(server, browser):  # noqa: F811
    full = get_game("bloops").simulate(mode="classic", players=3, seed=1)
    full.pop("claimed", None)
    names = full["players"]
    start = {k: full[k] for k in ("format", "game", "mode", "players", "deck") if k in full}
    start["events"] = []
    live = Live(server, start, hands=True)
    try:
        phones = live.open(browser, names)
        done = {"events": 0}

        def check() -> None:
            watcher = places_shown(live.phones[None])
            if done["events"] == 0:  # the deal: the spectator sees no dealt card
                assert all(v == "?" for vals in watcher.values() for v in vals), watcher
            for who in names:
                mine = places_shown(live.phones[who])
                # what this seat learnt of another's places by its own look, give or swap
                private = {e["target"] for e in full["events"][:done["events"]]
                           if e["type"] in ("look", "give", "swap") and e["player"] == who}
                private |= {e["player"] for e in full["events"][:done["events"]]
                            if e["type"] == "swap" and e.get("target") == who}
                for other in names:
                    if other != who and other not in private and other in watcher:
                        assert mine.get(other) == watcher[other], (who, other, mine, watcher)
            no_panel_for_spectator(live)

        settled = settler(live, check)
        taps = SeatTaps()
        for name in names:  # each seat its own dealt cards
            record_bloops(phones[name], {"players": [name], "deal": {name: full["deal"][name]},
                                         "events": []}, settled, taps)
        phones[names[0]].wait_for_selector(".bl-place")
        assert [v for v in places_shown(phones[names[0]])[names[0]][:6]] == [
            str(v) for v in full["deal"][names[0]]]
        first_round = next(k for k, e in enumerate(full["events"])
                           if e["type"] == "draw" and e["player"] == names[0] and k > 0)
        for k, event in enumerate(full["events"][:first_round]):  # a round through the buttons
            done["events"] = k + 1
            record_bloops(phones[event["player"]], {"players": names, "events": [event]},
                          settled, taps)
        shot(phones[names[1]], "table-bloops-phone.png")
        for k, event in enumerate(full["events"][first_round:], start=first_round + 1):
            done["events"] = k
            [seq] = live.send(event["player"], {"type": "place", "at": "/events",
                                                "how": "append", "value": event})
            live.in_step(seq)
            check()
        [seq] = live.send(names[0], {"type": "place", "at": "/reveal", "how": "set",
                                     "value": full["reveal"]})
        live.in_step(seq)
        stored = live.store()
        same_game(stored, full)
    finally:
        live.close()


# --- slap -----------------------------------------------------------------------------------------

def test_slap_at_a_table_one_phone_records(server, browser):  # noqa: F811
    full = get_game("slap").simulate(mode="timed", players=3, seed=1)
    full.pop("claimed", None)
    full.pop("deal")  # the piles are dealt face down: the table records what it sees
    names = full["players"]
    start = {k: full[k] for k in ("format", "game", "mode", "players", "options") if k in full}
    start["events"] = []
    live = Live(server, start, hands=False)
    try:
        phones = live.open(browser, names)

        def check() -> None:
            for name in (*names[1:], None):  # only the host's phone records
                assert live.phones[name].locator("[data-act=flip], [data-act=slap]").count() == 0

        settled = settler(live, check)
        host = phones[names[0]]
        assert phones[names[1]].locator("[data-act=records]").count() == 1
        first = 12
        record_slap(host, {"events": full["events"][:first]}, settled, SeatTaps())
        shot(phones[names[1]], "table-slap-phone.png")
        shot(host, "table-desktop.png", desktop=True)
        for event in full["events"][first:]:
            [seq] = live.send(names[0], {"type": "place", "at": "/events", "how": "append",
                                         "value": event})
        live.in_step(seq)
        for tab in live.phones.values():
            assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        stored = live.store()
        same_game(stored, full)
    finally:
        live.close()


# --- POP! ----------------------------------------------------------------------------------------

def _tap(tab: Any, kind: str, slot: int, cards: list[int]) -> None:
    for card in cards:
        tab.click(f"[data-entry={kind}] [data-slot='{slot}'] [data-act=card][data-card='{card}']")


def test_pop_battle_three_rounds_at_a_table(server, browser):  # noqa: F811
    from tests.tables.helpers import game_log, start_of

    full = game_log(seed=3)
    full.pop("claimed", None)  # the score sheet's claims: the sign-off's business
    names = full["players"]
    live = Live(server, start_of(full), hands=True)
    try:
        phones = live.open(browser, names)
        at = {"round": 0, "turn": -1, "dealt": set(), "chosen": set()}

        def check() -> None:
            rnd = full["rounds"][at["round"]]
            before = full["rounds"][at["round"] - 1]["hands"] if at["round"] else {}
            rows = len(rnd["layout"])
            for who, tab in live.phones.items():
                seen = tab.evaluate("""() => {
                    const n = s => document.querySelectorAll(s).length, out = {hand: [], slots: {}, revealed: []};
                    document.querySelectorAll('[data-act=hand] .tb-card').forEach(c => out.hand.push(Number(c.textContent)));
                    document.querySelectorAll('[data-entry] [data-slot]').forEach(s => {
                      out.slots[s.closest('[data-entry]').dataset.entry + s.dataset.slot] = s.querySelectorAll('.tb-card').length; });
                    document.querySelectorAll('.tb-revealed[data-turn]').forEach(r => out.revealed.push(Number(r.dataset.turn)));
                    return out; }""")
                for k, other in enumerate(names):
                    if other != who:  # another seat's hand and its chosen card: never here
                        assert seen["slots"].get(f"round{rows + k}", 0) == 0, (who, other)
                        assert seen["slots"].get(f"turn{k}", 0) == 0, (who, other)
                if who is None:
                    assert seen["hand"] == []
                else:  # its own cards (this round's, or the last round's before the deal)
                    assert set(seen["hand"]) <= set(rnd["hands"][who]) | set(before.get(who, []))
                if at["turn"] >= 0 and at["chosen"]:
                    assert at["turn"] + 1 not in seen["revealed"], (who, at)

        def wait(seq: int) -> None:
            live.in_step(seq)
            check()

        for r, rnd in enumerate(full["rounds"]):
            at.update(round=r, turn=-1, dealt=set(), chosen=set())
            rows = len(rnd["layout"])
            by_page = r == 0  # the first round through the buttons, the others through the API
            if by_page:
                for row, cards in enumerate(rnd["layout"]):
                    _tap(phones[names[0]], "round", row, cards)
            else:
                wait(live.send(names[0], {"type": "part", "entry": "round", "slots": {
                    str(row): cards for row, cards in enumerate(rnd["layout"])}})[-1])
            for k, name in enumerate(names):
                at["dealt"].add(name)
                if by_page:
                    _tap(phones[name], "round", rows + k, rnd["hands"][name])
                    phones[name].wait_for_selector(
                        f"[data-entry=round] [data-slot='{rows + k}'] .tb-ok, [data-entry=turn]")
                    live.in_step(live.seq())
                    check()
                else:
                    wait(live.send(name, {"type": "part", "entry": "round",
                                          "slots": {str(rows + k): rnd["hands"][name]}})[-1])
            for t, turn in enumerate(rnd["turns"]):
                at.update(turn=t, chosen=set())
                parts = [(name, k, turn["plays"][name]) for k, name in enumerate(names)]
                if "chief" in turn:
                    parts.append((names[0], len(names), turn["chief"]))
                for name, slot, cards in parts:
                    at["chosen"].add(slot)
                    if by_page:
                        _tap(phones[name], "turn", slot, cards)
                        if len(at["chosen"]) < len(parts):
                            phones[name].wait_for_selector(
                                f"[data-entry=turn] [data-slot='{slot}'] .tb-ok")
                            live.in_step(live.seq())
                            check()
                    else:
                        seq = live.send(name, {"type": "part", "entry": "turn",
                                               "slots": {str(slot): cards}})[-1]
                        if len(at["chosen"]) < len(parts):
                            wait(seq)
                at["chosen"] = set()
                for tab in live.phones.values():
                    tab.wait_for_selector(f".tb-revealed[data-turn='{t + 1}']"
                                          if t + 1 < len(rnd["turns"]) or r + 1 == len(full["rounds"])
                                          else "[data-entry=round], [data-entry=kept]")
                if by_page and t == 1:
                    shot(phones[names[1]], "table-pop-phone.png")
            if "kept" in rnd:  # (a battle keeps no card; other modes: the kept entry)
                pytest.skip("a mode with kept cards")
        stored = live.store()
        same_game(stored, full)
    finally:
        live.close()

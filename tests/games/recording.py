"""Recording a simulated cube, slap or Bloops game through the recorder page, by taps only.

Each driver reads the simulated log and taps, in the game's entry panel, the buttons that enter its
moves (the buttons carry ``data-act`` and the card, player, place or value they enter).
``settled(page)`` is called after each entry: it waits until the recorder has checked it. Every tap
is counted per kind of event, for the "actions per event" figures (docs/recorder.md).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterator

import pytest

from tests.web.conftest import (CHROMIUM_ARGS, SCREENSHOTS, screenshots_wanted,  # noqa: F401
                                watched_page)

Settled = Callable[[Any], None]

# The recorder page's Recorder, for a page.wait_for_function predicate (which must answer at once:
# a promise counts as true). The page keeps nothing on window: its module exports it; the first
# poll imports the module (the page's own instance) and keeps it for the next ones.
RECORDER = ("(globalThis.recordModule ? globalThis.recordModule.recorder"
            " : (import('/assets/record.js').then(m => { globalThis.recordModule = m; }), null))")


class Taps:
    """Taps per kind of event: ``{kind: [taps of each event]}``."""

    def __init__(self) -> None:
        self.events: dict[str, list[int]] = defaultdict(list)
        self.count = 0

    def tap(self, page: Any, selector: str) -> None:
        try:  # the panel may still be drawing (after a reload, or while choices are fetched)
            page.locator(selector).first.click(timeout=10_000)
        except Exception as error:
            raise AssertionError(f"no button {selector} to tap: {error}") from None
        self.count += 1

    def event(self, kind: str) -> None:
        self.events[kind].append(self.count)
        self.count = 0

    def summary(self) -> dict[str, dict[str, float]]:
        return {kind: {"events": len(taps), "mean": round(sum(taps) / len(taps), 2),
                       "max": max(taps)} for kind, taps in sorted(self.events.items())}


# --- the recorder page -----------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A fresh page at phone size (390×844); fails the test on any JavaScript or console error."""
    with watched_page(browser, viewport=PHONE) as tab:
        yield tab


def start(page: Any, url: str, *, game: str, mode: str, players: list[str]) -> None:
    """The setup form: game, mode, players; then "Start recording"."""
    page.goto(url + "/record")
    page.select_option("#rec-game", game)
    page.select_option("#rec-mode", mode)
    while page.locator('[id^="rec-player-"]').count() < len(players):
        page.click('[data-act="add-player"]')
    for n, name in enumerate(players, start=1):
        page.fill(f"#rec-player-{n}", name)
    page.click('[data-act="start"]')
    page.wait_for_function("() => { const r = " + RECORDER + "; "
                           "return r && r.state && r.state.checked && r.answer; }")


class Entries:
    """Waits, after each entry, until the recorder has checked and kept it."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, page: Any) -> None:
        self.count += 1
        try:
            page.wait_for_function(
                "n => { const r = " + RECORDER + "; return r && r.state && !r.busy"
                " && r.state.undo.length >= n && r.state.checked; }", arg=self.count)
        except Exception:
            raise AssertionError(f"entry {self.count} not kept: "
                                 f"{page.text_content('#rec-status')}") from None


def finish(page: Any) -> str:
    """End screen, store, and the replay's slug."""
    page.click('[data-act="finish"]')
    page.click('[data-act="store"]')
    page.wait_for_url("**/r/*")
    return page.url.rsplit("/r/", 1)[1].split("#")[0]


def no_horizontal_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def screenshot(page: Any, name: str) -> None:
    if screenshots_wanted():
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SCREENSHOTS / name), full_page=False)


def report(game: str, taps: Taps) -> None:
    """Print the actions per event (pytest -s shows them)."""
    print(f"\nactions per event, {game}:")
    for kind, figures in taps.summary().items():
        print(f"  {kind:<24} {figures['events']:>4} events  mean {figures['mean']:>5}  "
              f"max {figures['max']}")


def visible(page: Any, selector: str) -> bool:
    return page.locator(selector).count() > 0


# --- slap ----------------------------------------------------------------------------------------

def record_slap(page: Any, log: dict[str, Any], settled: Settled, taps: Taps) -> None:
    for event in log["events"]:
        if "flip" in event:
            card = event["card"]
            known = f'[data-act="flip"][data-card="{card}"]'
            if visible(page, known):
                taps.tap(page, known)
            else:
                taps.tap(page, f'[data-act="colour"][data-colour="{card.rsplit("-", 1)[0]}"]')
                taps.tap(page, f'[data-act="value"][data-card="{card}"]')
            kind = "flip"
        elif "slap" in event:
            if event.get("pile") == "folies":
                taps.tap(page, '[data-act="folies"]')
            taps.tap(page, f'[data-act="slap"][data-player="{event["slap"]}"]')
            kind = "slap"
        else:
            taps.tap(page, '[data-act="time-up"]')
            kind = "time up"
        settled(page)
        taps.event(kind)


# --- Bloops --------------------------------------------------------------------------------------

def _value(page: Any, taps: Taps, box: str, value: int | None) -> None:
    if value is None:
        taps.tap(page, f'{box} [data-act="unseen"]')
    else:
        taps.tap(page, f'{box} [data-act="value"][data-value="{value}"]')


def _asks(page: Any, box: str) -> bool:
    """Does the panel ask for a value in this box (the value is not known to the engine)?"""
    return visible(page, f'{box} [data-act="value"]')


def record_bloops(page: Any, log: dict[str, Any], settled: Settled, taps: Taps) -> None:
    deal = log.get("deal")
    if visible(page, ".br-deal"):
        if deal and any(v is not None for values in deal.values() for v in values):
            for name in log["players"]:
                for value in deal[name]:
                    _value(page, taps, ".br-deal", value)
            settled(page)
        else:
            taps.tap(page, '[data-act="deal-skip"]')
        taps.event("deal")
    for event in log["events"]:
        kind, who = event["type"], event["player"]
        if kind == "draw":
            _value(page, taps, ".br-draw", event.get("value"))
        elif kind == "discard":
            taps.tap(page, '.br-keep [data-act="discard"]')
            if _asks(page, ".br-keep"):
                _value(page, taps, ".br-keep", event["value"])
        elif kind == "keep":
            taps.tap(page, f'.br-keep [data-act="keep"][data-place="{event["place"]}"]')
            if _asks(page, ".br-keep"):
                _value(page, taps, ".br-keep", event["value"])
        elif kind == "counter":
            taps.tap(page, f'.br-counter [data-act="counter-player"][data-player="{who}"]')
            taps.tap(page, f'.br-counter [data-act="counter-place"][data-place="{event["place"]}"]')
            if _asks(page, ".br-counter") and not visible(page, '.br-counter [data-act="unseen"]'):
                _value(page, taps, ".br-counter", event["value"])
            if visible(page, '.br-counter [data-act="unseen"]'):  # a wrong one: the penalty card
                _value(page, taps, ".br-counter", event.get("penalty"))
        elif kind == "bloops":
            taps.tap(page, '[data-act="bloops"]')
        elif kind == "rearrange":
            taps.tap(page, '.br-rearrange [data-act="rearrange-open"]')
            taps.tap(page, f'.br-rearrange [data-act="rearrange-player"][data-player="{who}"]')
            order = event.get("order")
            if order in (None, "unknown"):
                taps.tap(page, '.br-rearrange [data-act="rearrange-unseen"]')
            else:  # place by place; the last one left is filled in by the panel
                for place in order[:-1] or order:  # (one place: its one tap)
                    taps.tap(page, f'.br-rearrange [data-act="rearrange-place"]'
                                   f'[data-place="{place}"]')
        elif kind == "give":
            taps.tap(page, f'.br-effect [data-act="target"][data-player="{event["target"]}"]')
            _value(page, taps, ".br-effect", event.get("value"))
        elif kind == "look":
            taps.tap(page, f'.br-effect [data-act="target"][data-player="{event["target"]}"]')
            taps.tap(page, f'.br-effect [data-act="target-place"][data-place="{event["place"]}"]')
            if _asks(page, ".br-effect"):
                _value(page, taps, ".br-effect", event.get("value"))
        elif kind == "swap":
            taps.tap(page, f'.br-effect [data-act="own-place"][data-place="{event["place"]}"]')
            taps.tap(page, f'.br-effect [data-act="target"][data-player="{event["target"]}"]')
            taps.tap(page, f'.br-effect [data-act="target-place"]'
                           f'[data-place="{event["target_place"]}"]')
        settled(page)
        taps.event(kind)
    reveal = log.get("reveal")
    if reveal is not None:
        while _asks(page, ".br-reveal"):
            asked = page.locator(".br-reveal .br-values").first
            name, place = asked.get_attribute("data-player"), asked.get_attribute("data-place")
            _value(page, taps, ".br-reveal", reveal[name][place])
        taps.tap(page, '[data-act="reveal"]')
        settled(page)
        taps.event("reveal")


# --- cube ----------------------------------------------------------------------------------------

def _card(page: Any, taps: Taps, act: str, card: str | None) -> None:
    if card is None:
        taps.tap(page, f'[data-act="{act}-unseen"]')
    else:
        taps.tap(page, f'[data-act="{act}"][data-card="{card}"]')


def _choice(page: Any, taps: Taps, act: str, value: str) -> None:
    selector = f'[data-act="{act}"][data-value="{value}"]'
    if visible(page, selector):
        taps.tap(page, selector)


def _wait_choices(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.cr-wait')")


def record_cube(page: Any, log: dict[str, Any], settled: Settled, taps: Taps, *,
                dealt: bool = False) -> None:
    """The deal (unless ``dealt``) and the turns of ``log``."""
    if not dealt:
        taps.tap(page, '[data-act="copies"]')  # copy numbers, to enter the simulated ids exactly
        taps.event("setting")
        for name in log["players"]:
            hand = log["deal"][name]
            for k, card in enumerate(hand):
                if card is None and not any(hand[k:]):  # "rest of the hand unseen": one tap
                    taps.tap(page, '[data-act="deal-rest"]')
                    break
                _card(page, taps, "deal", card)
        settled(page)
        taps.event("deal")
    names = log["players"]
    for turn in log["turns"]:
        drawn = list(turn.get("draw") or [])
        if not drawn:
            taps.tap(page, '[data-act="turn-start"]')
        for card in drawn:
            _wait_choices(page)
            _card(page, taps, "draw", card)
        _wait_choices(page)
        if visible(page, '[data-act="lay-done"]'):  # unseen cards in hand: what was laid from them
            for card in turn.get("lay") or []:
                if visible(page, f'[data-act="lay"][data-card="{card}"]'):
                    taps.tap(page, f'[data-act="lay"][data-card="{card}"]')
            taps.tap(page, '[data-act="lay-done"]')
        settled(page)
        taps.event("turn (draw and lay)")
        for event in turn.get("events") or []:
            _cube_event(page, taps, event, names, turn["player"])
            settled(page)
            taps.event(_cube_kind(event))


def _cube_kind(event: dict[str, Any]) -> str:
    if "play" in event:
        return "play " + event["play"].rsplit("-", 1)[0]
    return "discard" if "discard" in event else "F.M.C."


def _cube_event(page: Any, taps: Taps, event: dict[str, Any], names: list[str],
                player: str) -> None:
    if "show" in event:
        taps.tap(page, f'[data-act="fmc"][data-player="{event.get("player", player)}"]')
        return
    if "discard" in event:
        for card in event["discard"]:
            _card(page, taps, "discard", card)
        return
    card = event["play"]
    taps.tap(page, f'[data-act="play"][data-card="{card}"]')
    if "draw" in event:
        for drawn in event["draw"]:
            _wait_choices(page)
            _card(page, taps, "draw", drawn)
        return
    if "give" in event:
        _choice(page, taps, "give", event["give"])
    target = event.get("target") or next(n for n in names if n != player)
    _choice(page, taps, "target", target)
    kind = card.rsplit("-", 1)[0]
    if kind == "CORNER-TWIST":
        _choice(page, taps, "twist", f'{event["step"]}|{event["take"][0]}')
    elif "step" in event:
        _choice(page, taps, "step", event["step"])
    elif kind == "SCRAMBLE":
        _choice(page, taps, "scramble-count", str(len(event.get("take") or [])))
    elif "take" in event:
        take = event["take"]
        _choice(page, taps, "take", "none" if not take else (take[0] or ""))

"""What can come next in a slap draft, as the engine sees it (for the recorder's entry panel).

``choices(log)`` replays the draft with the engine's own :class:`SlapReplay` and reads its state
through the small functions below; no rule is written twice. Next can come a flip by the one player
whose turn it is (the card: the one the log already knows on top of their pile, else any card not
yet seen), a slap by any player still in the game, on the central pile or on the Folies pile, and in
a timed game the end of time. ``cut(log, step)`` is the draft a what-if branch starts from.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...drafts import events_within
from ...replay import RuleViolation, StepRecorder
from .cards import DECK
from .rules import SlapReplay
from .table import CENTRAL, FOLIES


# --- reading the engine's state ------------------------------------------------------------------

def replayed(log: Mapping[str, Any], recorder: StepRecorder | None = None) -> SlapReplay:
    """The draft replayed event by event; raises :class:`RuleViolation`."""
    game = SlapReplay(log, recorder or StepRecorder(enabled=False))
    game.start()
    for number, event in enumerate(log.get("events") or []):
        game.apply(number, event)
    return game


def players_in(game: SlapReplay) -> list[int]:
    return game.table.still_in()


def window_card(game: SlapReplay) -> dict[str, Any] | None:
    """The card slaps are judged against now, and what it calls for."""
    window = game.window
    if window is None or window.closed:
        return None
    return {"card": window.card, "flipper": game.names[window.flipper],
            "conditions": list(window.conditions),
            "won_by": None if window.won_by is None else game.names[window.won_by]}


def possible_tops(game: SlapReplay, position: int) -> list[str]:
    """The cards the top of a pile can be: the one the log knows; else the seen cards its
    family may hold and, when the family may hold one, every card not seen yet (the engine's
    matching has the last word when the flip is checked)."""
    top = game.table.piles[position][0]
    if isinstance(top, str):
        return [top]
    hidden = game.table.hidden
    cards = set(hidden.members(top))
    if hidden.free[top]:
        cards.update(card for card in DECK if card not in hidden.seen)
    return [card for card in DECK if card in cards]


def next_flipper(game: SlapReplay) -> int | None:
    """Who flips next: the engine settles the open slap window first, as the next flip will
    (call this last: it changes the replayed game)."""
    if game.ended_by is not None:
        return None
    game.close_window()
    if game.settle_stall():
        return None
    return game.expected_flipper()


def over(game: SlapReplay) -> bool:
    """Is the draft a finished game (as the engine's ``run`` ends it: a stall at the end counts)?"""
    return game.ended_by is not None or game.would_stall()


# --- the answer ----------------------------------------------------------------------------------

# Offline, the page takes out of the offered flip the cards flipped since this answer: a flipped
# card is seen, and a card not seen yet is what an unknown top can be (docs/recorder.md, "Offline";
# the page's generic narrowing in static/record.js). Not given when the log knows the top card.
SPENT: list[dict[str, Any]] = [{"offer": "/next/flip/cards", "by": [{"at": "/events/*", "key": "card"}]}]


def choices(log: Mapping[str, Any], *, pending: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every event that may come next. ``pending`` is not needed: a flip's possible cards and the
    slappers come whole."""
    try:
        game = replayed(log)
    except RuleViolation as stop:
        return {"error": stop.violation.to_dict(), "next": {}}
    names = game.names
    nxt: dict[str, Any] = {}
    window = window_card(game)
    finished = over(game)
    if game.ended_by is None:
        nxt["slap"] = {"players": [names[p] for p in players_in(game)],
                       "piles": [CENTRAL, FOLIES]}
        if game.mode == "timed":
            nxt["time_up"] = True
    challenge = game.challenge
    counts = {name: game.table.counts[p] for p, name in enumerate(names)}
    flipper = next_flipper(game)
    if flipper is not None:
        nxt["flip"] = {"player": names[flipper], "cards": possible_tops(game, flipper)}
    answer: dict[str, Any] = {
        "over": finished,
        "window": window,
        "challenge": None if challenge is None else {
            "setter": names[challenge.setter], "left": challenge.left,
            "player": None if challenge.player is None else names[challenge.player]},
        "counts": counts,
        "next": nxt,
    }
    if "flip" in nxt and len(nxt["flip"]["cards"]) > 1:
        answer["spent"] = [{"offer": rule["offer"], "by": [dict(by) for by in rule["by"]]}
                           for rule in SPENT]
    return answer


# --- what-if branches ----------------------------------------------------------------------------

def cut(log: Mapping[str, Any], step: int) -> dict[str, Any]:
    """The draft a what-if branch starts from: the deal and every event whose replay steps all
    come at or before step ``step`` of the full log's replay (``claimed`` goes)."""
    recorder = StepRecorder(enabled=True)
    game = SlapReplay(log, recorder)
    events = list(log.get("events") or [])
    keep = events_within(step, recorder, game.start, game.apply, events)
    out = {k: v for k, v in log.items() if k not in ("claimed", "events")}
    out["events"] = events[:keep]
    return out

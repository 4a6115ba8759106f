"""What can come next in a Bloops draft, as the engine sees it (for the recorder's entry panel).

``choices(log)`` replays the draft with the engine's own :class:`BloopsReplay` and reads its state
through the small functions below; no rule is written twice. The answer lists every event that may
be entered now, with the players, places and values it can take: a value already known for a card
is the only one offered; an unknown card offers every value the deck still has (``values``).
``cut(log, step)`` is the draft a what-if branch starts from: the log up to replay step ``step``.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...drafts import events_within
from ...replay import RuleViolation, StepRecorder
from .cards import EFFECTS, GIVE, HIGHEST, LOOK, LOWEST, SWAP
from .modes import ENDED_BY_TWENTY
from .rules import BloopsReplay
from .table import Card, turn_player


# --- reading the engine's state ------------------------------------------------------------------

def replayed(log: Mapping[str, Any]) -> BloopsReplay:
    """The draft's events replayed (not the reveal); raises :class:`RuleViolation`."""
    game = BloopsReplay(log, StepRecorder(enabled=False))
    game.start()
    for position, event in enumerate(log.get("events") or []):
        game.apply(event, position)
    game.settle()  # effects that can no longer be carried out are dropped, as the engine will
    return game


def possible_values(game: BloopsReplay) -> list[int]:
    """Values an unknown card can still have: the deck's count of the value is not all seen."""
    return [v for v in range(LOWEST, HIGHEST + 1) if game.known[v] < game.limit(v)]


def value_of(card: Card | None) -> int | None:
    return None if card is None else card.value


def places(game: BloopsReplay, position: int) -> list[dict[str, Any]]:
    return [{"place": number, "value": card.value}
            for number, card in sorted(game.table.places[position].items())]


def next_drawer(game: BloopsReplay) -> int:
    return 0 if game.current is None else (game.current + 1) % len(game.names)


def turn_can_begin(game: BloopsReplay) -> bool:
    table = game.table
    return (game.ended_by is None and game.final_left != 0 and table.pile_left > 0
            and table.drawn is None and not table.pending)


def can_call_bloops(game: BloopsReplay) -> bool:
    return (game.ended_by is None and game.current is not None and game.holder is None
            and game.final_left is None and game.table.drawn is None and not game.table.pending)


def is_over(game: BloopsReplay) -> bool:
    """Would the log end the game here (the engine's own ``finish``; call it last)."""
    if game.ended_by == ENDED_BY_TWENTY:
        return True
    return game.finish() == "complete"


# --- the answer ----------------------------------------------------------------------------------

# Offline, the page takes out of ``values`` a value once the entries made since this answer have
# brought as many new cards of it as the deck has left (``left``): a card drawn, a penalty card
# and a 6's card come from the pile, so each is a card not seen before (docs/recorder.md,
# "Offline"; the generic narrowing in static/record.js). A value shown again for a known card is
# not counted: it is no new copy.
FRESH: list[dict[str, Any]] = [{"at": "/events/*", "key": "value", "where": {"type": ["draw", "give"]}},
         {"at": "/events/*", "key": "penalty", "where": {"type": ["counter"]}}]


def spent(game: BloopsReplay, values: list[int]) -> list[dict[str, Any]]:
    """How many more new cards of each value the deck has (for the offline narrowing)."""
    left = {str(v): game.limit(v) - game.known[v] for v in values}
    return [{"offer": "/values", "by": [dict(by) for by in FRESH], "left": left}]


def choices(log: Mapping[str, Any], *, pending: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every event that may come next, with its possible fields. ``pending`` (a partly entered
    event) is not needed: each event's options are small and come whole."""
    try:
        game = replayed(log)
    except RuleViolation as stop:
        return {"error": stop.violation.to_dict(), "next": {}}
    names = game.names
    table = game.table
    nxt: dict[str, Any] = {}
    if turn_can_begin(game):
        nxt["draw"] = {"player": names[next_drawer(game)]}
    if table.drawn is not None:
        who = turn_player(game)
        nxt["discard"] = {"player": names[who], "value": value_of(table.drawn)}
        nxt["keep"] = {"player": names[who], "places": places(game, who)}
    if game.counter_open and game.ended_by != ENDED_BY_TWENTY:
        nxt["counter"] = {"top": table.top_value(), "penalty": table.pile_left > 0,
                          "places": {names[p]: places(game, p) for p in range(len(names))
                                     if table.places[p]}}
    if table.pending and game.ended_by is None:
        nxt["effect"] = effect_choices(game)
    if game.ended_by != ENDED_BY_TWENTY:  # a player may rearrange their cards at any time
        nxt["rearrange"] = {"places": {names[p]: sorted(table.places[p])
                                       for p in range(len(names)) if table.places[p]}}
    if can_call_bloops(game):
        nxt["bloops"] = {"player": names[turn_player(game)]}
    over = is_over(game)
    values = possible_values(game)
    if over:
        nxt["reveal"] = {names[p]: places(game, p) for p in range(len(names))}
    return {
        "turn": game.turn,
        "current": None if game.current is None else names[game.current],
        "holder": None if game.holder is None else names[game.holder],
        "final_turns_left": game.final_left,
        "over": over,
        "values": values,
        "next": nxt,
        "spent": spent(game, values),
    }


def effect_choices(game: BloopsReplay) -> dict[str, Any]:
    """The effect due now (the first waiting one) and its possible targets and places."""
    effect = game.table.pending[0]
    kind, owner, names = EFFECTS[effect.value], effect.owner, game.names
    others = [p for p in range(len(names)) if p != owner]
    out: dict[str, Any] = {"type": kind, "player": names[owner], "card": effect.value}
    if kind == GIVE:
        out["targets"] = [names[p] for p in others]
    elif kind == LOOK:
        out["targets"] = {names[p]: places(game, p) for p in range(len(names))
                          if game.table.places[p]}
    elif kind == SWAP:
        out["places"] = places(game, owner)
        out["targets"] = {names[p]: places(game, p) for p in others
                          if p != game.holder and game.table.places[p]}
    return out


# --- what-if branches ----------------------------------------------------------------------------

def cut(log: Mapping[str, Any], step: int) -> dict[str, Any]:
    """The draft a what-if branch starts from: the deal and every event whose replay step comes at
    or before step ``step`` of the full log's replay (``claimed`` and ``reveal`` go)."""
    recorder = StepRecorder(enabled=True)
    game = BloopsReplay(log, recorder)
    events = list(log.get("events") or [])
    keep = events_within(step, recorder, game.start,
                         lambda position, event: game.apply(event, position), events)
    out = {k: v for k, v in log.items() if k not in ("claimed", "reveal", "events")}
    out["events"] = events[:keep]
    return out

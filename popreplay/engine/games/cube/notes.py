"""Annotated steps of a cube replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. ``state`` (documented in ``docs/formats/cube.md``) holds the
draw pile, both discards and, per player, the hand (card ids, ``"?n"`` for a hidden card) and the
table (each step with its CUBE card, colours, timer and whether it is complete).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from ...messages import Msg, msg
from ...replay import StepRecorder
from .cards import FMC_MARKS, NAMES, kind
from .knowledge import Knowledge
from .messages import cards as _cards
from .messages import mark, names
from .steps import Table


class CubeReplay(Protocol):
    """What the notes read of the replay (:class:`~.rules.CubeReplay`, which they do not
    import: the rules call the notes)."""

    @property
    def rec(self) -> StepRecorder: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def cards(self) -> frozenset[str]: ...
    @property
    def know(self) -> Knowledge: ...
    @property
    def tables(self) -> list[Table]: ...
    @property
    def fmc(self) -> dict[str, int] | None: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def round(self) -> int | None: ...
    @property
    def current(self) -> int | None: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def won_by(self) -> str | None: ...


def turn_player(game: CubeReplay) -> int:
    """The player of the turn begun (``game.current``), where the rules know one has: a turn's
    draw, lay and events."""
    current = game.current
    assert current is not None, "no turn has begun"
    return current


def state(game: CubeReplay) -> dict[str, Any]:
    know = game.know
    pile = know.pile_cards()
    return {
        "current": None if game.current is None else game.names[game.current],
        "winners": None if game.winner is None else [game.names[game.winner]],
        "pile": {"count": know.pile_size(), "cards": pile},
        "unlocated": know.unlocated(pile),
        "discards": {"left": list(know.left), "right": list(know.right)},
        "players": {
            name: {"hand": hand.entries(), "hand_size": hand.size(),
                   "table": table.snapshot(), "completed": table.completed()}
            for name, hand, table in zip(game.names, know.hands, game.tables)
        },
    }


def _add(game: CubeReplay, kind_: str, note: Msg, data: dict) -> None:
    game.rec.add(kind_, round=game.round, turn=game.turn, note=note, data=data,
                 state=state(game))


def deal(game: CubeReplay) -> None:
    key = "cube.note.deal-fmc" if game.fmc is not None else "cube.note.deal"
    _add(game, "deal", msg(key, cards=len(game.know.cards), players=len(game.names),
                           pile=game.know.pile_size()),
         {"cards": len(game.know.cards)})


def reshuffle(game: CubeReplay, cards: list[str]) -> None:
    _add(game, "reshuffle", msg("cube.note.reshuffle", count=len(cards)),
         {"cards": sorted(cards)})


def turn_draw(game: CubeReplay, held: int, cards: list) -> None:
    name = game.names[turn_player(game)]
    key = "cube.note.draw-up-to-5" if held <= 2 else "cube.note.draw-2"
    _add(game, "draw", msg(key, turn=game.turn, name=name, held=held, cards=_cards(cards)),
         {"player": name, "held": held, "cards": cards})


def lay(game: CubeReplay, cards: list[str], discarded: list[str]) -> None:
    name = game.names[turn_player(game)]
    laid = [c for c in cards if c not in discarded]
    if not discarded:
        note = msg("cube.note.lay", name=name, cards=names(laid))
    elif laid:
        note = msg("cube.note.lay-copies", name=name, cards=laid, copies=list(discarded))
    else:
        note = msg("cube.note.lay-only-copies", name=name, copies=list(discarded))
    _add(game, "lay", note, {"player": name, "laid": laid, "discarded": discarded})


def event(game: CubeReplay, item: Mapping[str, Any]) -> None:
    name = game.names[turn_player(game)]
    data = {"player": name, **{k: v for k, v in item.items() if v is not None}}
    if "discard" in item:
        kind_, note = "discard", msg("cube.note.discard", name=name,
                                     cards=_cards(item["discard"]))
    elif "show" in item:
        shown = [msg("cube.note.fmc-card", card=card, mark=mark(m))
                 for card, m in zip(item["show"], FMC_MARKS)]
        name = item.get("player") or name  # any player may show, at any moment
        data["player"] = name
        kind_, note = "fmc", msg("cube.note.fmc", name=name, shown=shown)
    else:
        kind_, note = "play", _play_note(game, name, item)
    if game.winner is not None:
        how = "cube.note.win-steps" if game.won_by == "steps" else "cube.note.win-fmc"
        note = msg("cube.note.and-win", note=note, win=msg(how, name=game.names[game.winner]))
    _add(game, kind_, note, data)


def _play_note(game: CubeReplay, name: str, item: Mapping[str, Any]) -> Msg:
    card = item["play"]
    rule = kind(card)
    target = item.get("target") or (game.names[1 - turn_player(game)] if len(game.names) == 2
                                    else None)
    step = item.get("step")
    take = item.get("take") or []
    if rule in ("PB", "WR"):
        return msg("cube.note.timer", name=name, step=step, card=card, timer=NAMES[rule])
    if rule == "DNF":
        return msg("cube.note.dnf", name=name, card=card, target=target, step=step)
    if rule == "LOOK-AHEAD":
        return msg("cube.note.look-ahead", name=name, cards=_cards(item.get("draw") or []))
    if rule == "ONE-HAND":
        return msg("cube.note.one-hand", name=name, cards=_cards(take), target=target)
    if rule == "BLIND-SOLVE":
        if not take:
            return msg("cube.note.blind-solve-nothing", name=name, target=target)
        return msg("cube.note.blind-solve", name=name, target=target, cards=_cards(take))
    if rule == "CORNER-TWIST":
        return msg("cube.note.corner-twist", name=name, cards=_cards(take), target=target,
                   step=step)
    if rule == "POP":
        return msg("cube.note.pop", name=name, target=target, step=step)
    if rule == "SCRAMBLE":
        if not take:
            return msg("cube.note.scramble-spent", name=name, target=target)
        return msg("cube.note.scramble", name=name, give=item["give"], target=target,
                   cards=_cards(take))
    return msg("cube.note.colour", name=name, card=card, step=step)


def game_end(game: CubeReplay, outcome: dict) -> None:
    key = "cube.note.end-steps" if outcome["won_by"] == "steps" else "cube.note.end-fmc"
    _add(game, "game-end", msg(key, name=outcome["winners"][0], turn=outcome["turn"]),
         {"outcome": outcome})


def violation(game: CubeReplay, error: dict) -> None:
    note = msg("core.illegal", message=error["message"])
    state_now = state(game) if game.cards else None
    game.rec.add("violation", round=error["round"], turn=error["turn"], note=note,
                 data={"error": error}, state=state_now)

"""Annotated steps of a cube replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. ``state`` (documented in ``docs/formats/cube.md``) holds the
draw pile, both discards and, per player, the hand (card ids, ``"?n"`` for a hidden card) and the
table (each step with its CUBE card, colours, timer and whether it is complete).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from .cards import FMC_MARKS, kind
from .effects import NAMES

if TYPE_CHECKING:
    from .rules import CubeReplay


def _list(items) -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


def _cards(cards) -> str:
    cards = list(cards)
    if cards and all(c is None for c in cards):
        return "a hidden card" if len(cards) == 1 else f"{len(cards)} hidden cards"
    return _list("a hidden card" if c is None else c for c in cards)


def state(game: CubeReplay) -> dict[str, Any]:
    know = game.know
    return {
        "current": None if game.current is None else game.names[game.current],
        "winners": None if game.winner is None else [game.names[game.winner]],
        "pile": {"count": know.pile_size(), "cards": know.pile_cards()},
        "unlocated": know.unlocated(),
        "discards": {"left": list(know.left), "right": list(know.right)},
        "players": {
            name: {"hand": hand.entries(), "hand_size": hand.size(),
                   "table": table.snapshot(), "completed": table.completed()}
            for name, hand, table in zip(game.names, know.hands, game.tables)
        },
    }


def _add(game: CubeReplay, kind_: str, note: str, data: dict) -> None:
    game.rec.add(kind_, round=game.round, turn=game.turn, note=note, data=data,
                 state=state(game))


def deal(game: CubeReplay) -> None:
    fmc = "; the deck declares its F.M.C. marks" if game.fmc is not None else ""
    _add(game, "deal", f"{len(game.know.cards)} cards: {len(game.names)} players are dealt 5 "
         f"each, {game.know.pile_size()} stay in the draw pile{fmc}.",
         {"cards": len(game.know.cards)})


def reshuffle(game: CubeReplay, cards: list[str]) -> None:
    _add(game, "reshuffle", f"The draw pile is empty: both discards ({len(cards)} cards) are "
         "shuffled into a new draw pile.", {"cards": sorted(cards)})


def turn_draw(game: CubeReplay, held: int, cards: list) -> None:
    name = game.names[game.current]
    rule = "draws up to 5" if held <= 2 else "draws 2"
    _add(game, "draw", f"Turn {game.turn}: {name} holds {held} card{'s' * (held != 1)} and "
         f"{rule}: {_cards(cards)}.", {"player": name, "held": held, "cards": cards})


def lay(game: CubeReplay, cards: list[str], discarded: list[str]) -> None:
    name = game.names[game.current]
    laid = [c for c in cards if c not in discarded]
    note = f"{name} lays {_list(laid)} on the table" if laid else f"{name} lays no new step"
    if discarded:
        note += f"; {_list(discarded)} {'is a copy' if len(discarded) == 1 else 'are copies'}"
        note += " of a step already there and go" + "es" * (len(discarded) == 1) + " right"
    _add(game, "lay", note + ".", {"player": name, "laid": laid, "discarded": discarded})


def event(game: CubeReplay, item: Mapping[str, Any]) -> None:
    name = game.names[game.current]
    data = {"player": name, **{k: v for k, v in item.items() if v is not None}}
    if "discard" in item:
        kind_, note = "discard", f"{name} discards {_cards(item['discard'])} to the right."
    elif "show" in item:
        shown = ", ".join(f"{card} ({mark})" for card, mark in zip(item["show"], FMC_MARKS))
        name = item.get("player") or name  # any player may show, at any moment
        data["player"] = name
        kind_, note = "fmc", f"{name} shows the F.M.C.: {shown}."
    else:
        kind_, note = "play", _play_note(game, name, item)
    if game.winner is not None:
        how = "four complete steps" if game.won_by == "steps" else "the F.M.C."
        note += f" {game.names[game.winner]} wins with {how}!"
    _add(game, kind_, note, data)


def _play_note(game: CubeReplay, name: str, item: Mapping[str, Any]) -> str:
    card = item["play"]
    rule = kind(card)
    target = item.get("target") or (game.names[1 - game.current] if len(game.names) == 2
                                    else None)
    step = item.get("step")
    take = item.get("take") or []
    if rule in ("PB", "WR"):
        return f"{name} protects the {step} with {card} ({NAMES[rule]})."
    if rule == "DNF":
        return f"{name} plays {card}: {target}'s Personal Best on the {step} is discarded."
    if rule == "LOOK-AHEAD":
        return f"{name} plays Look Ahead and draws {_cards(item.get('draw') or [])}."
    if rule == "ONE-HAND":
        return f"{name} plays One Hand and takes {_cards(take)} from {target}'s hand."
    if rule == "BLIND-SOLVE":
        got = _cards(take) if take else f"nothing ({target} has no COLOUR card)"
        return f"{name} plays Blind Solve on {target} and takes {got}."
    if rule == "CORNER-TWIST":
        return (f"{name} plays Corner Twist: {_cards(take)} leaves {target}'s {step} for "
                f"{name}'s hand.")
    if rule == "POP":
        return (f"{name} plays Pop: {target}'s {step} pops off and its colours go back to "
                f"{target}'s hand.")
    if rule == "SCRAMBLE":
        if not take:
            return f"{name} plays Scramble, but {target} has no COLOUR card: it is spent."
        return f"{name} plays Scramble: {item['give']} goes to {target} for {_cards(take)}."
    return f"{name} puts {card} on the {step}."


def game_end(game: CubeReplay, outcome: dict) -> None:
    how = "four complete steps" if outcome["won_by"] == "steps" else "the F.M.C."
    _add(game, "game-end", f"Game over: {outcome['winners'][0]} wins with {how} on turn "
         f"{outcome['turn']}.", {"outcome": outcome})


def violation(game: CubeReplay, error: dict) -> None:
    note = f"Illegal: {error['message']}."
    state_now = state(game) if game.cards else None
    game.rec.add("violation", round=error["round"], turn=error["turn"], note=note,
                 data={"error": error}, state=state_now)

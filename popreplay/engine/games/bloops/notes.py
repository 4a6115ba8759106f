"""Annotated steps of a Bloops replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. Every step is ``{index, kind, round, turn, note, data, state}``
(``docs/formats/bloops.md``); ``round`` is always ``null`` (Bloops has no rounds), ``turn`` counts
the turns from 1. A card is named by its id (``#12``) and shown with its value when known.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import EFFECTS, GIVE, LOOK, NUMBERED, SWAP, TWENTY, card_id, row_of

if TYPE_CHECKING:
    from .rules import BloopsReplay
    from .table import Card, Pending, Pool

EFFECT_WORDS = {GIVE: "put the top card of the pile face down in front of an opponent",
                LOOK: "look at one card",
                SWAP: "swap one of their cards with an opponent's, unseen"}


def join(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _a(value: int | None) -> str:
    if value is None:
        return "an unseen card"
    return f"an {value}" if value in (8, 11, 18) else f"a {value}"


def _card(game: BloopsReplay, card: Card) -> dict[str, Any]:
    return {"card": card_id(card.number), "value": card.value}


def state(game: BloopsReplay) -> dict[str, Any]:
    table, names = game.table, game.names
    drawn = table.drawn
    return {
        "turn": game.turn,
        "current": None if game.current is None else names[game.current],
        "places": {name: [{"place": number, "row": row_of(number), "card": card_id(c.number),
                           "value": c.value, "seen_by": [names[i] for i in sorted(c.seen)],
                           "set": None if c.pool is None else c.pool.label}
                          for number, c in table.places[p].items()]
                   for p, name in enumerate(names)},
        "drawn": None if drawn is None else {"player": names[game.current], **_card(game, drawn)},
        "pile": [card_id(n) for n in range(table.next_card, NUMBERED + 1)],
        "discard": [{**_card(game, c), "by": names[who]} for c, who in table.discard],
        "bloops": None if game.holder is None else names[game.holder],
        "pending": [{"value": e.value, "effect": EFFECTS[e.value], "player": names[e.owner]}
                    for e in table.pending],
        "counter": table.top_value() if game.counter_open and game.ended_by is None else None,
        "final_turns_left": game.final_left,
        "ended_by": game.ended_by,
    }


def _add(game: BloopsReplay, kind: str, note: str, data: dict[str, Any], *,
         in_turn: bool = True) -> None:
    game.rec.add(kind, round=None, turn=game.event_turn if in_turn else None, note=note,
                 data=data, state=state(game))


def deal(game: BloopsReplay) -> None:
    names = join(game.names)
    known = sum(c.value is not None for places in game.table.places for c in places.values())
    note = (f"Six cards are dealt face down to each of {names}, in two rows of three; each player "
            f"looks at their bottom row once. {game.table.pile_left} cards form the pile")
    note += f" ({known} dealt values are recorded)." if known else "."
    _add(game, "deal", note, {"deck": None if game.limits is None else
                              {str(v): n for v, n in sorted(game.limits.items())}})


def draw(game: BloopsReplay, who: int, card: Card) -> None:
    name = game.names[who]
    last = ""
    if game.final_left is not None:
        last = " (a last turn after the Bloops call)"
    seen = f"{_a(card.value)}" if card.value is not None else "a card"
    _add(game, "draw", f"Turn {game.turn}: {name} draws {seen}{last}.",
         {"player": name, **_card(game, card), "last_turn": game.final_left is not None})


def _consequence(game: BloopsReplay, who: int, card: Card) -> tuple[str, str | None]:
    value = card.value
    if value == TWENTY:
        return " The 20 is discarded: the game ends at once.", None
    effect = EFFECTS.get(value)
    if effect is None:
        return "", None
    return f" Its effect: {game.names[who]} will {EFFECT_WORDS[effect]}.", effect


def discard(game: BloopsReplay, who: int, card: Card) -> None:
    name = game.names[who]
    tail, effect = _consequence(game, who, card)
    _add(game, "discard", f"{name} discards the {card.value} they drew.{tail}",
         {"player": name, **_card(game, card), "effect": effect,
          "ends_game": card.value == TWENTY})


def keep(game: BloopsReplay, who: int, card: Card, old: Card, place: int) -> None:
    name = game.names[who]
    tail, effect = _consequence(game, who, old)
    kept = "the drawn card" if card.value is None else f"the drawn {card.value}"
    _add(game, "keep", f"{name} keeps {kept} face down in place {place} and discards the "
         f"{old.value} that was there.{tail}",
         {"player": name, "place": place, "kept": _card(game, card),
          "discarded": _card(game, old), "effect": effect, "ends_game": old.value == TWENTY})


def counter(game: BloopsReplay, who: int, card: Card, place: int, top: int | None,
            penalty_place: int | None) -> None:
    name = game.names[who]
    data = {"player": name, "place": place, **_card(game, card), "matches": top,
            "right": penalty_place is None and card.value == top, "penalty_place": penalty_place}
    if card.value == top:
        tail, effect = _consequence(game, who, card)
        note = f"{name} counter-discards the {card.value} from place {place}.{tail}"
        data["effect"] = effect
    else:
        note = (f"{name} counter-discards {_a(card.value)} from place {place}, but the discard "
                f"shows {_a(top)}: the {card.value} goes back")
        if penalty_place is None:
            note += "; the pile is empty, so there is no penalty card."
        else:
            extra = game.table.places[who][penalty_place]
            seen = "" if extra.value is None else f" ({_a(extra.value)})"
            note += f" and {name} draws a penalty card{seen} face down into place {penalty_place}."
        data["effect"] = None
        data["penalty"] = None if penalty_place is None else _card(
            game, game.table.places[who][penalty_place])
    _add(game, "counter", note, data)


def give(game: BloopsReplay, effect: Pending, target: int, card: Card, place: int) -> None:
    name, other = game.names[effect.owner], game.names[target]
    seen = "" if card.value is None else f" (it is {_a(card.value)})"
    _add(game, "give", f"{name}'s 6: the top card of the pile goes face down in front of "
         f"{other}, as place {place}{seen}.",
         {"player": name, "effect_of": effect.value, "target": other, "place": place,
          **_card(game, card)})


def look(game: BloopsReplay, effect: Pending, target: int, card: Card, place: int) -> None:
    name, other = game.names[effect.owner], game.names[target]
    whose = "their own" if target == effect.owner else f"{other}'s"
    seen = "" if card.value is None else f": it is {_a(card.value)}"
    _add(game, "look", f"{name}'s {effect.value}: {name} looks at {whose} place {place}{seen}.",
         {"player": name, "effect_of": effect.value, "target": other, "place": place,
          **_card(game, card)})


def swap(game: BloopsReplay, effect: Pending, place: int, target: int, other_place: int) -> None:
    name, other = game.names[effect.owner], game.names[target]
    _add(game, "swap", f"{name}'s 9: {name}'s place {place} and {other}'s place {other_place} "
         "swap cards, unseen.",
         {"player": name, "effect_of": effect.value, "place": place, "target": other,
          "target_place": other_place})


def effect_lost(game: BloopsReplay, effect: Pending, why: str) -> None:
    name = game.names[effect.owner]
    _add(game, "effect-lost", f"{name}'s {effect.value} has no effect: {why}.",
         {"player": name, "effect_of": effect.value, "effect": EFFECTS[effect.value],
          "reason": why})


def set_values(pool: Pool) -> str:
    """What a set may still hold, for a message: "a 5, a 7 and 2 unseen cards"."""
    values = [_a(v) for v in sorted(pool.leftover().elements())]
    if pool.free():
        values.append(f"{pool.free()} unseen card{'s' * (pool.free() != 1)}")
    return "which holds " + join(values) if values else "which has no card left to show"


def rearrange(game: BloopsReplay, who: int, order: list[int] | None) -> None:
    name = game.names[who]
    cards = game.table.places[who]
    if order is None:
        pool = next((c.pool for c in cards.values() if c.pool is not None), None)
        note = (f"{name} rearranges their cards unseen: they are now known only as a set"
                + (f" ({pool.label}, {set_values(pool)}), until each is seen again." if pool
                   else "."))
        data = {"player": name, "order": None, "set": None if pool is None else pool.label}
    else:
        moves = [f"place {new} ← {old}" for new, old in zip(sorted(cards), order) if new != old]
        note = f"{name} rearranges their cards: {', '.join(moves) or 'nothing moves'}."
        data = {"player": name, "order": order, "set": None}
    _add(game, "rearrange", note, data)


def bloops(game: BloopsReplay, who: int) -> None:
    name = game.names[who]
    _add(game, "bloops", f"{name} calls Bloops and takes the Bloops card: every other player "
         f"has one more turn, and 9s cannot touch {name}'s cards.", {"player": name})


def reveal(game: BloopsReplay) -> None:
    _add(game, "reveal", "Everyone reveals their cards.", {}, in_turn=False)


def game_end(game: BloopsReplay, outcome: dict[str, Any]) -> None:
    why = {"twenty": "the 20 was discarded", "bloops": f"{outcome['bloops']} called Bloops",
           "pile-empty": "the draw pile is empty"}[outcome["ended_by"]]
    winners = outcome["winners"]
    if winners is None:
        result = "the winners are unknown, not every card is revealed"
    else:
        best = outcome["scores"][winners[0]]
        points = "whatever the unseen cards are" if best is None else f"with {best} points"
        result = (f"{join(winners)} share the victory {points}" if len(winners) > 1
                  else f"{winners[0]} wins {points}")
    scores = ", ".join(f"{n} {'?' if s is None else s}" for n, s in outcome["scores"].items())
    _add(game, "game-end", f"Game over ({why}): {result}. Scores: {scores}.",
         {"outcome": outcome}, in_turn=False)


def violation(game: BloopsReplay, error: dict[str, Any]) -> None:
    note = f"Illegal: {error['message']}."
    game.rec.add("violation", round=None, turn=error["turn"], note=note, data={"error": error},
                 state=state(game) if game.dealt else None)

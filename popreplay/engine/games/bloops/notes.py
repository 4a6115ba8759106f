"""Annotated steps of a Bloops replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. Every step is ``{index, kind, round, turn, note, data, state}``
(``docs/formats/bloops.md``); ``round`` is always ``null`` (Bloops has no rounds), ``turn`` counts
the turns from 1. A card is named by its id (``#12``) and shown with its value when known.
"""

from __future__ import annotations

from typing import Any

from ...messages import Msg, msg
from .cards import BOTTOM_ROW, EFFECTS, NUMBERED, TOP_ROW, TWENTY, card_id, row_of
from .messages import a as _a
from .messages import place as _place
from .table import BloopsGame, Card, Pending, Pool, turn_player

def join(items: list[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# A state is built at every step: the ids and rows it names are read from these, not worded anew.
_IDS = tuple(card_id(number) for number in range(NUMBERED + 1))  # _IDS[n]: card n's id
_ROWS = {place: row_of(place) for place in (*TOP_ROW, *BOTTOM_ROW)}  # any other place: extra


def _card(game: BloopsGame, card: Card) -> dict[str, Any]:
    return {"card": _IDS[card.number], "value": card.value}


def state(game: BloopsGame) -> dict[str, Any]:
    table, names = game.table, game.names
    drawn = table.drawn
    name_of = names.__getitem__
    return {
        "turn": game.turn,
        "current": None if game.current is None else names[game.current],
        "places": {name: [{"place": number, "row": _ROWS.get(number, "extra"),
                           "card": _IDS[c.number], "value": c.value,
                           "seen_by": list(map(name_of, sorted(c.seen))),
                           "set": None if c.pool is None else c.pool.label}
                          for number, c in table.places[p].items()]
                   for p, name in enumerate(names)},
        "drawn": None if drawn is None else {"player": names[turn_player(game)],
                                             **_card(game, drawn)},
        "pile": list(_IDS[table.next_card:]),
        "discard": [{"card": _IDS[c.number], "value": c.value, "by": names[who]}
                    for c, who in table.discard],
        "bloops": None if game.holder is None else names[game.holder],
        "pending": [{"value": e.value, "effect": EFFECTS[e.value], "player": names[e.owner]}
                    for e in table.pending],
        "counter": table.top_value() if game.counter_open and game.ended_by is None else None,
        "final_turns_left": game.final_left,
        "ended_by": game.ended_by,
    }


def _add(game: BloopsGame, kind: str, note: Msg, data: dict[str, Any], *,
         in_turn: bool = True) -> None:
    game.rec.add(kind, round=None, turn=game.event_turn if in_turn else None, note=note,
                 data=data, state=state(game))


def deal(game: BloopsGame) -> None:
    known = sum(c.value is not None for places in game.table.places for c in places.values())
    note = msg("bloops.note.deal", names=list(game.names), pile=game.table.pile_left,
               known=msg("bloops.note.deal-known", known=known) if known
               else msg("bloops.note.full-stop"))
    _add(game, "deal", note, {"deck": None if game.limits is None else
                              {str(v): n for v, n in sorted(game.limits.items())}})


def draw(game: BloopsGame, who: int, card: Card) -> None:
    name = game.names[who]
    last = msg("bloops.note.last-turn") if game.final_left is not None else ""
    seen = _a(card.value) if card.value is not None else msg("bloops.a-card")
    _add(game, "draw", msg("bloops.note.draw", turn=game.turn, name=name, card=seen, last=last),
         {"player": name, **_card(game, card), "last_turn": game.final_left is not None})


def _consequence(game: BloopsGame, who: int, card: Card) -> tuple[Msg | str, str | None]:
    value = card.value
    if value == TWENTY:
        return msg("bloops.note.twenty"), None
    effect = None if value is None else EFFECTS.get(value)
    if effect is None:
        return "", None
    return msg("bloops.note.effect", name=game.names[who],
               effect=msg(f"bloops.effect-words.{effect}")), effect


def discard(game: BloopsGame, who: int, card: Card) -> None:
    name = game.names[who]
    tail, effect = _consequence(game, who, card)
    _add(game, "discard", msg("bloops.note.discard", name=name, value=card.value, tail=tail),
         {"player": name, **_card(game, card), "effect": effect,
          "ends_game": card.value == TWENTY})


def keep(game: BloopsGame, who: int, card: Card, old: Card, place: int) -> None:
    name = game.names[who]
    tail, effect = _consequence(game, who, old)
    kept = (msg("bloops.note.kept-card") if card.value is None
            else msg("bloops.note.kept-value", value=card.value))
    _add(game, "keep", msg("bloops.note.keep", name=name, kept=kept, place=_place(place),
                           old=old.value,
                           tail=tail),
         {"player": name, "place": place, "kept": _card(game, card),
          "discarded": _card(game, old), "effect": effect, "ends_game": old.value == TWENTY})


def counter(game: BloopsGame, who: int, card: Card, place: int, top: int | None,
            penalty_place: int | None) -> None:
    name = game.names[who]
    data = {"player": name, "place": place, **_card(game, card), "matches": top,
            "right": penalty_place is None and card.value == top, "penalty_place": penalty_place}
    if card.value == top:
        tail, effect = _consequence(game, who, card)
        note = msg("bloops.note.counter", name=name, value=card.value, place=_place(place),
                   tail=tail)
        data["effect"] = effect
    else:
        if penalty_place is None:
            rest = msg("bloops.note.counter-no-penalty")
        else:
            extra = game.table.places[who][penalty_place]
            seen = "" if extra.value is None else msg("bloops.note.seen", card=_a(extra.value))
            rest = msg("bloops.note.counter-penalty", name=name, seen=seen,
                       place=_place(penalty_place))
        note = msg("bloops.note.counter-wrong", name=name, card=_a(card.value), place=_place(place),
                   top=_a(top), value=card.value, rest=rest)
        data["effect"] = None
        data["penalty"] = None if penalty_place is None else _card(
            game, game.table.places[who][penalty_place])
    _add(game, "counter", note, data)


def give(game: BloopsGame, effect: Pending, target: int, card: Card, place: int) -> None:
    name, other = game.names[effect.owner], game.names[target]
    seen = "" if card.value is None else msg("bloops.note.it-is", card=_a(card.value))
    _add(game, "give", msg("bloops.note.give", name=name, other=other, place=_place(place),
                           seen=seen),
         {"player": name, "effect_of": effect.value, "target": other, "place": place,
          **_card(game, card)})


def look(game: BloopsGame, effect: Pending, target: int, card: Card, place: int) -> None:
    name, other = game.names[effect.owner], game.names[target]
    seen = "" if card.value is None else msg("bloops.note.look-seen", card=_a(card.value))
    note = (msg("bloops.note.look-own", name=name, value=effect.value, place=_place(place),
                seen=seen)
            if target == effect.owner else
            msg("bloops.note.look-other", name=name, value=effect.value, other=other,
                place=_place(place), seen=seen))
    _add(game, "look", note,
         {"player": name, "effect_of": effect.value, "target": other, "place": place,
          **_card(game, card)})


def swap(game: BloopsGame, effect: Pending, place: int, target: int, other_place: int) -> None:
    name, other = game.names[effect.owner], game.names[target]
    _add(game, "swap", msg("bloops.note.swap", name=name, place=_place(place), other=other,
                           other_place=_place(other_place)),
         {"player": name, "effect_of": effect.value, "place": place, "target": other,
          "target_place": other_place})


def effect_lost(game: BloopsGame, effect: Pending, why: Msg) -> None:
    name = game.names[effect.owner]
    _add(game, "effect-lost", msg("bloops.note.effect-lost", name=name, value=effect.value,
                                  why=why),
         {"player": name, "effect_of": effect.value, "effect": EFFECTS[effect.value],
          "reason": why})


def set_values(pool: Pool) -> Msg:
    """What a set may still hold, for a message: "which holds a 5, a 7 and 2 unseen cards"."""
    values: list[Msg] = [_a(v) for v in sorted(pool.leftover().elements())]
    if pool.free():
        values.append(msg("bloops.unseen-cards", count=pool.free()))
    return msg("bloops.set-holds", values=values) if values else msg("bloops.set-empty")


def rearrange(game: BloopsGame, who: int, order: list[int] | None) -> None:
    name = game.names[who]
    cards = game.table.places[who]
    data: dict[str, Any]
    if order is None:
        pool = next((c.pool for c in cards.values() if c.pool is not None), None)
        detail = (msg("bloops.note.rearrange-set", set=pool.label, values=set_values(pool))
                  if pool else msg("bloops.note.full-stop"))
        note = msg("bloops.note.rearrange-unseen", name=name, detail=detail)
        data = {"player": name, "order": None, "set": None if pool is None else pool.label}
    else:
        moves = [msg("bloops.note.move", new=_place(new), old=_place(old))
                 for new, old in zip(sorted(cards), order) if new != old]
        note = msg("bloops.note.rearrange", name=name,
                   moves=moves or msg("bloops.note.nothing-moves"))
        data = {"player": name, "order": order, "set": None}
    _add(game, "rearrange", note, data)


def bloops(game: BloopsGame, who: int) -> None:
    name = game.names[who]
    _add(game, "bloops", msg("bloops.note.bloops", name=name), {"player": name})


def reveal(game: BloopsGame) -> None:
    _add(game, "reveal", msg("bloops.note.reveal"), {}, in_turn=False)


def game_end(game: BloopsGame, outcome: dict[str, Any]) -> None:
    ended = outcome["ended_by"]
    why = (msg("bloops.end.bloops", name=outcome["bloops"]) if ended == "bloops"
           else msg(f"bloops.end.{ended}"))
    winners = outcome["winners"]
    if winners is None:
        result = msg("bloops.end.unknown")
    else:
        best = outcome["scores"][winners[0]]
        points = (msg("bloops.end.whatever") if best is None
                  else msg("bloops.end.points", points=best))
        result = (msg("bloops.end.shared", winners=list(winners), points=points)
                  if len(winners) > 1 else msg("bloops.end.wins", name=winners[0], points=points))
    scores = {n: "?" if s is None else s for n, s in outcome["scores"].items()}
    _add(game, "game-end", msg("bloops.note.end", why=why, result=result, scores=scores),
         {"outcome": outcome}, in_turn=False)


def violation(game: BloopsGame, error: dict[str, Any]) -> None:
    note = msg("core.illegal", message=error["message"])
    game.rec.add("violation", round=None, turn=error["turn"], note=note, data={"error": error},
                 state=state(game) if game.dealt else None)

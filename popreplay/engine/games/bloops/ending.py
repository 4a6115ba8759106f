"""The outcome of a Bloops game: what every possible value of its unseen cards agrees on.

When every card in front of a player is known, the outcome is read off the table. Otherwise each
player's end is a :class:`certainty.Hand` (the values certainly in front of them and their unseen
cards), and a place, a score, a star count or the winners are given only when they are the same for
every choice of the unseen values (``docs/rules/bloops.md``, *Hidden cards*).
"""

from __future__ import annotations

from typing import Any

from ...messages import msg
from . import certainty
from . import messages as _messages  # noqa: F401  (defines the English)
from .messages import place
from .cards import STARS, TWENTY
from .cards import score as score_of
from .table import BloopsGame, Card, Pool

View = dict[int, "set[int] | int"]  # place -> its value, or the values it may still have


def _seen(card: Card) -> int:
    assert card.value is not None, "a card in front of a player is not known"
    return card.value


def seen_outcome(game: BloopsGame) -> dict[str, Any]:
    """The outcome of a finished game whose every card in front of a player is known."""
    places, stars, scores = {}, {}, {}
    for name, cards in zip(game.names, game.table.places):
        values = [_seen(card) for _, card in sorted(cards.items())]
        places[name] = {str(number): card.value for number, card in sorted(cards.items())}
        stars[name] = sum(1 for v in values if v in STARS)
        scores[name] = score_of(values)
    best = min(scores.values())
    winners = [name for name in game.names if scores[name] == best]
    return {"ended_by": game.ended_by, "bloops": None if game.holder is None else
            game.names[game.holder], "turns": game.turn, "places": places, "stars": stars,
            "scores": scores, "winners": winners, "shared": len(winners) > 1, "notes": []}


def player_hands(game: BloopsGame) -> tuple[dict[str, View], dict[str, certainty.Hand | None]]:
    """Per player: each place's value (or the values it may still have), and the hand the
    scores are reckoned from (``None`` when a set is spread over several players)."""
    budget = certainty.budget_of(game.known, game.limits, TWENTY)
    free = set(budget)
    holders: dict[int, set[int]] = {}  # id of a set -> players holding its unseen cards
    pools: dict[int, Pool] = {}
    for p, places in enumerate(game.table.places):
        for card in places.values():
            if card.pool is not None and card.value is None:
                holders.setdefault(id(card.pool), set()).add(p)
                pools[id(card.pool)] = card.pool
    views: dict[str, View] = {}
    hands: dict[str, certainty.Hand | None] = {}
    for p, name in enumerate(game.names):
        fixed: list[int] = []
        unseen = 0
        view: View = {}
        for number, card in sorted(game.table.places[p].items()):
            if card.value is not None:
                view[number] = card.value
                fixed.append(card.value)
            elif card.pool is None:
                view[number] = free
                unseen += 1
            else:
                pool = card.pool
                view[number] = set(pool.leftover()) | (free if pool.free() else set())
        spread = False
        for key, players in holders.items():
            if p in players and len(players) > 1:
                spread = True
            elif p in players:
                fixed.extend(pools[key].leftover().elements())
                unseen += pools[key].free()
        views[name] = view
        hands[name] = None if spread else certainty.Hand(tuple(fixed), unseen)
    return views, hands


def outcome(game: BloopsGame, status: str) -> dict[str, Any]:
    complete = status == "complete"
    names = game.names
    if complete and all(card.value is not None for places in game.table.places
                        for card in places.values()):
        return seen_outcome(game)
    views, hands = player_hands(game)
    budget = certainty.budget_of(game.known, game.limits, TWENTY)
    places = {name: {str(number): (seen if isinstance(seen, int) else
                                   next(iter(seen)) if len(seen) == 1 else None)
                     for number, seen in views[name].items()} for name in names}
    stars: dict[str, int | None] = {}
    scores: dict[str, int | None] = {}
    remarks: list[str] = []
    for name in names:
        hand = hands[name]
        stars[name] = scores[name] = None
        if not complete:
            continue
        if hand is not None:
            low, high = certainty.star_range(hand, budget)
            stars[name] = low if low == high else None
            low, high = certainty.score_range(hand, budget)
            scores[name] = low if low == high else None
        if scores[name] is None:
            unknown = [k for k, v in places[name].items() if v is None]
            remarks.append(msg("bloops.remark.score-unknown", name=name,
                               places=[place(int(k)) for k in unknown]))
    winners = shared = None
    if not complete:
        remarks.append(msg("bloops.remark.not-over"))
    elif all(hand is not None for hand in hands.values()):
        winners = certainty.certain_winners(hands, budget)  # type: ignore[arg-type]
    if complete and winners is None:
        remarks.append(msg("bloops.remark.winners-unknown"))
    elif complete and winners is not None and any(score is None for score in scores.values()):
        remarks.append(msg("bloops.remark.winners-certain", winners=list(winners)))
    if winners is not None:
        shared = len(winners) > 1
    return {
        "ended_by": game.ended_by if complete else None,
        "bloops": None if game.holder is None else names[game.holder],
        "turns": game.turn,
        "places": places,
        "stars": stars,
        "scores": scores,
        "winners": winners,
        "shared": shared,
        "notes": remarks,
    }

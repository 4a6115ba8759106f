"""What the end of a Bloops game is certain to be, over every possible value of the unseen cards.

A log with unseen cards stands for every deal that agrees with it. The values still free form a
*budget*: how many cards of each value are not yet accounted for (a declared deck's count minus the
cards certainly used; without a declared deck, any value, and the 20 only while it is unseen). Each
player's end is a *hand*: the values certainly in front of them plus a number of unseen cards, each
of which may take any value of the budget.

A score, a star count or the winners are given when they are the same for every choice of those
values (``docs/rules/bloops.md``, *Scores*). For two hands taking opposite sides (one as high as
possible, the other as low), the best choice is found exactly: fix how many stars each takes; the
high hand then takes the highest other values and the lowest star values are left to the low hand,
from opposite ends of the same budget (an exchange argument shows nothing better exists).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from .cards import HIGHEST, LOWEST, STARS, STARS_NEEDED, score

PLENTY = 64  # copies of a value when the deck is not declared: never the limit


@dataclass(frozen=True, slots=True)
class Hand:
    fixed: tuple[int, ...]  # values certainly in front of the player
    unseen: int  # cards whose value is one of the budget's

    @property
    def stars(self) -> int:
        return sum(1 for v in self.fixed if v in STARS)

    @property
    def plain_sum(self) -> int:
        return sum(v for v in self.fixed if v not in STARS)

    @property
    def star_sum(self) -> int:
        return sum(v for v in self.fixed if v in STARS)


def budget_of(used: Counter[int], limits: dict[int, int] | None, twenty: int) -> Counter[int]:
    """Cards of each value not yet accounted for."""
    if limits is not None:
        return Counter({v: limits.get(v, 0) - used[v] for v in range(LOWEST, HIGHEST + 1)
                        if limits.get(v, 0) > used[v]})
    free = Counter({v: PLENTY for v in range(LOWEST, HIGHEST + 1) if v != twenty})
    if used[twenty] == 0:
        free[twenty] = 1
    return free


def _take(budget: list[int], count: int, *, top: bool) -> int:
    """Sum of the ``count`` highest (or lowest) values of a sorted budget, given as counts."""
    total, values = 0, range(len(budget) - 1, -1, -1) if top else range(len(budget))
    for value in values:
        if count <= 0:
            break
        n = min(count, budget[value])
        total += n * value
        count -= n
    return total


def _counts(budget: Counter[int], stars: bool) -> list[int]:
    return [budget[v] if (v in STARS) == stars else 0 for v in range(HIGHEST + 1)]


def best(sides: list[tuple[Hand, int]], budget: Counter[int]) -> int:
    """The largest value of ``sign × score`` summed over one or two hands of opposite signs."""
    plain, star = _counts(budget, False), _counts(budget, True)
    plain_total, star_total = sum(plain), sum(star)
    result: int | None = None
    ranges = [range(min(hand.unseen, star_total) + 1) for hand, _ in sides]
    for chosen in _product(ranges):
        if sum(chosen) > star_total:
            continue
        if sum(hand.unseen - s for (hand, _), s in zip(sides, chosen)) > plain_total:
            continue
        value = 0
        for (hand, sign), s in zip(sides, chosen):
            top = sign > 0
            score = hand.plain_sum + _take(plain, hand.unseen - s, top=top)
            if hand.stars + s < STARS_NEEDED:
                score += hand.star_sum + _take(star, s, top=top)
            value += sign * score
        result = value if result is None else max(result, value)
    if result is None:
        raise ValueError("no value of the unseen cards fits the budget")
    return result


def _product(ranges: list[range]) -> Iterable[tuple[int, ...]]:
    if not ranges:
        yield ()
        return
    for first in ranges[0]:
        for rest in _product(ranges[1:]):
            yield (first, *rest)


def score_range(hand: Hand, budget: Counter[int]) -> tuple[int, int]:
    if not hand.unseen:
        known = score(list(hand.fixed))
        return known, known
    return -best([(hand, -1)], budget), best([(hand, 1)], budget)


def star_range(hand: Hand, budget: Counter[int]) -> tuple[int, int]:
    stars = sum(budget[v] for v in STARS)
    plain = sum(budget.values()) - stars
    return hand.stars + max(0, hand.unseen - plain), hand.stars + min(hand.unseen, stars)


def certain_winners(hands: dict[str, Hand], budget: Counter[int]) -> list[str] | None:
    """The players who win whatever the unseen cards are, or ``None`` when that depends on them.

    The winners are certain exactly when some players score no more than anyone in every case
    (they always win, and always tie with each other) and everyone else always scores more."""
    names = list(hands)
    if not any(hand.unseen for hand in hands.values()):
        scores = {name: score(list(hand.fixed)) for name, hand in hands.items()}
        low = min(scores.values())
        return [name for name in names if scores[name] == low]

    def most_above(a: str, b: str) -> int:  # the largest score(a) - score(b)
        return best([(hands[a], 1), (hands[b], -1)], budget)

    always = [a for a in names if all(most_above(a, b) <= 0 for b in names if b != a)]
    if not always:
        return None
    if any(most_above(always[0], other) >= 0 for other in names if other not in always):
        return None
    return always

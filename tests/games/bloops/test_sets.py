"""A set's counts are exactly the bipartite matching of its places to its cards (Hall's condition).

After an unseen rearrangement the engine keeps, per set, the values of its known cards, how many are
unseen and the values its places showed (``Pool``). It accepts a shown value while, for every value,
the places showing it beyond the known cards with it fit in the unseen cards. Here that rule is
checked against a real matching (augmenting paths) on random sets.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from popreplay.engine.games.bloops.table import Pool

VALUES = range(6)


def matching_exists(known: list[int], unknown: int, shown: list[int | None]) -> bool:
    """Every place gets its own card: a card known as v, or unseen, for a place that showed v."""
    cards: list[int | None] = [*known, *([None] * unknown)]
    assert len(cards) == len(shown)
    owner: dict[int, int] = {}  # card -> place

    def augment(place: int, visited: set[int]) -> bool:
        for card, value in enumerate(cards):
            if card in visited or not (shown[place] is None or value in (None, shown[place])):
                continue
            visited.add(card)
            if card not in owner or augment(owner[card], visited):
                owner[card] = place
                return True
        return False

    return all(augment(place, set()) for place in range(len(shown)))


def random_set(seed: int) -> tuple[list[int], int, list[int | None]]:
    rng = random.Random(seed)
    size = rng.randint(1, 7)
    unknown = rng.randint(0, size)
    known = [rng.choice(VALUES) for _ in range(size - unknown)]
    shown = [rng.choice([None, *VALUES]) if rng.random() < 0.7 else None for _ in range(size)]
    return known, unknown, shown


@pytest.mark.parametrize("seed", range(400))
def test_the_counts_agree_with_a_matching(seed):
    known, unknown, shown = random_set(seed)
    pool = Pool("test", known=Counter(known), unknown=unknown,
                shown=Counter(v for v in shown if v is not None))
    assert (pool.free() >= 0) == matching_exists(known, unknown, shown)


def test_both_answers_occur():
    assert {matching_exists(*random_set(seed)) for seed in range(400)} == {True, False}

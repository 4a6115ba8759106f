"""The places of the cube engine's picture (:mod:`.knowledge`): a hand's known cards and hidden
slots, each slot's group and mask of categories (one bit per category), and what every replay of
a deck starts from."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .cards import COLOUR, CUBE, GAME, TIMER, category, kind

BIT = {CUBE: 1, COLOUR: 2, GAME: 4, TIMER: 8}
ALL = 15
CATEGORY_BITS = (1, 2, 4, 8)


_BITS = tuple(bin(mask).count("1") for mask in range(16))


def bits(mask: int) -> int:
    return _BITS[mask]


@lru_cache(maxsize=8)
def start(cards: tuple[str, ...]) -> tuple:
    """What every replay of this deck starts from (copied by :class:`Knowledge`): the cards, their
    order, the ids by kind, each kind's category bit, and the kinds counted by category."""
    free: dict[str, list[str]] = {}
    for card in cards:
        free.setdefault(kind(card), []).append(card)
    bit = {token: BIT[category(token)] for token in free}
    by_category = [0] * 16
    for token, ids in free.items():
        by_category[bit[token]] += len(ids)
    return (frozenset(cards), {card: index for index, card in enumerate(cards)}, free, bit,
            tuple(by_category))


@dataclass(slots=True)
class Slot:
    id: str
    group: int
    mask: int = ALL


@dataclass(slots=True, eq=False)
class Hand:
    index: int = 0
    known: list[str] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)

    def size(self) -> int:
        return len(self.known) + len(self.slots)

    def entries(self) -> list[str]:
        return [*self.known, *(slot.id for slot in self.slots)]

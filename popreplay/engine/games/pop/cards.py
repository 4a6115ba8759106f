"""The 50 Pop cards: colour, Arrow symbol and Explosion icons (``spec/pop.md`` section 1)."""

from __future__ import annotations

from typing import Iterable, cast

FIRST_CARD = 1
LAST_CARD = 50
DECK = tuple(range(FIRST_CARD, LAST_CARD + 1))
QUEUES = "ABCDE"


def is_card(number: int) -> bool:
    return FIRST_CARD <= number <= LAST_CARD


def colour(number: int) -> int:
    """Colour 0–4 is ``number mod 5``; the rulebook does not name the colours."""
    return number % 5


def has_arrow(number: int) -> bool:
    return number <= 10 or number >= 41


def icons(number: int) -> int:
    if number <= 5 or number >= 46:
        return 3
    if 16 <= number <= 20 or 31 <= number <= 35:
        return 2
    return 1


# Lookup tables indexed by card number, for the hot loop (index 0 is unused: no card 0 is ever
# looked up, so COLOUR's None there is typed away).
COLOUR = cast("tuple[int, ...]", (None, *(colour(n) for n in DECK)))
ICONS = (0, *(icons(n) for n in DECK))
ARROW = (False, *(has_arrow(n) for n in DECK))


def icon_total(cards: Iterable[int]) -> int:
    return sum(ICONS[card] for card in cards)

"""The 102 cards of the Rainbow/Shadow deck used by slap: six colours, values 0–16, each card once.

A card is written ``"<colour>-<value>"`` in logs and results, e.g. ``"red-7"``, ``"rainbow-12"``,
``"shadow-0"``. Unknown cards (hidden information) are slot ids ``"?1"``, ``"?2"``…
"""

from __future__ import annotations

COLOURS = ("red", "blue", "green", "yellow", "rainbow", "shadow")
VALUES = tuple(range(17))
DECK = tuple(f"{colour}-{value}" for colour in COLOURS for value in VALUES)
DECK_SIZE = len(DECK)  # 102

RAINBOW = "rainbow"
SHADOW = "shadow"
CHALLENGE_VALUES = range(1, 6)  # a flipped 1–5 sets (or passes) a challenge of that many cards

_PARTS: dict[str, tuple[str, int]] = {
    f"{colour}-{value}": (colour, value) for colour in COLOURS for value in VALUES
}


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in _PARTS


def colour(card: str) -> str:
    return _PARTS[card][0]


def value(card: str) -> int:
    return _PARTS[card][1]


def challenge_size(card: str) -> int:
    """How many cards the next player must flip after this one: 1–5, else 0 (no challenge)."""
    number = _PARTS[card][1]
    return number if number in CHALLENGE_VALUES else 0

"""The Bloops deck: 64 numbered cards valued 0–20 and the Bloops card (``docs/rules/bloops.md``).

The rulebook gives no count per value. Known for certain: values are 0–20, the 20 is unique, the
stars are 10, 11 and 12, the effects are on 6–9. A log may declare its deck (a count per value);
only then are the other counts checked.
"""

from __future__ import annotations

NUMBERED = 64  # numbered cards in the box (the Bloops card is apart)
LOWEST, HIGHEST = 0, 20
TWENTY = 20
STARS = frozenset((10, 11, 12))
STARS_NEEDED = 3  # a player with this many stars or more scores them 0
GIVE, LOOK, SWAP = "give", "look", "swap"
EFFECTS = {6: GIVE, 7: LOOK, 8: LOOK, 9: SWAP}  # card value -> the event that carries it out
DEAL = 6  # cards dealt to each player: two rows of three
TOP_ROW = (1, 2, 3)  # places of the top row (never seen)
BOTTOM_ROW = (4, 5, 6)  # places of the bottom row (seen once by their owner)
BLOOPS_CARD = "bloops"  # the id of the Bloops card in zones

# The deck the simulator declares: every value 0–19 three times, three more 0s, one 20.
SIMULATED_DECK = {str(v): (6 if v == 0 else 1 if v == TWENTY else 3) for v in range(21)}


def is_value(value: int) -> bool:
    return LOWEST <= value <= HIGHEST


def card_id(number: int) -> str:
    """The id of the n-th numbered card, in dealing order (then the pile, top first)."""
    return f"#{number}"


def row_of(place: int) -> str:
    if place in TOP_ROW:
        return "top"
    if place in BOTTOM_ROW:
        return "bottom"
    return "extra"


def score(values: list[int]) -> int:
    """Sum of the values; 3 stars or more score 0."""
    stars = sum(1 for v in values if v in STARS)
    if stars >= STARS_NEEDED:
        return sum(v for v in values if v not in STARS)
    return sum(values)

"""What is on the table during a slap game: the players' face-down piles, the central pile, the
Folies pile, the slap window of the last flipped card and the running challenge.

A pile is a deque of entries, top first; an entry is a card id (``"red-7"``) or, when the log does
not know the card yet, a slot id (``"?4"``). The central and Folies piles are lists, bottom first.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .cards import RAINBOW, SHADOW, colour, value

SAME_VALUE = "same-value"
THREE_OF_A_COLOUR = "three-of-a-colour"
SHADOW_ON_SHADOW = "shadow-on-shadow"
RAINBOW_ON_SHADOW = "rainbow-on-shadow"
LONE_RAINBOW = "lone-rainbow"
SHADOW_TRAP = "shadow-trap"  # not a condition: the trap is a shadow that gives no reason to slap

CENTRAL, FOLIES = "central", "folies"
PILE_OF = {SAME_VALUE: CENTRAL, THREE_OF_A_COLOUR: CENTRAL, SHADOW_ON_SHADOW: CENTRAL,
           LONE_RAINBOW: CENTRAL, RAINBOW_ON_SHADOW: FOLIES}
REWARDING = (SAME_VALUE, THREE_OF_A_COLOUR, SHADOW_ON_SHADOW, RAINBOW_ON_SHADOW)
WINS_CENTRAL = (SAME_VALUE, THREE_OF_A_COLOUR)


def conditions(central: list[str]) -> tuple[str, ...]:
    """The slap conditions the top card of the central pile makes, in the rulebook's order."""
    top = central[-1]
    under = central[-2] if len(central) >= 2 else None
    third = central[-3] if len(central) >= 3 else None
    top_colour = colour(top)
    on_shadow = under is not None and colour(under) == SHADOW
    if top_colour == SHADOW and not on_shadow:
        return (SHADOW_TRAP,)  # the trap is absolute: no other condition, even a same value
    found: list[str] = []
    if under is not None and value(top) == value(under):
        found.append(SAME_VALUE)
    if third is not None and top_colour == colour(under) == colour(third):
        found.append(THREE_OF_A_COLOUR)
    if top_colour == SHADOW:
        found.append(SHADOW_ON_SHADOW)
    if top_colour == RAINBOW:
        found.append(RAINBOW_ON_SHADOW if on_shadow else LONE_RAINBOW)
    return tuple(found)


@dataclass(slots=True)
class Window:
    """The time between one flip and the next: slaps are judged against this card."""

    card: str
    flipper: int
    round: int
    turn: int
    conditions: tuple[str, ...]
    won_by: int | None = None
    claimed: bool = False  # won by a missed slap claimed one card later
    slapped: list[int] = field(default_factory=list)  # who slapped a lone rainbow, in order
    closed: bool = False
    taken: bool = False  # the central pile holding this card has been taken

    def on(self, pile: str) -> tuple[str, ...]:
        return tuple(c for c in self.conditions if PILE_OF.get(c) == pile)

    @property
    def rewarding(self) -> tuple[str, ...]:
        return tuple(c for c in self.conditions if c in REWARDING)


@dataclass(slots=True)
class Challenge:
    setter: int  # who flipped the 1–5 and takes the pile if no 1–5 answers it
    player: int | None  # who must flip (None: nobody holds a card to answer it)
    size: int
    left: int


@dataclass(slots=True)
class Table:
    piles: list[deque[str]]
    central: list[str] = field(default_factory=list)
    folies: list[str] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)  # positions, in order of elimination

    @property
    def players(self) -> int:
        return len(self.piles)

    def is_in(self, position: int) -> bool:
        return position not in self.eliminated

    def waiting(self, position: int) -> bool:
        """Out of cards but not eliminated: on their last chance."""
        return not self.piles[position] and self.is_in(position)

    def still_in(self) -> list[int]:
        return [p for p in range(self.players) if self.is_in(p)]

    def next_with_cards(self, start: int, *, exclude: int | None = None) -> int | None:
        """The first player from ``start`` on (in player order, wrapping) who holds a card."""
        for k in range(self.players):
            position = (start + k) % self.players
            if position != exclude and self.piles[position]:
                return position
        return None

    def pay(self, position: int, count: int) -> list[str]:
        """Up to ``count`` cards from the top of a pile onto the Folies pile, face up."""
        pile = self.piles[position]
        paid = [pile.popleft() for _ in range(min(count, len(pile)))]
        self.folies.extend(paid)
        return paid

    def take_central(self, position: int) -> list[str]:
        """The central pile, turned face down, goes under the pile: the first flipped card first."""
        cards, self.central = self.central, []
        self.piles[position].extend(cards)
        return cards

    def take_folies(self, position: int) -> list[str]:
        cards, self.folies = self.folies, []
        self.piles[position].extend(cards)
        return cards

    def take_one_from_each(self, position: int) -> list[str]:
        """Shadow on shadow: the top card of every other player's pile, in player order after
        the winner, goes under the winner's pile."""
        taken = []
        for k in range(1, self.players):
            other = self.piles[(position + k) % self.players]
            if other:
                taken.append(other.popleft())
        self.piles[position].extend(taken)
        return taken

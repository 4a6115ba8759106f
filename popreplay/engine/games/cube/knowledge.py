"""Where every card is, as far as the log tells: hands with hidden slots, the piles, the pool.

A card whose identity the log has not given is a *slot* (``"?7"``) in a hand. The *pool* is every
card whose place is not known: it is in the unknown part of the draw pile or behind a hidden slot.
The invariant ``len(pool) == pile_unknown + hidden slots`` always holds, so a revealed identity is
possible exactly when the card is in the pool (or known to be where the log says). The engine never
invents a card: when a hidden card leaves a hand that also holds known candidates, those candidates
become hidden again (the engine forgets rather than guesses).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(slots=True)
class Hand:
    known: list[str] = field(default_factory=list)
    slots: list[str] = field(default_factory=list)

    def size(self) -> int:
        return len(self.known) + len(self.slots)

    def entries(self) -> list[str]:
        return [*self.known, *self.slots]


class Knowledge:
    def __init__(self, cards: tuple[str, ...], players: int) -> None:
        self.cards = frozenset(cards)
        self.pool: set[str] = set(cards)
        self.pile_known: set[str] = set()  # cards known to be in the pile (after a reshuffle)
        self.pile_unknown = len(cards)
        self.left: list[str] = []  # played GAME cards (and DNF), bottom to top
        self.right: list[str] = []  # surplus, duplicates, removed Personal Bests
        self.hands = [Hand() for _ in range(players)]
        self._slot = 0

    # --- counts ----------------------------------------------------------------------------------

    def pile_size(self) -> int:
        return len(self.pile_known) + self.pile_unknown

    def hidden(self) -> int:
        return sum(len(hand.slots) for hand in self.hands)

    def new_slot(self) -> str:
        self._slot += 1
        return f"?{self._slot}"

    # --- the draw pile ---------------------------------------------------------------------------

    def reshuffle(self) -> list[str]:
        """Both discards become the new draw pile (known as a set, not in order)."""
        cards = self.left + self.right
        self.pile_known.update(cards)
        self.left, self.right = [], []
        return cards

    def draw(self, hand: Hand, card: str | None) -> bool:
        """Draw one card (``None``: identity not given). False if ``card`` cannot be in the pile."""
        if card is None:
            if self.pile_known:  # which card left the pile is not known: forget the pile's set
                self.pool.update(self.pile_known)
                self.pile_unknown += len(self.pile_known)
                self.pile_known.clear()
            self.pile_unknown -= 1
            hand.slots.append(self.new_slot())
            return True
        if card in self.pile_known:
            self.pile_known.remove(card)
        elif card in self.pool and self.pile_unknown > 0:
            self.pool.remove(card)
            self.pile_unknown -= 1
        else:
            return False
        hand.known.append(card)
        return True

    # --- hands -----------------------------------------------------------------------------------

    def remove(self, hand: Hand, card: str) -> bool:
        """Take a named card out of a hand: a known card, or one of its hidden slots."""
        if card in hand.known:
            hand.known.remove(card)
            return True
        if card in self.pool and hand.slots:
            self.pool.remove(card)
            hand.slots.pop(0)
            return True
        return False

    def reveal(self, hand: Hand, card: str) -> bool:
        """The hand shows ``card`` and keeps it."""
        if card in hand.known:
            return True
        if self.remove(hand, card):
            hand.known.append(card)
            return True
        return False

    def take_hidden(self, hand: Hand, could_be: Callable[[str], bool]) -> str | None:
        """Take an unnamed card out of a hand; the slot id it leaves with, or None if impossible.

        If a known card of the hand could be the one taken, every such card becomes hidden first.
        """
        candidates = [c for c in hand.known if could_be(c)]
        for card in candidates:
            hand.known.remove(card)
            self.pool.add(card)
            hand.slots.append(self.new_slot())
        return hand.slots.pop(0) if hand.slots else None

    def locate(self, card: str, names: list[str], tables: list) -> str:
        """Where a known card is, in words (for messages)."""
        for name, hand in zip(names, self.hands):
            if card in hand.known:
                return f"in {name}'s hand"
        for name, table in zip(names, tables):
            if card in table.cards():
                return f"on {name}'s table"
        if card in self.left:
            return "in the left discard"
        if card in self.right:
            return "in the right discard"
        if card in self.pile_known:
            return "in the draw pile"
        return "not there: it can only be one of the hidden cards"

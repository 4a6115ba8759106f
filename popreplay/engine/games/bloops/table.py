"""What the table holds during a Bloops game: the cards as slots whose value may be unknown.

Every numbered card that leaves the box gets a number in order (the deal, player by player, place
1 to 6, then the pile from the top), so the top card of the pile is always the card with the next
number. A card's ``value`` is ``None`` until the log reveals it; once known it never changes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from ...replay import StepRecorder

from .cards import NUMBERED


@dataclass(slots=True, eq=False)
class Card:
    """A numbered card on the table. In a :class:`Pool` it stands for "one of the pool's cards":
    ``value`` is then the value seen at its place since the cards were mixed, and ``number`` only
    a label for the viewer."""

    number: int  # 1..64, the order in which it left the box
    value: int | None = None
    seen: set[int] = field(default_factory=set)  # positions of the players who looked at it
    pool: Pool | None = None


@dataclass(slots=True, eq=False)
class Pool:
    """Cards a player rearranged unseen: known only as a set until each is seen again.

    The set's values are ``known`` (values known before the mixing) plus ``unknown`` cards never
    seen; ``shown`` counts the values seen at its places since. Which card is at which place is
    unknown, so a value seen at a place needs a card of that value in the set, or an unknown one
    (``docs/rules/bloops.md``, *Hidden cards*).
    """

    label: str  # "Ana's set 1", for notes and the viewer
    members: list[Card] = field(default_factory=list)  # the cards standing for the set's cards
    known: Counter[int] = field(default_factory=Counter)
    unknown: int = 0
    shown: Counter[int] = field(default_factory=Counter)

    def forced(self, value: int) -> int:
        """Unknown cards that must have ``value``: more places show it than known cards have it."""
        return max(0, self.shown[value] - self.known[value])

    def forced_total(self) -> int:
        return sum(self.forced(value) for value in self.shown)

    def leftover(self) -> Counter[int]:
        """Known values not yet matched by a place that shows them."""
        return Counter({v: n - self.shown[v] for v, n in self.known.items() if n > self.shown[v]})

    def free(self) -> int:
        """Unknown cards not bound to a value by a place that shows it."""
        return self.unknown - self.forced_total()


@dataclass(slots=True)
class Pending:
    """A discarded 6–9 whose effect is still to be carried out by its discarder."""

    value: int
    owner: int
    event: int  # index of the event that discarded it


@dataclass(slots=True)
class Table:
    players: int
    places: list[dict[int, Card]] = field(default_factory=list)  # place number -> card
    next_place: list[int] = field(default_factory=list)
    next_card: int = 1
    drawn: Card | None = None
    discard: list[tuple[Card, int]] = field(default_factory=list)  # bottom to top, with discarder
    pending: list[Pending] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.places = [{} for _ in range(self.players)]
        self.next_place = [1] * self.players

    @property
    def pile_left(self) -> int:
        return NUMBERED - self.next_card + 1

    def take_from_pile(self) -> Card:
        card = Card(self.next_card)
        self.next_card += 1
        return card

    def add_place(self, position: int, card: Card) -> int:
        place = self.next_place[position]
        self.next_place[position] += 1
        self.places[position][place] = card
        return place

    def anyone_has_cards(self) -> bool:
        return any(self.places)

    def top_value(self) -> int | None:
        return self.discard[-1][0].value if self.discard else None


def turn_player(game: BloopsGame) -> int:
    """The player of the turn begun (``game.current``), where the rules know one has begun: a
    card is drawn, Bloops can be called."""
    current = game.current
    assert current is not None, "no turn has begun"
    return current


class BloopsGame(Protocol):
    """What the notes and the outcome (:mod:`.notes`, :mod:`.ending`) read of the running replay,
    :class:`~.rules.BloopsReplay`, which they do not import (the rules call them)."""

    @property
    def rec(self) -> StepRecorder: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def table(self) -> Table: ...
    @property
    def limits(self) -> dict[int, int] | None: ...
    @property
    def known(self) -> Counter[int]: ...
    @property
    def turn(self) -> int: ...
    @property
    def current(self) -> int | None: ...
    @property
    def counter_open(self) -> bool: ...
    @property
    def holder(self) -> int | None: ...
    @property
    def final_left(self) -> int | None: ...
    @property
    def ended_by(self) -> str | None: ...
    @property
    def dealt(self) -> bool: ...
    @property
    def event_turn(self) -> int | None: ...

"""What is on the table during a slap game: the players' face-down piles, the central pile, the
Folies pile, the slap window of the last flipped card and the running challenge."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol

from .cards import RAINBOW, SHADOW, colour, value
from .hidden import Entry, Hidden

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
    if under is not None and third is not None and top_colour == colour(under) == colour(third):
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


class Watch(Protocol):
    """Told every move of the table before it is made (the simulator's real cards)."""

    def flip(self, position: int, card: str) -> None: ...
    def pay(self, position: int, count: int) -> None: ...
    def win(self, position: int, *, central: bool, others: bool, folies: bool) -> None: ...


class Table:
    """The piles. A player's pile is a deque of entries, top first: a card id when its place is
    certain, or the id of a family of face-down places (``hidden.py``): a dealt card not named, or
    a set of won cards whose order is unknown. ``counts`` holds each pile's number of cards.

    ``watch`` (optional) is told every move before it is made, with the same arguments: the
    simulator keeps the real cards that way (``simulate.py``)."""

    __slots__ = ("piles", "counts", "central", "folies", "eliminated", "hidden", "watch", "labels",
                 "_shown_piles", "_shown_folies", "shown_last")

    def __init__(self, players: int) -> None:
        self.piles: list[deque[Entry]] = [deque() for _ in range(players)]
        self.counts = [0] * players
        self.central: list[str] = []  # bottom first: every card of it was flipped, so is known
        self.folies: list[Entry] = []  # bottom first: cards and one-place families
        self.eliminated: list[int] = []  # positions, in order of elimination
        self.hidden = Hidden()
        self.watch: Watch | None = None
        self.labels: dict[tuple[int, int], list[str]] = {}  # (family, size) -> its places shown
        # what the last step showed of each pile and of the Folies pile (:meth:`shown_pile`),
        # None once the pile has changed: an unchanged pile is the same list at the next step
        self._shown_piles: list[list[str] | None] = [None] * players
        self._shown_folies: list[str] | None = None
        self.shown_last: dict[str, Any] = {}  # the last step's state (``notes.state``)

    @property
    def players(self) -> int:
        return len(self.piles)

    def is_in(self, position: int) -> bool:
        return position not in self.eliminated

    def waiting(self, position: int) -> bool:
        """Out of cards but not eliminated: on their last chance."""
        return not self.counts[position] and self.is_in(position)

    def still_in(self) -> list[int]:
        return [p for p in range(self.players) if self.is_in(p)]

    def next_with_cards(self, start: int, *, exclude: int | None = None) -> int | None:
        """The first player from ``start`` on (in player order, wrapping) who holds a card."""
        for k in range(self.players):
            position = (start + k) % self.players
            if position != exclude and self.counts[position]:
                return position
        return None

    # --- the deal --------------------------------------------------------------------------------

    def deal(self, position: int, entry: Entry) -> None:
        self.piles[position].append(entry)
        self.counts[position] += 1
        self._shown_piles[position] = None

    # --- moves -----------------------------------------------------------------------------------

    def _take(self, position: int) -> Entry:
        """The top card of a pile leaves it unseen: a certain card stays certain; a card of a
        family of several places becomes a family of its own."""
        pile = self.piles[position]
        top = pile[0]
        self.counts[position] -= 1
        if isinstance(top, str) or self.hidden.size[top] == 1:
            self._shown_off_top(position, 1)
            return pile.popleft()
        before = self.hidden.size[top]
        part = self.hidden.split(top)
        self._shown_off_top(position, before, top)
        return part

    def flip(self, position: int, card: str) -> str | None:
        """The top card goes face up onto the central pile. Returns why ``card`` cannot be that
        card (``hidden.py`` codes, or ``"wrong"`` for a certain card that is another), or None."""
        pile = self.piles[position]
        top = pile[0]
        if isinstance(top, str):
            if top != card:
                return "wrong"
            self._shown_off_top(position, 1)
            pile.popleft()
        else:
            before = self.hidden.size[top]
            why = self.hidden.reveal(top, card)
            if why is not None:
                return why
            if top not in self.hidden.size:
                self._shown_off_top(position, 1)
                pile.popleft()
            else:
                self._shown_off_top(position, before, top)
        if self.watch is not None:
            self.watch.flip(position, card)
        self.counts[position] -= 1
        self.central.append(card)
        return None

    def pay(self, position: int, count: int) -> list[Entry]:
        """Up to ``count`` cards from the top of a pile onto the Folies pile, face up (the log
        does not name them)."""
        if self.watch is not None:
            self.watch.pay(position, count)
        paid = [self._take(position) for _ in range(min(count, self.counts[position]))]
        self.folies.extend(paid)
        if self._shown_folies is not None:
            self._shown_folies = self._shown_folies + self.shown(paid)
        return paid

    def win(self, position: int, *, central: bool = False, others: bool = False,
            folies: bool = False) -> dict[str, list[str]]:
        """What one slap (or a challenge) wins goes under the winner's pile as one set whose
        order nobody records: the central pile, the top card of every other player's pile (in
        player order after the winner), the Folies pile. Returns what was won from each, as the
        steps show it."""
        if self.watch is not None:
            self.watch.win(position, central=central, others=others, folies=folies)
        gained: dict[str, Any] = {}  # each list of entries
        if central:
            gained["central"], self.central = self.central, []
        if others:
            gained["players"] = [self._take(other) for k in range(1, self.players)
                                 if self.counts[other := (position + k) % self.players]]
        if folies:
            gained["folies"], self.folies = self.folies, []
            self._shown_folies = []
        shown = {part: self.shown(items) for part, items in gained.items()}
        items = [item for part in gained.values() for item in part]
        if items:
            entry = self.hidden.merge(items)
            self.piles[position].append(entry)
            self.counts[position] += len(items)
            texts = self._shown_piles[position]
            if texts is not None:
                self._shown_piles[position] = texts + self.shown((entry,))
        return shown

    # --- what the steps show ---------------------------------------------------------------------

    def show(self, entry: Entry) -> list[str]:
        """An entry as the steps write it: a card id, ``?7`` for a one-place family, ``?12.1``,
        ``?12.2``… for the places of a set."""
        if isinstance(entry, str):
            return [entry]
        size = self.hidden.size[entry]
        if size == 1:
            return [f"?{entry}"]
        return [f"?{entry}.{k}" for k in range(1, size + 1)]

    def shown(self, entries: Iterable[Entry]) -> list[str]:
        """:meth:`show` of each entry, in one list (a step shows every pile: the places of a
        family of ``n`` are written once per family and size, then reused)."""
        size, labels = self.hidden.size, self.labels
        out: list[str] = []
        for entry in entries:
            if isinstance(entry, str):
                out.append(entry)
                continue
            key = (entry, size[entry])
            texts = labels.get(key)
            if texts is None:
                texts = labels[key] = self.show(entry)
            out.extend(texts)
        return out

    def _shown_off_top(self, position: int, before: int, left: Entry | None = None) -> None:
        """The top entry of a pile, shown as ``before`` places, left it (``left`` None) or lost
        one place (``left``: the family, now one place smaller): what the pile shows follows."""
        texts = self._shown_piles[position]
        if texts is not None:
            rest = texts[before:]
            self._shown_piles[position] = rest if left is None else self.shown((left,)) + rest

    def shown_pile(self, position: int) -> list[str]:
        """:meth:`shown` of a player's pile, the same list as at the last call while the pile has
        not changed, else that list with what changed at its top or bottom (a family's size only
        changes through a move of the pile that holds it: :meth:`_take`, :meth:`flip`, :meth:`win`).
        Read only: steps share it."""
        texts = self._shown_piles[position]
        if texts is None:
            texts = self._shown_piles[position] = self.shown(self.piles[position])
        return texts

    def shown_folies(self) -> list[str]:
        """:meth:`shown` of the Folies pile, shared as :meth:`shown_pile` is."""
        texts = self._shown_folies
        if texts is None:
            texts = self._shown_folies = self.shown(self.folies)
        return texts

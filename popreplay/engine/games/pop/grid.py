"""The play area: five queues (columns) that grow downward onto their Queue cards.

The table is kept row by row (row 0 at the top) in two flat lists, ``cells`` (card numbers, ``None``
when empty) and ``colours`` (the card's colour, :data:`EMPTY` when empty), with a stride of
:data:`STRIDE` = 6: five columns and a sixth that is always empty, and one empty row above row 0.
The cell of column ``c`` on row ``r`` is ``STRIDE * (r + 1) + c``. So every neighbour of a card
(above, below, left, right) is a valid index that is simply empty at the edges, and the hot loop
needs no bounds checks. The lists are sized once for every card a round can still place (a round
has at most 50 cards), so they never grow. ``heads[c]`` is the index of column ``c``'s Queue card
(``queue_rows`` gives its row); a column's cards always lie contiguous just above it (gravity).
Callers see only rows and positions, never these indexes.

POP!'s colour rule, "a card touches its colour" (``spec/pop.md`` section 5, and the setup check
of section 7), is written once, in :func:`touches`: the placement (``Area.touches``, and the
replay's hot loop in ``rules.py``), the waves' seeds, the starting layout's check
(``Area.touching_pair``) and the layout cards the recorder may offer (``choices.py``) call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from .cards import colour

Position = tuple[int, int]  # (column, absolute row)

STRIDE = 6  # five columns and an always-empty one, so that left/right of an edge is empty
EMPTY = -1  # the colour of an empty cell: equal to no card's colour
MOST_CARDS = 50  # no round places more cards than the deck holds


def index_of(column: int, row: int) -> int:
    return STRIDE * (row + 1) + column


def touches(colours: Sequence[int], index: int, colour: int) -> bool:
    """POP!'s colour rule: does a card of ``colour`` at ``index`` touch a card of its colour?
    Orthogonally only (above, below, left, right); an empty cell or a Queue card touches nothing.
    The card need not be there yet (the recorder's offers for a layout's next card)."""
    return (colours[index - STRIDE] == colour or colours[index - 1] == colour
            or colours[index + 1] == colour or colours[index + STRIDE] == colour)


class Area:
    __slots__ = ("cells", "colours", "heads")

    def __init__(self, layout: list[list[int | None]]) -> None:
        size = STRIDE * (len(layout) + MOST_CARDS + 2)  # the empty row on top, one below
        cells: list[int | None] = [None] * size
        colours = [EMPTY] * size
        for r, row in enumerate(layout):
            base = STRIDE * (r + 1)
            for c, card in enumerate(row):
                if card is not None:
                    cells[base + c] = card
                    colours[base + c] = colour(card)
        self.cells = cells
        self.colours = colours
        head = STRIDE * (len(layout) + 1)
        self.heads = [head, head + 1, head + 2, head + 3, head + 4]

    @property
    def queue_rows(self) -> list[int]:
        """The row of each Queue card."""
        return [head // STRIDE - 1 for head in self.heads]

    @property
    def count(self) -> int:
        """How many cards are in play."""
        return len(self.cells) - self.cells.count(None)

    # --- looking -------------------------------------------------------------------------------

    def card_at(self, column: int, row: int) -> int | None:
        if 0 <= column < 5 and 0 <= row < max(self.queue_rows):
            return self.cells[STRIDE * (row + 1) + column]
        return None

    def cards(self) -> set[int]:
        return {card for card in self.cells if card is not None}

    def rows(self) -> list[list[int | None]]:
        """Every table row from row 0 down to the lowest Queue card, five entries each."""
        cells = self.cells
        return [cells[i:i + 5] for i in range(STRIDE, STRIDE * (max(self.queue_rows) + 1), STRIDE)]

    def snapshot(self) -> dict:
        return {"rows": self.rows(), "queue_rows": list(self.queue_rows)}

    def copy(self) -> Area:
        clone = Area.__new__(Area)
        clone.cells = list(self.cells)
        clone.colours = list(self.colours)
        clone.heads = list(self.heads)
        return clone

    # --- changing ------------------------------------------------------------------------------

    def place(self, column: int, card: int) -> int:
        """Put ``card`` on the Queue card's place; the Queue card moves one row down. Returns
        the index of the card."""
        index = self.heads[column]
        self.heads[column] = index + STRIDE
        self.cells[index] = card
        self.colours[index] = colour(card)
        return index

    def touches(self, index: int) -> bool:
        """Does the card at ``index`` touch its colour (:func:`touches`)?"""
        return touches(self.colours, index, self.colours[index])

    def resolve(self, index: int, snapshots: list | None = None) -> list[list[int]]:
        """Resolve a placement: the waves of exploded cards, each sorted, in order.

        Wave 1 is the placed card's group (none when it touches no card of its colour); after each
        wave and its gravity every connected group of two or more same-colour cards explodes at
        once. Only cards that fell can start a new group: before the wave no two cards of one
        colour touched outside the exploding groups. When ``snapshots`` is a list, the area after
        each wave (and its gravity) is appended to it.

        This is the replay's innermost loop, written as one function (no calls per wave):

        - *groups*: a breadth-first search from the wave's seeds over orthogonal neighbours of the
          same colour, in a plain list that grows while it is walked (groups are small, and a
          short list is quicker than a set);
        - *gravity*: in each column the cards above its lowest gap close down onto the cards (or
          the Queue card) below that gap; they are the only cards that move, and the next wave's
          seeds are the moved cards that now touch their colour.
        """
        cells, colours = self.cells, self.colours
        found = [index]
        waves: list[list[int]] = []
        while True:
            add = found.append
            for i in found:  # the connected groups of the seeds
                colour = colours[i]
                n = i - STRIDE
                if colours[n] == colour and n not in found:
                    add(n)
                n = i + STRIDE
                if colours[n] == colour and n not in found:
                    add(n)
                n = i - 1
                if colours[n] == colour and n not in found:
                    add(n)
                n = i + 1
                if colours[n] == colour and n not in found:
                    add(n)
            if len(found) < 2:  # only the placed card can be a seed on its own
                return waves
            waves.append(sorted(cast("list[int]", [cells[i] for i in found])))  # (not empty)
            moved: list[int] = []
            done = 0  # a bit for each column already closed
            found.sort(reverse=True)  # the lowest gap of a column comes first
            for bottom in found:
                bit = 1 << bottom % STRIDE
                if done & bit:
                    continue
                done |= bit
                write = bottom
                read = bottom - STRIDE
                while True:  # the empty row above row 0 ends every column
                    if read in found:
                        read -= STRIDE
                        continue
                    card = cells[read]
                    if card is None:
                        break
                    cells[write] = card
                    colours[write] = colours[read]
                    moved.append(write)
                    write -= STRIDE
                    read -= STRIDE
                while write > read:
                    cells[write] = None
                    colours[write] = EMPTY
                    write -= STRIDE
            if snapshots is not None:
                snapshots.append(self.snapshot())
            found = []
            for i in moved:  # the seeds of the next wave: fallen cards that touch their colour
                if touches(colours, i, colours[i]) and i not in found:
                    found.append(i)
            if not found:
                return waves

    def touching_pair(self) -> tuple[Position, Position] | None:
        """The first pair of touching same-colour cards in reading order, if any: the first card
        that touches its colour (:func:`touches`) and its neighbour on the right, else below (a
        neighbour above or on the left would have come first)."""
        colours = self.colours
        for r in range(max(self.queue_rows)):
            base = STRIDE * (r + 1)
            for c in range(5):
                colour = colours[base + c]
                if colour == EMPTY or not touches(colours, base + c, colour):
                    continue
                if colours[base + c + 1] == colour:
                    return (c, r), (c + 1, r)
                return (c, r), (c, r + 1)
        return None

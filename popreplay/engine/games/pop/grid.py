"""The play area: five queues (columns) that grow downward onto their Queue cards.

A column is stored top to bottom; its last card rests on the Queue card. ``queue_rows[c]`` is the
absolute table row of the Queue card of column ``c``, so the card at index ``i`` of a column lies on
row ``queue_rows[c] - len(column) + i``. Removing cards from a column therefore applies gravity by
itself: the cards above the gap keep their order and close down onto the Queue card.
"""

from __future__ import annotations

from .cards import COLOUR

Position = tuple[int, int]  # (column, absolute row)


class Area:
    __slots__ = ("columns", "queue_rows")

    def __init__(self, layout: list[list[int | None]]) -> None:
        self.columns: list[list[int]] = [[] for _ in range(5)]
        for row in layout:
            for column, card in enumerate(row):
                if card is not None:
                    self.columns[column].append(card)
        self.queue_rows = [len(layout)] * 5

    # --- looking -------------------------------------------------------------------------------

    def card_at(self, column: int, row: int) -> int | None:
        if not 0 <= column < 5:
            return None
        cards = self.columns[column]
        index = row - self.queue_rows[column] + len(cards)
        if 0 <= index < len(cards):
            return cards[index]
        return None

    def card_count(self) -> int:
        return sum(len(cards) for cards in self.columns)

    def cards(self) -> set[int]:
        return {card for cards in self.columns for card in cards}

    def rows(self) -> list[list[int | None]]:
        """Every table row from row 0 to the lowest card, five entries each (``None`` is empty)."""
        height = max(self.queue_rows)
        return [[self.card_at(column, row) for column in range(5)] for row in range(height)]

    def snapshot(self) -> dict:
        return {"rows": self.rows(), "queue_rows": list(self.queue_rows)}

    # --- changing ------------------------------------------------------------------------------

    def place(self, column: int, card: int) -> int:
        """Put ``card`` on the Queue card's place; the Queue card moves one row down."""
        self.columns[column].append(card)
        row = self.queue_rows[column]
        self.queue_rows[column] = row + 1
        return row

    def group(self, column: int, row: int) -> list[Position]:
        """The connected same-colour group around a card (orthogonal neighbours only)."""
        colour = COLOUR[self.card_at(column, row)]
        seen = {(column, row)}
        stack = [(column, row)]
        card_at = self.card_at
        while stack:
            c, r = stack.pop()
            for nc, nr in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)):
                if (nc, nr) not in seen:
                    neighbour = card_at(nc, nr)
                    if neighbour is not None and COLOUR[neighbour] == colour:
                        seen.add((nc, nr))
                        stack.append((nc, nr))
        return sorted(seen)

    def remove(self, positions: list[Position]) -> list[Position]:
        """Remove cards, let the cards above fall, and return where the fallen cards now lie."""
        by_column: dict[int, list[int]] = {}
        for column, row in positions:
            cards = self.columns[column]
            by_column.setdefault(column, []).append(row - self.queue_rows[column] + len(cards))
        moved: list[Position] = []
        for column, indexes in by_column.items():
            cards = self.columns[column]
            lowest = max(indexes)
            doomed = set(indexes)
            self.columns[column] = kept = [c for i, c in enumerate(cards) if i not in doomed]
            fallen = lowest + 1 - len(doomed)  # cards above the lowest gap, now at indexes < fallen
            top_row = self.queue_rows[column] - len(kept)
            moved.extend((column, top_row + i) for i in range(fallen))
        return moved

    def resolve(self, column: int, row: int, snapshots: list | None = None) -> list[list[int]]:
        """Resolve a placement: the waves of exploded cards, each sorted, in order.

        Wave 1 is the placed card's group; after each wave and its gravity every connected group of
        two or more same-colour cards explodes at once. Only cards that fell can start a new group:
        before the wave no two cards of one colour touched outside the exploding groups. When
        ``snapshots`` is a list, the area after each wave (and its gravity) is appended to it.
        """
        first = self.group(column, row)
        if len(first) < 2:
            return []
        waves = []
        exploding = first
        while exploding:
            waves.append(sorted(self.card_at(c, r) for c, r in exploding))
            moved = self.remove(exploding)
            if snapshots is not None:
                snapshots.append(self.snapshot())
            exploding = self._groups_touching(moved)
        return waves

    def _groups_touching(self, moved: list[Position]) -> list[Position]:
        found: set[Position] = set()
        for position in moved:
            if position not in found:
                group = self.group(*position)
                if len(group) >= 2:
                    found.update(group)
        return sorted(found)

    def touching_pair(self) -> tuple[Position, Position] | None:
        """The first pair of touching same-colour cards in reading order, if any."""
        rows = self.rows()
        for r, row in enumerate(rows):
            for c, card in enumerate(row):
                if card is None:
                    continue
                if c < 4 and row[c + 1] is not None and COLOUR[row[c + 1]] == COLOUR[card]:
                    return (c, r), (c + 1, r)
                below = rows[r + 1][c] if r + 1 < len(rows) else None
                if below is not None and COLOUR[below] == COLOUR[card]:
                    return (c, r), (c, r + 1)
        return None

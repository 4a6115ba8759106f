"""The play area: five queues (columns) that grow downward onto their Queue cards.

``cells`` holds the table row by row (row 0 at the top), five cells a row, flattened: the cell of
column ``c`` on row ``r`` is ``cells[5 * r + c]``, a card number or ``None``. ``queue_rows[c]`` is
the row of column ``c``'s Queue card; a column's cards always lie contiguous just above it
(gravity). Everything here is plain list indexing: it is the engine's hot loop.
"""

from __future__ import annotations

Position = tuple[int, int]  # (column, absolute row), for callers; cells use flat indexes


class Area:
    __slots__ = ("cells", "queue_rows", "count")

    def __init__(self, layout: list[list[int | None]]) -> None:
        self.cells: list[int | None] = [card for row in layout for card in row]
        self.queue_rows = [len(layout)] * 5
        self.count = len(self.cells) - self.cells.count(None)

    # --- looking -------------------------------------------------------------------------------

    def card_at(self, column: int, row: int) -> int | None:
        index = 5 * row + column
        if 0 <= column < 5 and 0 <= index < len(self.cells):
            return self.cells[index]
        return None

    def cards(self) -> set[int]:
        return {card for card in self.cells if card is not None}

    def rows(self) -> list[list[int | None]]:
        """Every table row from row 0 down to the lowest Queue card, five entries each."""
        cells = self.cells
        return [cells[i:i + 5] for i in range(0, 5 * max(self.queue_rows), 5)]

    def snapshot(self) -> dict:
        return {"rows": self.rows(), "queue_rows": list(self.queue_rows)}

    def copy(self) -> Area:
        clone = Area.__new__(Area)
        clone.cells = list(self.cells)
        clone.queue_rows = list(self.queue_rows)
        clone.count = self.count
        return clone

    # --- changing ------------------------------------------------------------------------------

    def place(self, column: int, card: int) -> int:
        """Put ``card`` on the Queue card's place; the Queue card moves one row down. Returns
        the flat index of the card."""
        row = self.queue_rows[column]
        self.queue_rows[column] = row + 1
        index = 5 * row + column
        cells = self.cells
        if index >= len(cells):
            cells.extend((None, None, None, None, None))
        cells[index] = card
        self.count += 1
        return index

    def touches(self, index: int) -> bool:
        """Does the card just placed at ``index`` touch its colour? (Nothing lies below it.)"""
        cells = self.cells
        colour = cells[index] % 5
        if index >= 5:
            above = cells[index - 5]
            if above is not None and above % 5 == colour:
                return True
        column = index % 5
        if column:
            left = cells[index - 1]
            if left is not None and left % 5 == colour:
                return True
        if column < 4:
            right = cells[index + 1]
            if right is not None and right % 5 == colour:
                return True
        return False

    def group(self, index: int) -> set[int]:
        """The connected same-colour group around a card (orthogonal neighbours only)."""
        cells = self.cells
        size = len(cells)
        colour = cells[index] % 5
        seen = {index}
        stack = [index]
        while stack:
            i = stack.pop()
            column = i % 5
            for n in (i - 5, i + 5, i - 1 if column else -1, i + 1 if column < 4 else -1):
                if 0 <= n < size and n not in seen:
                    card = cells[n]
                    if card is not None and card % 5 == colour:
                        seen.add(n)
                        stack.append(n)
        return seen

    def remove(self, doomed: set[int]) -> list[int]:
        """Remove cards, let the cards above fall, and return where the fallen cards now lie.

        In each column the cards above its lowest gap close down onto the cards (or the Queue
        card) below that gap; they are the only cards that move.
        """
        cells = self.cells
        lowest: dict[int, int] = {}
        for i in doomed:
            column = i % 5
            if i > lowest.get(column, -1):
                lowest[column] = i
        moved: list[int] = []
        for column, bottom in lowest.items():
            falling = [cells[i] for i in range(column, bottom, 5) if i not in doomed]
            for i in range(column, bottom + 1, 5):
                cells[i] = None
            target = bottom
            for card in reversed(falling):
                if card is None:
                    break
                cells[target] = card
                moved.append(target)
                target -= 5
        self.count -= len(doomed)
        return moved

    def resolve(self, index: int, snapshots: list | None = None) -> list[list[int]]:
        """Resolve a placement: the waves of exploded cards, each sorted, in order.

        Wave 1 is the placed card's group; after each wave and its gravity every connected group of
        two or more same-colour cards explodes at once. Only cards that fell can start a new group:
        before the wave no two cards of one colour touched outside the exploding groups. When
        ``snapshots`` is a list, the area after each wave (and its gravity) is appended to it.
        """
        exploding = self.group(index)
        if len(exploding) < 2:
            return []
        cells = self.cells
        waves = []
        while exploding:
            waves.append(sorted(cells[i] for i in exploding))
            moved = self.remove(exploding)
            if snapshots is not None:
                snapshots.append(self.snapshot())
            exploding = set()
            for i in moved:
                if i not in exploding:
                    group = self.group(i)
                    if len(group) >= 2:
                        exploding |= group
        return waves

    def touching_pair(self) -> tuple[Position, Position] | None:
        """The first pair of touching same-colour cards in reading order, if any."""
        rows = self.rows()
        for r, row in enumerate(rows):
            for c, card in enumerate(row):
                if card is None:
                    continue
                if c < 4 and row[c + 1] is not None and row[c + 1] % 5 == card % 5:
                    return (c, r), (c + 1, r)
                below = rows[r + 1][c] if r + 1 < len(rows) else None
                if below is not None and below % 5 == card % 5:
                    return (c, r), (c, r + 1)
        return None

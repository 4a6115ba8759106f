"""The four POP! modes as numbers (``spec/pop.md`` section 4)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    min_players: int
    max_players: int
    rounds: int
    hand_size: int | None  # None: puzzle, any hand of 5 or more
    has_chief: bool

    def layout_rows(self, difficulty: int | None) -> int | None:
        """How many full rows the starting layout has; ``None`` for a puzzle (any rows, gaps)."""
        if self.name == "solo":
            return difficulty
        if self.name == "puzzle":
            return None
        return 1

    def turns(self, difficulty: int | None) -> int:
        return {"battle": 8, "coop": 9, "solo": 10 - (difficulty or 0), "puzzle": 1}[self.name]

    def player_cards(self, *, variant: bool) -> int:
        if self.name in ("solo", "puzzle"):
            return 5
        return 2 if variant else 1

    def chief_cards(self, players: int, *, variant: bool) -> int:
        if not self.has_chief:
            return 0
        return 1 if variant else 5 - players


MODES: dict[str, Mode] = {
    "battle": Mode("battle", 2, 5, 3, 9, has_chief=True),
    "coop": Mode("coop", 3, 5, 1, 9, has_chief=True),
    "solo": Mode("solo", 1, 1, 1, 10, has_chief=False),
    "puzzle": Mode("puzzle", 1, 1, 1, None, has_chief=False),
}

PUZZLE_MIN_HAND = 5
SOLO_TITLES = {1: "novice", 2: "mean", 3: "evil", 4: "renegade"}


def coop_level(cards_left: int, *, won: bool) -> str:
    if cards_left >= 5:
        return "beginner"
    if cards_left >= 3:
        return "apprentice"
    if cards_left >= 1:
        return "skilled"
    return "legendary" if won else "expert"

"""The two slap modes and the even deal (rulebook "Nombre de cartes par joueur")."""

from __future__ import annotations

from .cards import DECK_SIZE

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PENALTY = 2  # cards paid to the Folies pile for a wrong slap or a lone rainbow not slapped

MODES: dict[str, str] = {
    "elimination": "the last player in the game wins",
    "timed": "the log records the end of time; most cards wins, ties share",
}


def even_deal(players: int) -> list[int]:
    """All 102 cards dealt one by one in player order: the first players get the extra cards."""
    base, extra = divmod(DECK_SIZE, players)
    return [base + (position < extra) for position in range(players)]

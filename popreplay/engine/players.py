"""Player names, the same way in every game: compared after Unicode NFC, unique, not blank."""

from __future__ import annotations

import unicodedata

from .pointer import pointer
from .replay import RuleViolation, Violation


def nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def index_players(names: list[str], *, low: int, high: int, what: str) -> dict[str, int]:
    """Map each player's NFC name to their position, or raise ``bad-player-count``.

    The count is checked first (``what`` names the game or mode in the message), then each name in
    order: empty or only spaces, then a repeat after NFC.
    """
    count = len(names)
    if not low <= count <= high:
        wanted = f"{low}" if low == high else f"{low}–{high}"
        _fail(f"{what} is for {wanted} player{'s' * (high > 1)}; the log names {count}",
              "players")
    index: dict[str, int] = {}
    for position, name in enumerate(names):
        key = nfc(name)
        if not key.strip():
            _fail("a player name is empty or only spaces", "players", position)
        if key in index:
            _fail(f"the name {key!r} is given twice", "players", position)
        index[key] = position
    return index


def _fail(message: str, *tokens: str | int) -> None:
    raise RuleViolation(Violation("bad-player-count", message, pointer(*tokens)))

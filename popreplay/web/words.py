"""Words of the pages shared by the views and the link previews (no module of ``web`` above it):
the games' modes in the page's language."""

from __future__ import annotations

from typing import Any

from ..games import KITS

# Every game's modes, in the page's language (the kits' ``mode_words``: the rulebooks' names).
MODE_WORDS: dict[str, Any] = {mode: word for kit in KITS.values() for mode, word in kit.mode_words}


def mode_word(mode: Any) -> str:
    """A game mode (the log's ``mode``) in the page's language: the rulebooks' names."""
    word = MODE_WORDS.get(mode) if isinstance(mode, str) else None
    return str(word) if word is not None else ("" if mode is None else str(mode))

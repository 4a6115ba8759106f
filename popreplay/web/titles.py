"""A recorded game's title in the page's language (docs/i18n.md).

The recorder names a game it records, when the player gives no title, "{game} {mode} ·
{players}" in the recorder's language ("POP! battle · Alice, Bruno"). Such a title is the
recorder's words, not the player's: a page in another language says it in its own words.
A title a player typed is kept as typed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _

from .lang import LANGS
from .words import mode_word


def _auto(game: str, mode: Any, players: list[str]) -> str:
    text = _("{game} {mode} · {players}")
    text = text.replace("{game}", re.sub(r" \(.*\)$", "", game)).replace("{mode}", mode_word(mode))
    return re.sub(r" +·", " ·", text.replace("{players}", ", ".join(players)))


def page_title(title: str | None, game_title: Callable[[], str], mode: Any,
               players: list[str]) -> str | None:
    """``title``, or the recorder's own title said again in the page's language."""
    if not title or not players:
        return title
    for lang in LANGS:
        with force_locale(lang):
            if title == _auto(game_title(), mode, players):
                break
    else:
        return title
    return _auto(game_title(), mode, players)

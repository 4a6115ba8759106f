"""Player names, the same way in every game: compared after Unicode NFC, unique (also after NFKC
without invisible characters: ``identity``), not blank."""

from __future__ import annotations

import difflib
import unicodedata
from typing import Any, Mapping

from .messages import Msg, msg
from .pointer import pointer
from .replay import RuleViolation, Violation


def nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


# Unicode's Default_Ignorable_Code_Point beyond the format characters (Cf): invisible too.
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
              (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
              (0xE0000, 0xE0FFF))


def _ignorable(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(lo <= code <= hi for lo, hi in _IGNORABLE)


def identity(name: str) -> str:
    """The name as one player: NFKC (full-width ``Ｒｏｙ`` is ``Roy``) without default-ignorable
    code points (zero-width space and joiners, BOM, soft hyphen, variation selectors...). Two
    names of one log with the same identity are refused; the store keys players by it."""
    if name.isascii():  # NFKC leaves ASCII as it is, and no ASCII character is ignorable
        return name
    return unicodedata.normalize("NFKC", "".join(c for c in name if not _ignorable(c)))


def index_players(names: list[str], *, low: int, high: int, what: str) -> dict[str, int]:
    """Map each player's NFC name to their position, or raise ``bad-player-count``.

    The count is checked first (``what`` names the game or mode in the message), then each name in
    order: empty or only spaces, then a repeat after NFC.
    """
    count = len(names)
    if not low <= count <= high:
        wanted = low if low == high else msg("core.player-range", low=low, high=high)
        _fail(msg("core.player-count", what=what, wanted=wanted, high=high, count=count),
              "players")
    index: dict[str, int] = {}
    seen: dict[str, str] = {}  # identity -> the name (NFC) that has it
    for position, name in enumerate(names):
        key = nfc(name)
        same = identity(key)
        if not same.strip():
            _fail(msg("core.blank-name"), "players", position)
        if key in index:
            _fail(msg("core.name-twice", name=key), "players", position)
        if same in seen:
            _fail(msg("core.name-same", name=key, other=seen[same]), "players", position)
        index[key] = position
        seen[same] = key
    return index


def _fail(message: str, *tokens: str | int) -> None:
    raise RuleViolation(Violation("bad-player-count", message, pointer(*tokens)))


def player_position(index: Mapping[str, int], name: str | None, *tokens: str | int,
                    round: int | None = None, turn: int | None = None) -> int:
    """The position of the player called ``name`` (after NFC), or ``unknown-player`` at
    ``tokens`` (also for a name not given, ``None``, or not a string: log values are unchecked)."""
    position = index.get(name) if isinstance(name, str) else None  # exact: the fast case
    if position is None:
        position = index.get(nfc(name)) if isinstance(name, str) else None
        if position is None:  # a name not given (a recorder's entry without its player) too
            raise RuleViolation(Violation("unknown-player",
                                          msg("core.unknown-player", name=name,
                                              hint=did_you_mean(name, index)
                                              if isinstance(name, str) else ""),
                                          pointer(*tokens), round, turn))
    return position


def folded(name: str) -> str:
    """A name as hand typing confuses it: accents dropped, case folded, spaces trimmed."""
    letters = unicodedata.normalize("NFD", name)
    return "".join(c for c in letters if not unicodedata.combining(c)).casefold().strip()


def did_you_mean(name: str, index: Mapping[str, int]) -> str:
    """``"; did you mean 'Cléo'?"`` for a name that is a player's but for accents, case or a
    slip of a letter or two; ``""`` when no player's name is close."""
    names = {folded(player): player for player in index}
    typed = folded(name)
    match = names.get(typed)
    if match is None:
        close = difflib.get_close_matches(typed, list(names), n=1, cutoff=0.75)
        match = names[close[0]] if close else None
    return "" if match is None else msg("core.did-you-mean", name=match)


def by_player(names: list[str], index: Mapping[str, int], mapping: Mapping[str, Any],
              *tokens: str | int, duplicate: str, twice: str = "core.given-twice",
              round: int | None = None, turn: int | None = None) -> dict[int, tuple[str, Any]]:
    """A map keyed by player names, re-keyed by position; each raw key is kept for pointers.

    A key that is no player is ``unknown-player``; a player named twice (two spellings with one
    NFC form) is the violation ``duplicate``, its message ``twice`` (a message id, see
    ``messages.py``, or an English template) with the player's name.
    """
    out: dict[int, tuple[str, Any]] = {}
    for key, value in mapping.items():
        position = player_position(index, key, *tokens, key, round=round, turn=turn)
        if position in out:
            text: Msg | str = (msg(twice, name=names[position]) if "{" not in twice
                               else twice.format(name=names[position]))
            raise RuleViolation(Violation(duplicate, text,
                                          pointer(*tokens, key), round, turn))
        out[position] = (key, value)
    return out

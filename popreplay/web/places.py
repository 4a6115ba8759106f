"""A log's places in words for the replay page: a JSON Pointer said as people say it, and what the
log holds where a violation points (the value, the whole turn)."""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext as _

from ..games import KITS


def pointer_tokens(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def place_in_log(pointer: str, game: Any = None) -> str:
    """A JSON Pointer in words: ``/rounds/0/turns/3/plays/Alice/0`` is
    ``round 1 › turn 4 › plays › Alice › card 1`` (rounds and turns here, the rest in the
    game's words: its kit's ``place_word``)."""
    kit = KITS.get(game) if isinstance(game, str) else None
    own = kit.load("place_word") if kit is not None and kit.place_word else None
    words: list[str] = []
    tokens = pointer_tokens(pointer)
    for i, token in enumerate(tokens):
        parent = tokens[i - 1] if i else None
        word = own(token, parent, tokens[i - 2] if i > 1 else None) \
            if own is not None and token.isdigit() else None
        if token.isdigit() and parent in ("rounds", "turns"):
            n = int(token) + 1
            words[-1] = _("round %(n)s", n=n) if parent == "rounds" else _("turn %(n)s", n=n)
        elif word is not None:
            words.append(word)
        elif token.isdigit():
            words.append(_("item %(n)s", n=int(token) + 1))
        else:
            words.append(token)
    return " › ".join(words) if words else _("the whole log")


def offending_move(log: dict[str, Any] | None, error: dict[str, Any]) -> dict[str, Any]:
    """What the log says where a violation points: the value there and the whole turn."""
    path = error.get("path") or ""
    found, value = _resolve(log, path)
    move = None
    if log is not None and error.get("round") and error.get("turn"):
        found_turn, turn = _resolve(log, f"/rounds/{error['round'] - 1}/turns/{error['turn'] - 1}")
        if found_turn:
            move = json.dumps(turn, ensure_ascii=False)
    return {
        "place": place_in_log(path, (log or {}).get("game")),
        "value": json.dumps(value, ensure_ascii=False) if found else None,
        "move": move,
    }


def _resolve(doc: Any, pointer: str) -> tuple[bool, Any]:
    node = doc
    for token in pointer_tokens(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return doc is not None, node

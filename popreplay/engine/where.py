"""Where a violation is, for people: 1-based round and turn, and the player, from the error and
the log its pointer points into ("Round 2, turn 3 — Bruno"). Standard library only, pure.

:func:`where` answers a message (``{"id", "params"}``, rendered by ``popreplay.i18n`` in the
reader's language) or ``None`` when the error is not inside a round, a turn or an entry;
:func:`player_of` the player the pointer is about. The JSON Pointer stays the API's and the
details' (pages show it only on request).
"""

from __future__ import annotations

from typing import Any, Mapping

from .messages import define

define({
    "core.where.round-turn": "Round {round}, turn {turn}",
    "core.where.round": "Round {round}",
    "core.where.turn": "Turn {turn}",
    "core.where.entry": "Entry {entry} of the log",
    "core.where.player": "{place} — {player}",
    "core.where.said": "{place}: {message}",
})

ENTRY_LISTS = ("turns", "events")  # logs whose entries are one list: an entry counted from 1


def tokens(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def player_of(log: Any, pointer: str) -> str | None:
    """The player a pointer is about: a player's name in the pointer itself (``/plays/Bruno/0``),
    else the value it points at when that is a name (``{"slap": "Bruno"}``), else the ``player``
    of the deepest entry on the way (``/events/5`` → that event's ``player``)."""
    players = [p for p in (log.get("players") or []) if isinstance(p, str)] \
        if isinstance(log, Mapping) else []
    path = tokens(pointer)
    for token in reversed(path):
        if token in players:
            return token
    node: Any = log
    found: str | None = None
    for token in path:
        if isinstance(node, Mapping) and isinstance(node.get("player"), str) \
                and node["player"] in players:
            found = node["player"]
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return found
    if isinstance(node, str) and node in players:
        return node
    if isinstance(node, Mapping) and isinstance(node.get("player"), str) \
            and node["player"] in players:
        return node["player"]
    return found


def where(error: Mapping[str, Any], log: Any) -> dict[str, Any] | None:
    """``{"id", "params"}``: the round and turn (1-based, as the engine counts them), else the
    log entry the pointer is in, then the player when there is one; ``None`` when none of these."""
    round_, turn = error.get("round"), error.get("turn")
    path = tokens(error.get("path") or "")
    place: dict[str, Any] | None = None
    if isinstance(round_, int) and isinstance(turn, int):
        place = {"id": "core.where.round-turn", "params": {"round": round_, "turn": turn}}
    elif isinstance(round_, int):
        place = {"id": "core.where.round", "params": {"round": round_}}
    elif isinstance(turn, int):
        place = {"id": "core.where.turn", "params": {"turn": turn}}
    elif len(path) >= 2 and path[0] in ENTRY_LISTS and path[1].isdigit():
        place = {"id": "core.where.entry", "params": {"entry": int(path[1]) + 1}}
    player = player_of(log, error.get("path") or "")
    if place is None:
        return None
    if player is not None:
        return {"id": "core.where.player", "params": {"place": place, "player": player}}
    return place

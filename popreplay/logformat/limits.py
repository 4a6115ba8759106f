"""Resource limits on one log, beyond which it is refused as a shape error (docs/reliability.md)."""

from __future__ import annotations

import re
from typing import Any

from ..engine.messages import msg
from ..engine.pointer import join

MAX_DEPTH = 32  # JSON nesting depth anywhere in a log, ``meta`` included


def depth_exceeds(value: Any, budget: int) -> bool:
    """True when ``value`` nests more than ``budget`` levels of arrays/objects. Level by level,
    keeping only the arrays and objects of each (a log's many numbers and strings are looked at
    once, in a comprehension: this runs on every upload)."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        if depth >= budget:
            return True
        level = [child for node in level
                 for child in (node.values() if isinstance(node, dict) else node)
                 if isinstance(child, (dict, list))]
        depth += 1
    return False


# Sizes beyond anything a real game needs; they keep one request's work bounded. A log past them
# is invalid (a shape error at the offending list), not a rule violation.
MAX_PLAYERS = 16
MAX_NAME_LENGTH = 100
MAX_ROUNDS = 16
MAX_TURNS = 64
MAX_ROWS = 64
MAX_CARDS = 64  # in one hand, play, draw or Chief list

# The work of one replay. A replay with steps is one step per move, each step the whole table
# (1 to 4 KB of JSON): its CPU time, memory and bytes grow with the number of moves, not with the
# log's bytes (a 260 KB slap log of 20,000 slaps gave 22 MB of steps and 1.5 s of CPU). The moves of
# a log are bounded per game (``docs/reliability.md``, "Work per replay", has the measurements):
# slap's events and Bloops' events by their list (``slap.MAX_EVENTS``, ``bloops.MAX_EVENTS``), POP!'s
# by rounds × turns, and cube's by its turns and by the events of all its turns together:
MAX_CUBE_EVENTS = 5_000


def cube_events_past_limit(log: Any) -> str | None:
    """The JSON Pointer of a cube log's first event past :data:`MAX_CUBE_EVENTS` (the events of
    every turn counted together), or None. For a log whose shape is otherwise right."""
    turns = log.get("turns") if isinstance(log, dict) else None
    if not isinstance(turns, list):
        return None
    seen = 0
    for index, turn in enumerate(turns):
        events = turn.get("events") if isinstance(turn, dict) else None
        if not isinstance(events, list):
            continue
        if seen + len(events) > MAX_CUBE_EVENTS:
            return join(join("/turns", index), "events") + f"/{MAX_CUBE_EVENTS - seen}"
        seen += len(events)
    return None


# ``meta`` is free text, stored and shown on lists and pages: bounded so that one upload cannot
# make every page that lists it large (100 titles of 1 MB made the home page 21 MB).
MAX_TITLE_LENGTH = 200  # characters of ``meta.title``
MAX_META_STRING = 2000  # characters of any other string in ``meta`` (keys included)
MAX_META_ITEMS = 200  # strings, numbers, arrays and objects in ``meta``, all levels counted


def meta_problem(meta: Any) -> tuple[str, str] | None:
    """(JSON Pointer, message) of the first thing in ``meta`` past the limits above, or None."""
    if not isinstance(meta, dict):
        return None
    title = meta.get("title")
    if isinstance(title, str) and len(title) > MAX_TITLE_LENGTH:
        return "/meta/title", msg("shape.too-long", limit=MAX_TITLE_LENGTH)
    count = 0
    stack: list[tuple[str, Any]] = [("/meta", meta)]
    while stack:
        path, value = stack.pop()
        count += 1
        if count > MAX_META_ITEMS:
            return "/meta", msg("shape.too-many", limit=MAX_META_ITEMS)
        if isinstance(value, str) and len(value) > MAX_META_STRING:
            return path, msg("shape.too-long", limit=MAX_META_STRING)
        if isinstance(value, dict):
            for key, item in value.items():
                if len(key) > MAX_META_STRING:
                    return path, msg("shape.key-too-long", limit=MAX_META_STRING)
                stack.append((join(path, key), item))
        elif isinstance(value, list):
            stack.extend((join(path, index), item) for index, item in enumerate(value))
    return None


# A lone surrogate (``"\ud800"``) is valid JSON syntax but not Unicode text: UTF-8, the pages and
# PostgreSQL cannot carry it. JSON text can only hold one as a ``\u`` escape, so the search below
# runs only when the text has an escape of a surrogate code unit (pairs are fine: they decode to
# one character).
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def lone_surrogate_at(value: Any, path: str = "") -> str | None:
    """The JSON Pointer of the first string holding a lone surrogate, or None; for an object key,
    the pointer of its object (a pointer holding the surrogate could not be printed)."""
    if isinstance(value, str):
        return path if _has_surrogate(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _has_surrogate(key):
                return path
            found = lone_surrogate_at(item, join(path, key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate_at(item, join(path, index))
            if found is not None:
                return found
    return None

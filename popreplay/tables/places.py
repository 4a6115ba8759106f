"""Placing an entry in a draft the way the recorder does (``buildEntry``/``placeEntry`` of
static/record.js, docs/recorder.md "Changes"): JSON Pointers and lists only, no rule."""

from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence


class PlaceError(ValueError):
    """The pointer does not lead to a place in the draft."""


def tokens(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PlaceError(f"{path!r} is not a JSON Pointer")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def _child(node: Any, token: str, *, make: bool) -> Any:
    if isinstance(node, list):
        if not token.isdigit() or int(token) >= len(node):
            raise PlaceError(f"no item {token}")
        return node[int(token)]
    if not isinstance(node, dict):
        raise PlaceError(f"nothing under {token!r}")
    if token not in node:
        if not make:
            raise PlaceError(f"no {token!r}")
        node[token] = {}
    return node[token]


def put(entry: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at ``path``, making the lists (a number comes next) and objects on the way
    (as record.js's ``put``)."""
    ts = tokens(path)
    node: Any = entry
    for token, after in zip(ts[:-1], ts[1:]):
        next_ = _get(node, token)
        if next_ is None:
            next_ = [] if after.isdigit() else {}
            _set(node, token, next_)
        node = next_
    _set(node, ts[-1], value)


def _get(node: Any, token: str) -> Any:
    if isinstance(node, list):
        return node[int(token)] if token.isdigit() and int(token) < len(node) else None
    return node.get(token)


def _set(node: Any, token: str, value: Any) -> None:
    if isinstance(node, list):
        index = int(token)
        while len(node) <= index:
            node.append(None)
        node[index] = value
    else:
        node[token] = value


def build(plan: Mapping[str, Any], parts: Mapping[int, Sequence[Any]]) -> dict[str, Any]:
    """The entry of ``plan`` from each slot's cards (``parts``: slot index -> cards)."""
    entry = copy.deepcopy(dict(plan.get("base") or {}))
    for index, slot in enumerate(plan["slots"]):
        cards = list(parts.get(index) or [])
        if cards:
            put(entry, slot["path"], cards[0] if slot.get("one") else cards)
    return entry


def place(log: dict[str, Any], at: str, how: str, value: Any) -> dict[str, Any]:
    """A copy of ``log`` with ``value`` appended to the list at ``at`` (``how == "append"``) or
    set there (``"set"``)."""
    return place_into(copy.deepcopy(log), at, how, value)


def place_into(out: dict[str, Any], at: str, how: str, value: Any) -> dict[str, Any]:
    """:func:`place` in ``out`` itself (a draft nobody else holds: a replay from the start)."""
    ts = tokens(at)
    if not ts:
        raise PlaceError("an entry cannot replace the whole draft")
    node: Any = out
    for token in ts[:-1]:
        node = _child(node, token, make=False)
    last = ts[-1]
    if how == "append":
        if isinstance(node, dict) and last not in node:
            node[last] = []
        target = _child(node, last, make=False)
        if not isinstance(target, list):
            raise PlaceError(f"{at} is not a list")
        target.append(copy.deepcopy(value))
    elif isinstance(node, list):
        if not last.isdigit() or int(last) > len(node):
            raise PlaceError(f"no item {last}")
        if int(last) == len(node):
            node.append(copy.deepcopy(value))
        else:
            node[int(last)] = copy.deepcopy(value)
    elif isinstance(node, dict):
        node[last] = copy.deepcopy(value)
    else:
        raise PlaceError(f"nothing under {last!r}")
    return out

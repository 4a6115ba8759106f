"""What a score sheet can claim, per game and mode: the fields the recorder's end screen asks.

Each game declares ``CLAIMABLE`` (mode -> fields) and answers ``Game.claimable(mode)``. A field is
``{"key", "kind", ...}`` where ``key`` is a key of ``claimed`` (the published schema) and ``kind``
is one of:

- ``"rounds"``: one whole number per round and player, at ``claimed.rounds[i][field]`` (``field``);
- ``"per-player"``: one whole number per player (``claimed[key][name]``); ``sum_of`` names a
  ``"rounds"`` field whose per-round numbers it adds up (a score sheet's total row);
- ``"players"``: a set of players (``claimed[key]`` a list of names);
- ``"player"``: one player (``claimed[key]`` a name);
- ``"choice"``: one of ``choices`` (the schema's values, in the order to offer them);
- ``"yes-no"``: ``true`` or ``false``.

Only what a player can read off a score sheet or say at the table is declared: nothing about
hidden cards, tie-break mechanics or counters nobody keeps. Labels are the pages' (the catalogue),
never these keys.
"""

from __future__ import annotations

from typing import Any

KINDS = ("rounds", "per-player", "players", "player", "choice", "yes-no")


def field(key: str, kind: str, **extra: Any) -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown claim kind {kind!r}")
    return {"key": key, "kind": kind, **extra}


def copy_fields(table: dict[str, list[dict[str, Any]]], mode: str) -> list[dict[str, Any]]:
    """A JSON-ready copy of the fields declared for ``mode`` (``[]`` for an unknown mode)."""
    return [{k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in f.items()}
            for f in table.get(mode, [])]

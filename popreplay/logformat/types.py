"""The log's envelope and the result object's top level as types, where the service reads them
(docs/log-format.md: *The envelope*, *The result object*). Typing only: the shapes themselves are
checked by ``popreplay.logformat`` (marshmallow) and made by the engine, whose results are plain
dicts (it is standard library only and does not import the service); :func:`as_result` is where
one becomes a :class:`Result` for the service (``popreplay.checking``, the one way in).

A game's body (``rounds``, ``events``, …) and an outcome are each game's own and stay
``dict[str, Any]``; ``meta`` is free data, of which the service reads two keys."""

from __future__ import annotations

from typing import Any, Mapping, NotRequired, Required, TypedDict, cast

__all__ = ["Claims", "Difference", "Envelope", "ErrorEntry", "Meta", "Result", "as_result"]


class Meta(TypedDict, total=False):
    """The keys of ``meta`` the service reads (any other key is free and kept as written)."""

    title: str | None
    played_at: str | None


class Envelope(TypedDict, total=False):
    """The keys every log has (``format``, ``game``, ``mode``, ``players``) or may have."""

    format: Required[str]
    game: Required[str]
    mode: Required[str]
    players: Required[list[str]]
    options: dict[str, Any] | None
    meta: Meta | None
    claimed: dict[str, Any] | None


class ErrorEntry(TypedDict):
    """One entry of ``errors``: exactly these five keys (``with_ids`` adds two, for the pages)."""

    code: str
    message: str
    round: int | None
    turn: int | None
    path: str


class Difference(TypedDict):
    field: str  # a JSON Pointer into the outcome
    claimed: Any
    computed: Any


class Claims(TypedDict):
    match: bool
    differences: list[Difference]


class Result(TypedDict):
    """The result object: ``status`` is complete | incomplete | illegal | invalid, ``legal`` true
    for the first two; ``game`` and ``mode`` are None for a log too broken to say them; ``steps``
    only in a replay."""

    game: str | None
    mode: str | None
    engine: str
    status: str
    legal: bool
    errors: list[ErrorEntry]
    outcome: dict[str, Any] | None
    claims: Claims | None
    steps: NotRequired[list[dict[str, Any]]]


def as_result(value: Mapping[str, Any]) -> Result:
    """The engine's result object (``build_result``, ``invalid_result``) as the service reads it:
    no copy, no check (the engine makes exactly these keys, docs/log-format.md)."""
    return cast(Result, value)

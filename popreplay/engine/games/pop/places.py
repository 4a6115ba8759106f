"""Where a card already is in a round, in words, for the messages of ``duplicate-card`` and
``not-in-hand`` (issue 16: a duplicate names who played or holds the other copy, and where).

Only called once a replay has failed, so it reads the log again instead of slowing the replay down
with a record of every card's place.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Iterator, Mapping

from ...messages import Msg, msg
from ...pointer import pointer
from .cards import QUEUES
from .messages import CHIEF_NAME


def earlier_places(log: Mapping[str, Any], index: int, card: int, stop: tuple, *,
                   names: list[str], draws_first: bool) -> list[tuple[Msg, str]]:
    """``(words, pointer)`` for each place of ``card`` in round ``index`` that the replay met
    before the place ``stop`` (the tokens of the failing value), in replay order."""
    found = []
    for tokens, words in _places(log["rounds"][index], index, card, names, draws_first):
        if tokens == stop:
            break
        found.append((words, pointer(*tokens)))
    return found


def describe(places: list[tuple[Msg, str]]) -> Msg | str:
    """``"Alice drew it in turn 3, then played it in turn 5 (see /rounds/0/…)"``: every place, the
    pointer of the latest."""
    if not places:
        return ""
    words = places[0][0]
    for text, _ in places[1:]:
        words = msg("pop.where.then", before=words, after=text)
    return msg("pop.where", places=words, path=places[-1][1])


def _places(data: Mapping[str, Any], index: int, card: int, names: list[str],
            draws_first: bool) -> Iterator[tuple[tuple, Msg]]:
    base = ("rounds", index)
    for r, row in enumerate(data.get("layout") or ()):
        for c, value in enumerate(row):
            if value == card:
                yield (*base, "layout", r, c), msg("pop.where.layout", row=r + 1,
                                                   queue=QUEUES[c])
    for key, name, cards in _by_player(data.get("hands"), names):
        for k, value in enumerate(cards or ()):
            if value == card:
                yield (*base, "hands", key, k), msg("pop.where.dealt", name=name)
    for t, turn in enumerate(data.get("turns") or ()):
        at = (*base, "turns", t)
        if draws_first:
            yield from _draws(turn, at, card, names, t + 1)
        for key, name, cards in _by_player(turn.get("plays"), names):
            for k, value in enumerate(cards or ()):
                if value == card:
                    yield (*at, "plays", key, k), msg("pop.where.played", name=name, turn=t + 1)
        for k, value in enumerate(turn.get("chief") or ()):
            if value == card:
                yield (*at, "chief", k), msg("pop.where.played", name=CHIEF_NAME, turn=t + 1)
        if not draws_first:
            yield from _draws(turn, at, card, names, t + 1)
    for key, name, value in _by_player(data.get("kept"), names):
        if value == card:
            yield (*base, "kept", key), msg("pop.where.keeps", name=name)


def _draws(turn: Mapping[str, Any], at: tuple, card: int, names: list[str],
           number: int) -> Iterator[tuple[tuple, Msg]]:
    for key, name, cards in _by_player(turn.get("draws"), names):
        for k, value in enumerate(cards or ()):
            if value == card:
                yield (*at, "draws", key, k), msg("pop.where.drew", name=name, turn=number)


def _by_player(mapping: Any, names: list[str]) -> list[tuple[str, str, Any]]:
    """``(raw key, player's name, value)`` in player order (the replay's order)."""
    if not isinstance(mapping, Mapping):
        return []
    order = {unicodedata.normalize("NFC", name): position for position, name in enumerate(names)}
    rows = []
    for key, value in mapping.items():
        position = order.get(unicodedata.normalize("NFC", key), len(names))
        rows.append((position, key, names[position] if position < len(names) else key, value))
    rows.sort(key=lambda row: row[0])
    return [(key, name, value) for _, key, name, value in rows]

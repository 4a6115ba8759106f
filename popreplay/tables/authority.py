"""Who may make which entry (docs/table.md "Who may make which entry"): the one place where a
table decides whether this phone may send this entry, before the engine is asked whether it is
legal.

- The host may enter anything (a move of a seat nobody holds, a seat's forgotten card).
- A seat enters its own moves and cards (the game's kit says whose an entry is:
  ``popreplay/games/<g>/table.py``, ``authors``), and another player's only while nobody holds
  that player's seat.
- What is nobody's own (POP!'s layout and the Chief's cards, slap's flips: the kit's
  ``SHARED_BY = "keeper"``) is entered by one seat at a time, the table's *keeper* (the first seat
  the host's phone takes, until the host names another), or the host; cube's and Bloops' (a
  claim, the reveal) by any seat.
- A ``place`` entry adds the next entry or fills what is still empty (an unseen card, a key not
  there yet): changing what the draft holds already is a correction (``POST /corrections``),
  recorded, by that entry's seat or the host (:func:`corrections.may_change`).
- A slot already filled is not filled again with other cards: the refusal names who filled it.

Every check here reads the draft and the table only: no rule (the engine judges the cards).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, Mapping, Sequence

from ..games import KITS
from .model import Viewer
from .places import PlaceError, tokens
from .rows import Snapshot


@dataclass(frozen=True)
class Authors:
    """Whose an entry is: the players whose moves or cards it holds, and whether it holds what is
    nobody's own (``shared``)."""

    players: frozenset[str] = frozenset()
    shared: bool = False


@dataclass(frozen=True)
class Denied:
    """Why this phone may not make this entry: ``reason`` is ``forbidden`` (another's entry),
    ``filled`` (a slot filled already, by ``by``) or ``correction`` (it changes the past)."""

    reason: str
    message: str
    path: str
    by: str | None = None


@lru_cache(maxsize=None)
def _kit(game: str) -> ModuleType | None:
    kit = KITS.get(game)
    if kit is None or kit.table is None:
        return None
    return importlib.import_module(f"popreplay.games.{game}.{kit.table}")


def shared_by(game: str) -> str:
    """Who enters what is nobody's own in ``game``: ``"keeper"`` or ``"any"`` seat."""
    return str(getattr(_kit(game), "SHARED_BY", "keeper"))


def authors(game: str, log: Mapping[str, Any], at: str, value: Any) -> Authors:
    """Whose a ``place`` at ``at`` of ``value`` is (the kit's ``authors``; without one: nobody's
    own, the keeper's)."""
    find = getattr(_kit(game), "authors", None)
    if find is None:
        return Authors(shared=True)
    players, shared = find(log, at, value)
    return Authors(frozenset(players), bool(shared))


# --- the keeper ----------------------------------------------------------------------------------

def keeper(table: Snapshot | Any) -> str | None:
    """The seat that keeps the shared entries now (``None``: the host only)."""
    return table.keeper or None


def viewer(role: str, player: str | None, table: Snapshot | Any) -> Viewer:
    """Who asks, with whether that seat is the keeper."""
    return Viewer(role, player, keeper=role == "seat" and player is not None
                  and player == keeper(table))


def may_fill(slot: Mapping[str, Any], who: Viewer, *, taken: Sequence[str]) -> bool:
    """A player's slot: that seat (or the host while nobody holds the seat); a slot of nobody's
    (POP!'s layout, the Chief's cards): the keeper or the host."""
    owner = slot.get("player")
    if owner is None:
        return who.host or who.keeper
    return owner == who.player or (who.host and owner not in taken)


# --- an entry ------------------------------------------------------------------------------------

def check(state: Any, who: Viewer, entry: Mapping[str, Any], *,
          taken: Sequence[str]) -> Denied | None:
    """Why ``who`` may not send ``entry`` on ``state`` (``None``: it may; the engine judges it
    next). Corrections are judged by :func:`corrections.may_change`."""
    kind = entry.get("type")
    if kind == "part":
        return _check_part(state, who, entry, taken=taken)
    if kind == "place":
        return _check_place(state, who, entry, taken=taken)
    return None


def _check_part(state: Any, who: Viewer, entry: Mapping[str, Any], *,
                taken: Sequence[str]) -> Denied | None:
    kind = entry.get("entry")
    plan = state.plans.get(kind) if isinstance(kind, str) else None
    slots = entry.get("slots")
    if plan is None or not isinstance(slots, dict):
        return None  # not an entry that can come now: the decision says so
    waiting = state.parts.get(kind, {})
    for name, cards in slots.items():
        if not str(name).isdigit() or int(name) >= len(plan["slots"]):
            continue
        slot = plan["slots"][int(name)]
        path = f"/entry/slots/{name}"
        if not may_fill(slot, who, taken=taken):
            owner = slot.get("player")
            if owner is None:
                return Denied("forbidden", "This slot is entered by the table's keeper (the "
                              "seat the host names) or the host.", path)
            return Denied("forbidden", f"This slot is {owner}'s: only {owner}'s seat enters it "
                          "(or the host while nobody holds it).", path)
        part = waiting.get(int(name))
        if part is not None and (list(part.cards) != list(cards) if isinstance(cards, list)
                                 else True):
            filler = part.by or "the host"
            mine = part.by is not None and part.by == who.player
            named = "by you" if mine else f"by {filler}"
            return Denied("filled", f"This slot is filled already ({named}): it is changed by "
                          "a correction once the entry is whole.", path, by=filler)
    return None


def _check_place(state: Any, who: Viewer, entry: Mapping[str, Any], *,
                 taken: Sequence[str]) -> Denied | None:
    at, how, value = entry.get("at"), entry.get("how"), entry.get("value")
    if not isinstance(at, str):
        return None  # not a place entry: the decision says so
    try:
        path = tokens(at)
    except PlaceError:
        return None
    if not path:
        return Denied("correction", "An entry cannot replace the whole draft.", "/entry/at")
    if how == "set":
        found, now = _get(state.log, path)
        if found and not empty(now):
            return Denied("correction", f"{at} holds an earlier entry already: change it with a "
                          "correction (POST /corrections), as its seat or the host.", "/entry/at")
    elif how == "append":
        found, now = _get(state.log, path)
        if found and not isinstance(now, list):
            return None  # not a list: the decision says so
    if who.host:
        return None
    made = authors(state.game, state.log, at, value)
    for player in sorted(made.players):
        if player != who.player and player in taken:
            return Denied("forbidden", f"This is {player}'s entry: only {player}'s seat enters "
                          "it (or the host).", "/entry", by=player)
    if made.shared and not who.keeper and shared_by(state.game) == "keeper":
        return Denied("forbidden", "This entry is the table's keeper's (the recording phone): "
                      "the host, or the seat the host names.", "/entry")
    return None


def _get(node: Any, path: list[str]) -> tuple[bool, Any]:
    for token in path:
        if isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return False, None
            node = node[int(token)]
        elif isinstance(node, dict):
            if token not in node:
                return False, None
            node = node[token]
        else:
            return False, None
    return True, node


def empty(value: Any) -> bool:
    """Nothing entered yet: null, an empty list or object, or only unseen cards (nulls)."""
    if value is None:
        return True
    if isinstance(value, list):
        return all(empty(v) for v in value)
    if isinstance(value, dict):
        return all(empty(v) for v in value.values())
    return False

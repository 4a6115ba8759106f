"""Entries that several seats fill together (POP!: a round's layout and hands, a turn's revealed
cards): the engine's plan (``choices.next[kind]`` with its slots) says who fills which slot; the
cards are asked of the engine slot after slot (``pending``), as the recorder's panel does.

A seat's cards are checked at once without the other seats' cards (they are hidden): the slots
before its own are filled with stand-in cards the engine offers (never the seat's own cards), so
the engine's answer cannot tell a seat what another has chosen. The whole entry is checked again
with every real card when its last slot is filled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..engine import get_game
from . import games


@dataclass(frozen=True)
class Part:
    seq: int
    by: str | None
    cards: tuple[Any, ...]


def plan_key(kind: str, plan: Mapping[str, Any]) -> str:
    """Which entry a part belongs to: a part for an entry already made (or never made) is stale."""
    return f"{kind}|{plan['at']}|{plan.get('round')}|{plan.get('turn')}"


def slot_size(slot: Mapping[str, Any]) -> int:
    return 1 if slot.get("one") else int(slot["count"])


def visible(game: str, slot: Mapping[str, Any], part: Part, *, player: str | None,
            host: bool) -> bool:
    """May this phone see the part's cards before the entry is whole? Its own part, or a part of
    a slot that lies face up (a role the game's kit names public, ``games.public_roles``)."""
    if slot.get("role") in games.public_roles(game):
        return True
    return part.by == player and (player is not None or host)


def known_to(game: str, plan: Mapping[str, Any], parts: Mapping[int, Part], *,
             player: str | None, host: bool) -> dict[int, list[Any]]:
    return {index: list(part.cards) for index, part in parts.items()
            if visible(game, plan["slots"][index], part, player=player, host=host)}


def may_fill(slot: Mapping[str, Any], *, player: str | None, host: bool,
             taken: Sequence[str]) -> bool:
    """A player's slot: that seat (or the host while nobody holds the seat); a slot of nobody's
    (layout, Chief): any seat or the host."""
    owner = slot.get("player")
    if owner is None:
        return host or player is not None
    return owner == player or (host and owner not in taken)


def asker(*, player: str | None, host: bool) -> str | None:
    """Whom the engine judges a pending entry for: a seat's player (the others' hands unseen),
    ``""`` for a spectator (no hand seen), ``None`` for the host without a seat, who may read the
    whole draft (``GET /log``)."""
    if host and player is None:
        return None
    return player or ""


def ask(game: str, log: Mapping[str, Any], kind: str, cards: Sequence[Any], *,
        hands: bool, asker: str | None = None) -> dict[str, Any]:
    """The engine's answer for these cards of the entry, as ``asker`` (a seat's player) may know
    the draft (``pending.as``: the others' hands unseen); ``None``: with every card (the host,
    the whole entry)."""
    pending = {"entry": kind, "cards": list(cards), **games.pending_extra(game, kind, hands=hands)}
    if asker is not None:
        pending["as"] = asker
    return get_game(game).choices(log, pending=pending)


def stand_ins(game: str, log: Mapping[str, Any], kind: str, plan: Mapping[str, Any],
              upto: int, avoid: set[Any], *, hands: bool,
              known: Mapping[int, Sequence[Any]] | None = None,
              asker: str | None = None) -> list[Any] | None:
    """Cards the engine accepts in slots ``0 … upto-1``: a slot's ``known`` cards (the ones the
    asking seat may see), else stand-ins the engine offers that are none of ``avoid`` (nor a known
    card); ``None`` when it offers none."""
    known = known or {}
    avoid = set(avoid) | {c for cards in known.values() for c in cards}
    cards: list[Any] = []
    for index in range(upto):
        if index in known:
            cards.extend(known[index])
            continue
        for _ in range(slot_size(plan["slots"][index])):
            answer = ask(game, log, kind, cards, hands=hands, asker=asker)
            offered = (answer.get("next") or {}).get(kind, {}).get("cards") or []
            pick = next((c for c in offered if c not in avoid and c not in cards), None)
            if pick is None:
                return None
            cards.append(pick)
    return cards


def offers(game: str, log: Mapping[str, Any], kind: str, plan: Mapping[str, Any], index: int,
           *, hands: bool, known: Mapping[int, Sequence[Any]] | None = None,
           asker: str | None = None) -> list[Any] | None:
    """The cards the engine offers for slot ``index``'s first card, knowing only what the asking
    seat may see (``known``): asked twice, with two sets of stand-ins that share no card, and
    put together, so that no card is left out only because it stood in for a hidden one."""
    seen: list[Any] = []
    used: set[Any] = set()
    for _ in range(2):
        before = stand_ins(game, log, kind, plan, index, used, hands=hands, known=known,
                           asker=asker)
        if before is None:
            continue
        used |= set(before) - {c for cards in (known or {}).values() for c in cards}
        answer = ask(game, log, kind, before, hands=hands, asker=asker)
        for card in (answer.get("next") or {}).get(kind, {}).get("cards") or []:
            if card not in seen:
                seen.append(card)
    return sorted(seen, key=lambda c: (c is None, c)) if seen else None


def precheck(game: str, log: Mapping[str, Any], kind: str, plan: Mapping[str, Any],
             parts: Mapping[int, Sequence[Any]], *, hands: bool,
             known: Mapping[int, Sequence[Any]] | None = None,
             asker: str | None = None) -> dict[str, Any] | None:
    """The engine's refusal of these slots' cards (its ``pending`` error, the pointer made to
    point into the part: ``/entry/slots/<slot>/<k>``), or ``None``."""
    first = min(parts)
    mine = [c for index in sorted(parts) for c in parts[index]]
    if sorted(parts) != list(range(first, first + len(parts))):
        return None  # slots apart: judged when the entry is whole
    before = stand_ins(game, log, kind, plan, first, set(mine), hands=hands, known=known,
                       asker=asker)
    if before is None:
        return None
    answer = ask(game, log, kind, before + mine, hands=hands, asker=asker)
    error = answer.get("error")
    if not error:
        return None
    at = _card_index(error)
    if at is None or at < len(before):
        return None  # a stand-in (or a known card) refused: the engine needs the others' cards to judge
    return _in_part(error, plan, at)


def whole_check(game: str, log: Mapping[str, Any], kind: str, plan: Mapping[str, Any],
                parts: Mapping[int, Sequence[Any]], *,
                hands: bool) -> tuple[int, dict[str, Any]] | None:
    """The first slot the engine refuses once every card is known, with its error, or ``None``."""
    cards = [c for index in range(len(plan["slots"])) for c in parts.get(index, ())]
    error = ask(game, log, kind, cards, hands=hands).get("error")
    if not error:
        return None
    at = _card_index(error)
    if at is None:
        return 0, error
    return slot_of(plan, at), _in_part(error, plan, at)


def slot_of(plan: Mapping[str, Any], card_index: int) -> int:
    total = 0
    for index, slot in enumerate(plan["slots"]):
        total += slot_size(slot)
        if card_index < total:
            return index
    return len(plan["slots"]) - 1


def _card_index(error: Mapping[str, Any]) -> int | None:
    path = str(error.get("path") or "")
    if path.startswith("/pending/cards/"):
        tail = path.rsplit("/", 1)[1]
        return int(tail) if tail.isdigit() else None
    return None


def _in_part(error: Mapping[str, Any], plan: Mapping[str, Any], card_index: int) -> dict[str, Any]:
    index = slot_of(plan, card_index)
    k = card_index - sum(slot_size(s) for s in plan["slots"][:index])
    return {**error, "path": f"/entry/slots/{index}/{k}"}

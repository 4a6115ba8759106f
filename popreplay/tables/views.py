"""What each phone sees of a table: the draft with the hands of the rounds still played taken out
(a seat gets its own hand beside it), the entries being gathered with who has filled which slot
(the cards only to the seat that entered them), the result, and the entries themselves."""

from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy.orm import Session

from ..caching import BoundedCache
from ..db.tables import TableEntry, TableRecord
from ..engine import build_result, get_game
from ..drafts import draft_shape
from ..i18n import render
from . import authority, corrections, gather, games
from .places import tokens
from .model import Viewer, players_of
from .rows import Row, Snapshot, engine_choices, entries
from .shapes import Gathering, GatheringSlot, SeatView, TableView
from .state import State


def result_of(state: State, log: dict[str, Any] | None = None) -> dict[str, Any] | None:
    exact, _ = draft_shape(state.log if log is None else log)
    if exact is None:
        return None
    return build_result(exact, get_game(state.game).replay(exact, with_steps=False))


def public_log(state: State) -> dict[str, Any]:
    return games.redacted(state.game, state.log, state.open_rounds)


def known_log(state: State, viewer: Viewer) -> dict[str, Any]:
    """The draft as ``viewer``'s screen shows it (:func:`games.known_to`; the host without a seat
    sees what a spectator sees, though it may read the whole draft with ``GET /log``), kept per
    table, seq and player for the games with private cards."""
    if games.private_cards(state.game):
        return seat_view(state, viewer.player)["log"]
    return public_log(state)


SEEN_CACHE = 256
_seen: BoundedCache[tuple[str, int, str | None], SeatView] = BoundedCache(
    max_entries=SEEN_CACHE)


def seat_view(state: State, player: str | None) -> SeatView:
    """cube, Bloops (games with private cards): what ``player`` (``None``: a spectator, the host
    without a seat) sees of the draft, the engine's ``choices`` and result for that draft (so
    that no note, offer or score tells another seat's card). Kept per (table, seq, player)."""
    return _seen.get_or_compute((state.table, state.seq, player),
                                lambda: _seat_view(state, player))


def _seat_view(state: State, player: str | None) -> SeatView:
    log = games.seen_by(state.game, state.log, state.choices, player)
    if log is state.log:
        return {"log": log, "choices": state.choices, "result": result_of(state)}
    return {"log": log, "choices": engine_choices(state.game, log),
            "result": result_of(state, log)}


def view(table: TableRecord | Snapshot, state: State, viewer: Viewer, *,
         with_offers: bool = True) -> TableView:
    """The table as ``viewer`` may see it (JSON-ready; messages not localized yet)."""
    taken = list(table.seat_tokens or {})
    hands = state.choices.get("hands") if isinstance(state.choices.get("hands"), dict) else None
    private = games.private_cards(table.game)
    out: TableView = {
        "table": table.id, "seq": state.seq, "status": table.status,
        "stored": table.stored_slug, "game": table.game, "mode": table.mode,
        "players": players_of(table), "hands_recorded": state.hands,
        "seats": [{"player": p, "taken": p in taken} for p in players_of(table)],
        "you": {"role": viewer.role, "player": viewer.player},
        "keeper": authority.keeper(table), "shared_by": authority.shared_by(table.game),
        "log": None, "result": None, "choices": None,
        "over": bool(state.choices.get("over")),
        "error": error_for(state, viewer),
        "hand": hands.get(viewer.player) if hands and viewer.player and isinstance(
            hands.get(viewer.player), list) else None,
        "gathering": {},
        "refused": state.dropped.get(viewer.player) if viewer.player else None,
        "corrections": corrections.shown(state.corrections, known_log(state, viewer),
                                         player=viewer.player),
        "private": private,
    }
    if private:
        seen = seat_view(state, viewer.player)
        out["log"], out["result"], out["choices"] = seen["log"], seen["result"], seen["choices"]
    else:
        out["log"], out["result"] = public_log(state), result_of(state)
        out["choices"] = None if table.game in games.GATHERED else state.choices
    for kind, plan in state.plans.items():
        parts = state.parts.get(kind, {})
        slots: list[GatheringSlot] = []
        for index, slot in enumerate(plan["slots"]):
            part = parts.get(index)
            mine = authority.may_fill(slot, viewer, taken=taken)  # tables/authority.py
            item: GatheringSlot = {
                "index": index, "role": slot["role"], "player": slot.get("player"),
                "count": gather.slot_size(slot), "filled": part is not None,
                "by": part.by if part is not None else None, "yours": mine,
                "cards": list(part.cards) if part is not None and gather.visible(
                    table.game, slot, part, player=viewer.player, host=viewer.host) else None}
            if mine and with_offers:
                item["offers"] = offers_for(state, kind, plan, index, viewer)
            slots.append(item)
        gathering: Gathering = {"round": plan.get("round"), "turn": plan.get("turn"),
                                "slots": slots}
        out["gathering"][kind] = gathering
    return out


CLASH: dict[str, Any] = {
    "code": "hidden-clash", "message": render("core.hidden-clash", {}, "en"),
    "message_id": "core.hidden-clash", "params": {}, "path": None}


def error_for(state: State, viewer: Viewer) -> dict[str, Any] | None:
    """The engine's error of the draft as ``viewer`` may know it; when only the whole draft has
    one (an entry taken against what its seat knew, that clashes with a card it could not see),
    :data:`CLASH`, which names no card and no place. The host sees the engine's error."""
    error = state.choices.get("error")
    if error is None or (viewer.host and viewer.player is None):
        return error
    if games.private_cards(state.game):
        mine = seat_view(state, viewer.player)["choices"].get("error")
    else:
        public = public_log(state)
        mine = error if public is state.log else engine_choices(state.game, public).get("error")
    return mine or dict(CLASH)


def offers_for(state: State, kind: str, plan: Mapping[str, Any], index: int,
               viewer: Viewer) -> list[Any] | None:
    """The engine's offers for a slot, as ``viewer`` may know the draft (the engine's
    ``pending.as``: another seat's hand is unseen to it; the host's screen sees no hand), so that
    the offers of a draw, of the Chief's cards or of any slot never tell one hand from another."""
    known = gather.known_to(state.game, plan, state.parts.get(kind, {}),
                            player=viewer.player, host=viewer.host)
    return gather.offers(state.game, state.log, kind, plan, index, hands=state.hands,
                         known=known, asker=viewer.player or "")


def entry_view(row: TableEntry | Row, state: State, viewer: Viewer) -> dict[str, Any]:
    """One entry as ``viewer`` may see it: a part's cards only to its sender; a placed entry as
    the public draft holds it (no hand of a round still played)."""
    out: dict[str, Any] = {"seq": row.seq, "id": row.client_id, "by": row.by, "kind": row.kind}
    body = row.body
    if row.kind == "part":
        out["entry"] = body["entry"]
        out["slots"] = sorted(int(k) for k in body["slots"])
        if row.by is not None and row.by == viewer.player:
            out["cards"] = body["slots"]
    elif row.kind == "drop":
        out["entry"] = body["key"].split("|", 1)[0]
        out["slot"] = body["slot"]
        if body.get("player") is not None and body["player"] == viewer.player:
            out["error"] = body["error"]
    elif row.kind == corrections.KIND:
        out.update(corrections.entry_view(row, known_log(state, viewer), player=viewer.player))
    else:
        out.update(at=body["at"], how=body["how"])
        out["value"] = _public_value(state, body, viewer)
    return out


def _public_value(state: State, body: Mapping[str, Any], viewer: Viewer) -> Any:
    if games.private_cards(state.game):
        shown: Any = seat_view(state, viewer.player)["log"]
        if shown is state.log:
            return body["value"]
    elif not state.open_rounds:
        return body["value"]
    else:
        shown = public_log(state)
    path = body["at"] + (f"/{body['index']}" if body["how"] == "append" else "")
    node: Any = shown
    try:
        for token in tokens(path):
            node = node[int(token)] if isinstance(node, list) else node[token]
    except (LookupError, ValueError, TypeError):
        return None  # an entry the draft no longer holds where it was put
    return node


def entries_view(session: Session, table: TableRecord, state: State, viewer: Viewer, *,
                 after: int) -> list[dict[str, Any]]:
    return [entry_view(row, state, viewer) for row in entries(session, table.id, after=after)]

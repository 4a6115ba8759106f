"""A table's state: its entries replayed (pointer placements only), the engine's choices for the
draft and the parts waiting for the rest of their entry. Kept per (table, last sequence number):
it never changes once computed."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.tables import TableEntry, TableRecord
from ..drafts import draft_shape
from ..engine import get_game
from . import corrections, games
from .gather import Part, ask, plan_key
from .places import place

CACHE_SIZE = 256


@dataclass(frozen=True)
class State:
    table: str
    game: str
    seq: int
    hands: bool  # hands are recorded (POP!)
    log: dict[str, Any]
    choices: dict[str, Any]
    plans: dict[str, dict[str, Any]]  # the entries filled by parts now (kind -> plan)
    parts: dict[str, dict[int, Part]]  # kind -> slot -> the part waiting
    last_change: int  # the sequence number of the last entry that changed the draft
    dropped: dict[str, dict[str, Any]] = field(default_factory=dict)  # player -> refusal
    corrections: list[dict[str, Any]] = field(default_factory=list)  # corrections.history

    @property
    def open_rounds(self) -> set[int]:
        return games.private_parts(self.game, self.log, self.choices)


_cache: OrderedDict[tuple[str, int], State] = OrderedDict()
_lock = threading.Lock()


def entries(session: Session, table_id: str, *, after: int = 0) -> list[TableEntry]:
    return list(session.scalars(select(TableEntry).where(
        TableEntry.table_id == table_id, TableEntry.seq > after).order_by(TableEntry.seq)))


def load(session: Session, table: TableRecord) -> State:
    key = (table.id, table.last_seq)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    state = build(table, entries(session, table.id))
    with _lock:
        _cache[key] = state
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return state


def build(table: TableRecord, rows: list[TableEntry]) -> State:
    hands = bool(table.start.get("hands"))
    log = table.start["log"]
    raw_parts: dict[tuple[str, int], Part] = {}
    dropped: dict[str, dict[str, Any]] = {}
    last_change = 0
    seq = 0
    # corrections: every entry replayed with its corrected body, from the start (docs/table.md)
    corrected = corrections.bodies(rows)
    for row in rows:
        seq = row.seq
        body = corrected.get(row.seq, row.body)
        if row.kind == "place":
            log = place(log, body["at"], body["how"], body["value"])
            last_change = row.seq
        elif row.kind == "part":
            for index, cards in body["slots"].items():
                raw_parts[(body["key"], int(index))] = Part(row.seq, row.by, tuple(cards))
        elif row.kind == "drop":
            raw_parts.pop((body["key"], body["slot"]), None)
            if body.get("player") is not None:
                dropped[body["player"]] = {"seq": row.seq, "error": body["error"]}
        elif row.kind == corrections.KIND:
            last_change = row.seq
    choices = engine_choices(table.game, log)
    plans: dict[str, dict[str, Any]] = {}
    for kind in games.GATHERED.get(table.game, ()):
        if kind in (choices.get("next") or {}):
            answer = ask(table.game, log, kind, [], hands=hands)
            plan = (answer.get("next") or {}).get(kind)
            if plan is not None and plan.get("slots"):
                plans[kind] = plan
    parts = {kind: {index: part for (key, index), part in raw_parts.items()
                    if key == plan_key(kind, plan)} for kind, plan in plans.items()}
    return State(table=table.id, game=table.game, seq=seq, hands=hands, log=log,
                 choices=choices, plans=plans, parts=parts, last_change=last_change,
                 dropped=dropped, corrections=corrections.history(rows))


def engine_choices(game: str, log: dict[str, Any]) -> dict[str, Any]:
    exact, errors = draft_shape(log)
    if exact is None:
        return {"error": errors[0].to_dict(), "next": {}}
    return get_game(game).choices(exact)

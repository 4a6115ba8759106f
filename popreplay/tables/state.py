"""A table's state: its entries folded one row at a time (pointer placements only), the engine's
choices for the draft and the parts waiting for the rest of their entry.

States are kept per (table, last sequence number): a state never changes once computed, and the
state after entry n+1 is made from the kept state after entry n by folding only the new rows
(:func:`advance`) with the same step per row as a build from the start (:func:`build`). Adding an
entry kind is one step function in :data:`STEPS`. A kind that changes an *earlier* entry (a
correction) cannot be folded on top of the kept state: it is registered in :data:`REWRITES` too,
and a state with such a row among its new rows is built again from the start, every row first
rewritten by it (the earlier entry changed, the correction's own step then does what is left).

The engine work (the engine's ``choices``, a plan per gathered entry) is done beside the request
within its budget (popreplay/budget.py) when ``load`` is given a ``wait``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable

from sqlalchemy.orm import Session

from .. import budget
from ..caching import BoundedCache
from ..db.tables import TableEntry, TableRecord
from . import corrections, games
from .rows import Row, Snapshot, engine_choices, entries  # noqa: F401  (states.Row, …)
from .gather import Part, ask, plan_key
from .places import place, place_into
from .shapes import Correction


def size_of(value: Any) -> int:
    """The bytes of ``value`` as compact JSON (UTF-8)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))

CACHE_SIZE = 256  # states kept per process (LRU), of every table
KEEP_BEHIND = 4  # of one table, the states more than this many entries before its latest are let go


@dataclass
class Fold:
    """The rows folded so far: the draft, every part by (plan key, slot), the refusals."""

    log: dict[str, Any]
    raw_parts: dict[tuple[str, int], Part] = field(default_factory=dict)
    dropped: dict[str, dict[str, Any]] = field(default_factory=dict)
    last_change: int = 0  # the sequence number of the last row that changed the draft
    seq: int = 0
    corrections: list[Correction] = field(default_factory=list)  # corrections.history
    size: int = 0  # the draft's bytes (its start's and every value placed: docs/table.md "Limits")
    owned: bool = False  # ``log`` is this fold's own: placed into, not copied (a build)

    def copy(self) -> Fold:
        """A fold to go on from, leaving this one (a kept state's) as it is: the first placement
        copies the draft it changes, the dicts are copied here."""
        return Fold(self.log, dict(self.raw_parts), dict(self.dropped), self.last_change,
                    self.seq, list(self.corrections), self.size)


# --- one step per row kind -----------------------------------------------------------------------

def _step_place(fold: Fold, row: Row) -> None:
    body = row.body
    if fold.owned:  # a draft nobody else holds: no copy of the whole draft per row
        place_into(fold.log, body["at"], body["how"], body["value"])
    else:
        fold.log, fold.owned = place(fold.log, body["at"], body["how"], body["value"]), True
    fold.size += size_of(body["value"])
    fold.last_change = row.seq


def _step_part(fold: Fold, row: Row) -> None:
    for index, cards in row.body["slots"].items():
        fold.raw_parts[(row.body["key"], int(index))] = Part(row.seq, row.by, tuple(cards))


def _step_drop(fold: Fold, row: Row) -> None:
    body = row.body
    fold.raw_parts.pop((body["key"], body["slot"]), None)
    if body.get("player") is not None:
        fold.dropped[body["player"]] = {"seq": row.seq, "error": body["error"]}


def _step_correct(fold: Fold, row: Row) -> None:
    """A correction: the earlier entries it changed were rewritten before the build
    (:func:`_rewrite_corrected`); here it is only kept in the history."""
    fold.last_change = row.seq
    fold.corrections.extend(corrections.history([row]))


def _rewrite_corrected(rows: list[Row]) -> list[Row]:
    """Every entry with its corrected body (a later correction wins; docs/table.md)."""
    corrected = corrections.bodies(rows)
    return [replace(row, body=corrected[row.seq]) if row.seq in corrected else row
            for row in rows]


Step = Callable[[Fold, Row], None]
# kind -> what one row of it does to the fold (the full build and the incremental path both)
STEPS: dict[str, Step] = {"place": _step_place, "part": _step_part, "drop": _step_drop,
                          corrections.KIND: _step_correct}
# kinds that change an earlier entry -> how they rewrite the whole list of rows before a build
# from the start (their own step then does what is left, often nothing)
REWRITES: dict[str, Callable[[list[Row]], list[Row]]] = {corrections.KIND: _rewrite_corrected}


def step(fold: Fold, row: Row) -> None:
    try:
        apply = STEPS[row.kind]
    except KeyError:
        raise ValueError(f"table {row.kind!r} entries are not known here") from None
    apply(fold, row)
    fold.seq = row.seq


def fold_rows(fold: Fold, rows: Iterable[Row]) -> Fold:
    for row in rows:
        step(fold, row)
    return fold


# --- the state -----------------------------------------------------------------------------------

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
    corrections: list[Correction] = field(default_factory=list)  # corrections.history
    fold: Fold | None = field(default=None, compare=False, repr=False)  # to go on from

    @property
    def size(self) -> int:
        """The draft's bytes, about (its start and every value placed since)."""
        return self.fold.size if self.fold is not None else size_of(self.log)

    @property
    def open_rounds(self) -> set[int]:
        return games.private_parts(self.game, self.log, self.choices)


def build(table: TableRecord | Snapshot, rows: Iterable[TableEntry | Row]) -> State:
    """The state after ``rows`` (every row of the table, in order), from the table's start."""
    snap = Snapshot.of(table)
    plain = [Row.of(r) for r in rows]
    for kind, rewrite in REWRITES.items():
        if any(r.kind == kind for r in plain):
            plain = rewrite(plain)
    start = dict(snap.start["log"])
    return finish(snap, fold_rows(Fold(start, size=size_of(start)), plain))


def advance(table: TableRecord | Snapshot, state: State,
            rows: Iterable[TableEntry | Row]) -> State | None:
    """The state after ``rows`` (the rows after ``state.seq``, in order) from the kept
    ``state``, or ``None`` when one of them changes an earlier entry (build from the start)."""
    snap = Snapshot.of(table)
    plain = [Row.of(r) for r in rows]
    if state.fold is None or any(r.kind in REWRITES for r in plain):
        return None
    if not plain:
        return state
    return finish(snap, fold_rows(state.fold.copy(), plain))


def finish(table: Snapshot, fold: Fold) -> State:
    """The engine's part: its choices for the folded draft and the plans of the gathered entries
    (the parts of the current plans only)."""
    hands = bool(table.start.get("hands"))
    log = fold.log
    choices = engine_choices(table.game, log)
    plans: dict[str, dict[str, Any]] = {}
    for kind in games.GATHERED.get(table.game, ()):
        if kind in (choices.get("next") or {}):
            answer = ask(table.game, log, kind, [], hands=hands)
            plan = (answer.get("next") or {}).get(kind)
            if plan is not None and plan.get("slots"):
                plans[kind] = plan
    parts = {kind: {index: part for (key, index), part in fold.raw_parts.items()
                    if key == plan_key(kind, plan)} for kind, plan in plans.items()}
    return State(table=table.id, game=table.game, seq=fold.seq, hands=hands, log=log,
                 choices=choices, plans=plans, parts=parts, last_change=fold.last_change,
                 dropped=dict(fold.dropped), corrections=list(fold.corrections), fold=fold)


# --- kept states ---------------------------------------------------------------------------------

# a BoundedCache's lock is a real one even where gevent patched `threading`: states are kept
# from the engine's native thread (popreplay/budget.py) and read from greenlets
_cache: BoundedCache[tuple[str, int], State] = BoundedCache(max_entries=CACHE_SIZE)


def kept(table_id: str, seq: int) -> State | None:
    return _cache.get((table_id, seq))


def keep(state: State) -> State:
    """Keep ``state`` (and, of its table, only the few states just before it: the next entry
    starts from the latest, so the cache holds many tables' latest states)."""
    # the table's older states go first, so that they make room before any other table's
    _cache.discard(lambda key: key[0] == state.table and key[1] < state.seq - KEEP_BEHIND)
    _cache.put((state.table, state.seq), state)
    return state


def latest_before(table_id: str, seq: int) -> State | None:
    """The kept state of this table with the highest sequence number below ``seq``."""
    found = [s for s in _cache.values() if s.table == table_id and s.seq < seq]
    return max(found, key=lambda s: s.seq, default=None)


def forget(table_id: str | None = None) -> None:
    """Forget the kept states (of one table; tests)."""
    _cache.discard(lambda key: table_id is None or key[0] == table_id)


def load(session: Session, table: TableRecord | Snapshot, *, wait: float | None = None) -> State:
    """The table's state at its last sequence number (see :func:`loader`)."""
    return loader(session, table)(wait)


def loader(session: Session, table: TableRecord | Snapshot) -> Callable[[float | None], State]:
    """Reads now what the table's state at its last sequence number needs; the function it
    returns does the engine's part (no database: a stream gives its connection back first).

    The state is kept, or made from the last kept state of this table and the rows after it,
    or from the start (no kept state, or a new row changes an earlier entry). The engine's work
    runs within ``wait`` seconds beside the request (``None``: in the caller); past it
    :class:`popreplay.budget.Busy` (the work goes on and its state is kept for the retry)."""
    snap = Snapshot.of(table)
    state = kept(snap.id, snap.last_seq)
    if state is not None:
        return lambda wait: state
    base = latest_before(snap.id, snap.last_seq)
    rows = [Row.of(r) for r in entries(session, snap.id, after=base.seq if base else 0,
                                       upto=snap.last_seq)]
    if base is not None and any(r.kind in REWRITES for r in rows):
        base, rows = None, [Row.of(r) for r in entries(session, snap.id, upto=snap.last_seq)]

    def compute(wait: float | None) -> State:
        if base is not None:
            return budget.run(("table-state", snap.id, snap.last_seq), _advanced, snap, base,
                              rows, wait=wait)
        return budget.run(("table-state", snap.id, snap.last_seq), _built, snap, rows,
                          wait=wait)

    return compute


def _advanced(snap: Snapshot, base: State, rows: list[Row]) -> State:
    state = advance(snap, base, rows)
    if state is None:  # loader() sends the rows of a table whose past changed to _built
        raise RuntimeError(f"table {snap.id}: rows after {base.seq} change an earlier entry")
    return keep(state)


def _built(snap: Snapshot, rows: list[Row]) -> State:
    return keep(build(snap, rows))

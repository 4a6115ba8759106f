"""Tables: create, join, append an entry (checked by the engine), store the game.

Every entry gets the next sequence number of its table with a compare-and-set on
``tables.last_seq`` in the same transaction as its row: two hosts sharing the database never give
one number twice, and a retried entry (same ``client_id``) is found and counted once.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Mapping

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import budget, store
from ..db.session import sqlite_writer
from ..db.tables import TableEntry, TableRecord
from ..db.types import utcnow
from ..engine import get_game
from . import corrections, gather, state as states
from .places import PlaceError, build, place, tokens
from .rows import Snapshot, plain  # noqa: F401  (service.plain)

ATTEMPTS = 8  # compare-and-set retries when another host appended at the same moment


class TableError(Exception):
    """A request the table cannot take: ``status`` (HTTP), a sentence, the error entries."""

    def __init__(self, status: int, message: str, errors: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors or []


@dataclass(frozen=True)
class Viewer:
    role: str  # host | seat | watch
    player: str | None = None

    @property
    def host(self) -> bool:
        return self.role == "host"


@dataclass
class Created:
    table: TableRecord
    host_token: str
    join_key: str


@dataclass
class Appended:
    status: str  # appended | duplicate | stale
    state: states.State | None  # None: appended, but the table now is past the budget (`busy`)
    seqs: list[int] = field(default_factory=list)  # the entries this request made
    missed: list[TableEntry] = field(default_factory=list)  # stale: the entries after `seen`
    notify: list[str] = field(default_factory=list)  # players whose part was refused meanwhile
    busy: budget.Busy | None = None  # appended, but its state was not ready within the budget


# --- create and join -----------------------------------------------------------------------------

def create(session: Session, *, log: dict[str, Any], hands: bool,
           wait: float | None = None) -> Created:
    """A new table from the recorder's first draft (``start(setup)``), checked by the engine
    (within ``wait`` seconds beside the request: popreplay/budget.py)."""
    game_name = log.get("game")
    try:
        game = get_game(game_name) if isinstance(game_name, str) else None
    except KeyError:
        game = None
    if game is None or not hasattr(game, "choices"):
        raise TableError(422, "This game cannot be recorded at a table.", [
            {"code": "bad-request", "message": "unknown game", "path": "/log/game"}])
    choices = budget.run(None, states.engine_choices, game_name, log, wait=wait)
    if choices.get("error"):
        raise TableError(422, "The first draft is not a draft of this game.",
                         [{**plain(choices["error"]), "path": "/log" + (choices["error"].get(
                             "path") or "")}])
    players = log.get("players")
    if not isinstance(players, list) or not players:
        raise TableError(422, "The draft names no players.", [
            {"code": "bad-request", "message": "players", "path": "/log/players"}])
    host_token, join_key = store.new_owner_token(), store.new_owner_token()
    table = TableRecord(id=secrets.token_urlsafe(9), game=game_name, mode=str(log.get("mode")),
                        start={"log": log, "hands": bool(hands)},
                        host_token_hash=store.token_hash(host_token),
                        join_key_hash=store.token_hash(join_key), seat_tokens={}, last_seq=0,
                        status="live")
    session.add(table)
    session.commit()
    return Created(table, host_token, join_key)


def find(session: Session, table_id: str) -> TableRecord:
    table = session.get(TableRecord, table_id)
    if table is None:
        raise TableError(404, f"No table {table_id!r}.")
    return table


def players_of(table: TableRecord | Snapshot) -> list[str]:
    return [str(p) for p in table.start["log"].get("players") or []]


def viewer_of(table: TableRecord, token: str | None) -> Viewer:
    """Who holds ``token``: the host, a seat, or a spectator (the join link's key)."""
    if not token:
        raise TableError(401, "This needs the table's link or a seat: 'Authorization: Bearer "
                              "<token>' (or ?token= on the stream).")
    digest = store.token_hash(token)
    if secrets.compare_digest(digest, table.host_token_hash):
        return Viewer("host")
    for player, held in (table.seat_tokens or {}).items():
        if secrets.compare_digest(digest, held):
            return Viewer("seat", player)
    if secrets.compare_digest(digest, table.join_key_hash):
        return Viewer("watch")
    raise TableError(403, "This token is no seat of this table and not its link.")


def take_seat(session: Session, table: TableRecord, *, viewer: Viewer, player: str) -> str:
    """A new seat token for ``player``. With the join link's key: a free seat only; the host may
    hand any seat to a new phone (the old phone's token stops working)."""
    if player not in players_of(table):
        raise TableError(422, f"{player!r} is not a player of this table.", [
            {"code": "bad-request", "message": "no such player", "path": "/player"}])
    if player in (table.seat_tokens or {}) and not viewer.host:
        raise TableError(409, f"{player}'s seat is taken: the host can hand it to this phone.")
    if viewer.role == "seat":
        raise TableError(403, "A seat cannot take another seat.")
    token = store.new_owner_token()
    with sqlite_writer(session):
        _seat(session, table, player=player, token=token, host=viewer.host)
    session.refresh(table)
    return token


def _seat(session: Session, table: TableRecord, *, player: str, token: str, host: bool) -> None:
    locked = session.get(TableRecord, table.id, with_for_update=True, populate_existing=True)
    seats = dict(locked.seat_tokens or {})
    if player in seats and not host:
        session.rollback()
        raise TableError(409, f"{player}'s seat is taken: the host can hand it to this phone.")
    seats[player] = store.token_hash(token)
    locked.seat_tokens = seats
    locked.updated_at = utcnow()
    session.commit()
    return token


# --- entries -------------------------------------------------------------------------------------

def append(session: Session, table_id: str, *, viewer: Viewer, client_id: str, seen: int,
           entry: dict[str, Any], wait: float | None = None,
           max_entries: int | None = None) -> Appended:
    """Append one entry (``{"type": "place", ...}`` or ``{"type": "part", ...}``).

    The engine's work (the table's state, the entry's check) runs beside the request within
    ``wait`` seconds (popreplay/budget.py; past it :class:`budget.Busy`, nothing appended); the
    table takes at most ``max_entries`` rows (422 ``table-full`` past it, nothing appended: a 409
    is a stale entry to the page)."""
    if viewer.role == "watch":
        raise TableError(403, "A spectator enters nothing: take a seat first.")
    for _ in range(ATTEMPTS):
        try:
            done = _attempt(session, table_id, viewer=viewer, client_id=client_id, seen=seen,
                            entry=entry, wait=wait, max_entries=max_entries)
        finally:
            session.rollback()  # nothing left open (a refusal, a stale entry: reads only)
        if done is not None:
            return done
    raise TableError(503, "The table is too busy right now: send the entry again.")


def full(max_entries: int) -> TableError:
    return TableError(422, f"This table holds its {max_entries:,} entries, as many as a table "
                           "takes: the host can store the game (and go on in the recorder).", [
                               {"code": "table-full", "message": f"at most {max_entries} entries",
                                "path": "/entry"}])


def _attempt(session: Session, table_id: str, *, viewer: Viewer, client_id: str, seen: int,
             entry: dict[str, Any], wait: float | None,
             max_entries: int | None) -> Appended | None:
    """One try; ``None`` when another host took the sequence number meanwhile. Reads and the
    engine's work first (no lock held: SQLite's writers wait only for the write itself), then
    the compare-and-set of ``tables.last_seq`` and the rows, in one transaction."""
    session.expire_all()
    table = find(session, table_id)
    if table.status != "live":
        raise TableError(409, "This table's game is stored: it takes no more entries.")
    known = session.scalar(select(TableEntry).where(TableEntry.table_id == table_id,
                                                    TableEntry.client_id == client_id))
    if known is not None:
        return Appended("duplicate", states.load(session, table, wait=wait), seqs=[known.seq])
    if seen > table.last_seq or seen < 0:
        raise TableError(422, f"`seen` is {seen}: this table's last entry is "
                              f"{table.last_seq}.", [{"code": "bad-request",
                                                      "message": "seen", "path": "/seen"}])
    if max_entries is not None and table.last_seq >= max_entries:
        raise full(max_entries)
    last = table.last_seq
    state = states.load(session, table, wait=wait)
    if seen < state.last_change:
        return Appended("stale", state, missed=states.entries(session, table_id, after=seen,
                                                              upto=last))
    if entry.get("type") == corrections.KIND:  # a correction (corrections.py)
        made = corrections.decide(session, table, viewer, entry, error=TableError, wait=wait)
    else:
        made = decided(state, viewer, entry, taken=list(table.seat_tokens or {}), wait=wait)
    if max_entries is not None and last + len(made) > max_entries:
        raise full(max_entries)
    session.rollback()  # the reads end here: the write below is a transaction of its own
    first = last + 1
    with sqlite_writer(session):  # SQLite: one writer at a time
        moved = session.execute(update(TableRecord).where(
            TableRecord.id == table_id, TableRecord.last_seq == last)
            .values(last_seq=last + len(made), updated_at=utcnow()))
        if moved.rowcount != 1:
            session.rollback()
            return None
        for offset, (kind, by, body) in enumerate(made):
            session.add(TableEntry(table_id=table_id, seq=first + offset,
                                   client_id=client_id if offset == 0 else
                                   f"{client_id}#{offset}", by=by, kind=kind, body=body))
        try:
            session.commit()
        except IntegrityError:  # the same client id on another host at the same moment
            session.rollback()
            return None
    table = find(session, table_id)
    notify = [b["player"] for k, _, b in made if k == "drop" and b.get("player")]
    seqs = list(range(first, first + len(made)))
    try:
        now = states.load(session, table, wait=wait)
    except budget.Busy as busy:  # appended all the same: a retry (same id) is a duplicate
        return Appended("appended", None, seqs=seqs, notify=notify, busy=busy)
    return Appended("appended", now, seqs=seqs, notify=notify)


def decided(state: states.State, viewer: Viewer, entry: dict[str, Any], *, taken: list[str],
            wait: float | None = None) -> list[tuple]:
    """:func:`decide` beside the request within ``wait`` seconds; the decision is kept for the
    same entry on the same state (a retry after a 503 finds it at once)."""
    digest = hashlib.sha256(json.dumps(entry, sort_keys=True, ensure_ascii=True).encode()
                            ).hexdigest()
    key = ("table-decide", state.table, state.seq, viewer.role, viewer.player,
           tuple(sorted(taken)), digest)
    answer = json.loads(budget.run(key, _decision, state, viewer, entry, taken, wait=wait))
    if "refused" in answer:
        refused = answer["refused"]
        raise TableError(refused["status"], refused["message"], refused["errors"])
    return [tuple(row) for row in answer["rows"]]


def _decision(state: states.State, viewer: Viewer, entry: dict[str, Any],
              taken: list[str]) -> bytes:
    try:
        answer: dict[str, Any] = {"rows": decide(state, viewer, entry, taken=taken)}
    except TableError as error:
        answer = {"refused": {"status": error.status, "message": error.message,
                              "errors": error.errors}}
    return json.dumps(answer, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def decide(state: states.State, viewer: Viewer, entry: dict[str, Any], *,
           taken: list[str]) -> list[tuple]:
    """The rows this entry makes, checked by the engine; raises :class:`TableError` (422) with
    the rule's message when the engine refuses it."""
    by = viewer.player
    if entry.get("type") == "place":
        return [("place", by, placed(state, entry))]
    if entry.get("type") == "part":
        return gathered(state, viewer, entry, taken=taken)
    raise TableError(422, "An entry is {type: place, …}, {type: part, …} or {type: correct, …}.", [
        {"code": "bad-request", "message": "type", "path": "/entry/type"}])


def placed(state: states.State, entry: dict[str, Any]) -> dict[str, Any]:
    at, how, value = entry.get("at"), entry.get("how"), entry.get("value")
    if not isinstance(at, str) or how not in ("append", "set") or value is None:
        raise TableError(422, "A place entry has `at` (a JSON Pointer), `how` (append or set) "
                              "and `value`.", [{"code": "bad-request", "message": "place",
                                                "path": "/entry"}])
    if any(p.get("path") == at for p in state.plans.values()) or any(
            p["at"] == at for p in state.plans.values()):
        raise TableError(422, "This entry is entered by the seats, part by part.", [
            {"code": "bad-request", "message": "part", "path": "/entry/at"}])
    return checked_place(state, at, how, value)


def checked_place(state: states.State, at: str, how: str, value: Any) -> dict[str, Any]:
    try:
        log = place(state.log, at, how, value)
    except PlaceError as error:
        raise TableError(422, f"No place {at} in the draft: {error}.", [
            {"code": "bad-request", "message": str(error), "path": "/entry/at"}]) from None
    choices = states.engine_choices(state.game, log)
    if choices.get("error"):
        raise TableError(422, "Refused by the rules.", [plain(choices["error"])])
    index = None
    if how == "append":
        node: Any = state.log
        try:
            for token in tokens(at):
                node = node[int(token)] if isinstance(node, list) else node.get(token, [])
            index = len(node)
        except (LookupError, ValueError, AttributeError):
            index = 0
    return {"at": at, "how": how, "value": value, "index": index}


def gathered(state: states.State, viewer: Viewer, entry: dict[str, Any], *,
             taken: list[str]) -> list[tuple]:
    kind = entry.get("entry")
    plan = state.plans.get(kind) if isinstance(kind, str) else None
    if plan is None:
        raise TableError(422, f"No {kind!r} entry can come now.", [
            {"code": "bad-request", "message": "entry", "path": "/entry/entry"}])
    slots = entry.get("slots")
    if not isinstance(slots, dict) or not slots:
        raise TableError(422, "A part fills slots: {\"slots\": {\"<slot>\": [cards]}}.", [
            {"code": "bad-request", "message": "slots", "path": "/entry/slots"}])
    parts: dict[int, list[Any]] = {}
    for name, cards in slots.items():
        if not str(name).isdigit() or int(name) >= len(plan["slots"]):
            raise TableError(422, f"No slot {name}.", [{"code": "bad-request",
                             "message": "slot", "path": f"/entry/slots/{name}"}])
        slot = plan["slots"][int(name)]
        if not gather.may_fill(slot, player=viewer.player, host=viewer.host, taken=taken):
            raise TableError(403, "This slot is another seat's.", [
                {"code": "forbidden", "message": "seat", "path": f"/entry/slots/{name}"}])
        if not isinstance(cards, list) or len(cards) != gather.slot_size(slot):
            raise TableError(422, f"Slot {name} takes {gather.slot_size(slot)} card(s).", [
                {"code": "bad-request", "message": "count", "path": f"/entry/slots/{name}"}])
        parts[int(name)] = cards
    known = gather.known_to(plan, state.parts.get(kind, {}), player=viewer.player,
                            host=viewer.host)
    refused = gather.precheck(state.game, state.log, kind, plan, parts, hands=state.hands,
                              known={k: v for k, v in known.items() if k not in parts})
    if refused is not None:
        raise TableError(422, "Refused by the rules.", [plain(refused)])
    key = gather.plan_key(kind, plan)
    rows: list[tuple] = [("part", viewer.player, {"key": key, "entry": kind,
                                                  "slots": {str(k): v for k, v in parts.items()}})]
    every = {index: list(part.cards) for index, part in state.parts.get(kind, {}).items()}
    every.update(parts)
    if len(every) < len(plan["slots"]):
        return rows
    owners = {index: part.by for index, part in state.parts.get(kind, {}).items()}
    owners.update({index: viewer.player for index in parts})
    bad = gather.whole_check(state.game, state.log, kind, plan, every, hands=state.hands)
    if bad is None:
        value = build(plan, every)
        try:
            body = checked_place(state, plan["at"], plan["how"], value)
            body["slots"] = [{"path": slot["path"], "player": slot.get("player"),  # corrections
                              "by": owners.get(index)} for index, slot in enumerate(plan["slots"])]
            rows.append(("place", None, body))
            return rows
        except TableError as error:
            bad = (_culprit(plan, state.log, error), error.errors[0])
    slot, error = bad
    if slot in parts:  # the sender's own cards: refused to the sender
        raise TableError(422, "Refused by the rules.", [plain(error)])
    rows.append(("drop", None, {"key": key, "slot": slot, "player": owners.get(slot),
                                "error": plain(error)}))
    return rows


def _culprit(plan: Mapping[str, Any], log: Mapping[str, Any], error: TableError) -> int:
    """The slot a rule violation of the whole entry points into (the last slot otherwise)."""
    path = str((error.errors or [{}])[0].get("path") or "")
    for index, slot in enumerate(plan["slots"]):
        if slot["path"] and slot["path"] in path:
            return index
    return len(plan["slots"]) - 1


# --- storing -------------------------------------------------------------------------------------

def mark_stored(session: Session, table: TableRecord, slug: str) -> None:
    with sqlite_writer(session):
        table.status = "stored"
        table.stored_slug = slug
        table.updated_at = utcnow()
        session.commit()

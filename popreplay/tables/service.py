"""Tables: create, join, append an entry (checked by the engine), store the game.

Every entry gets the next sequence number of its table with a compare-and-set on
``tables.last_seq`` in the same transaction as its row: two hosts sharing the database never give
one number twice, and a retried entry (same ``client_id``) is found and counted once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import budget, store
from ..db.session import sqlite_writer
from ..db.tables import TableEntry, TableRecord
from ..db.types import utcnow
from ..engine import get_game
from . import corrections, state as states
from .decide import checked_place, decide, decided, gathered, placed  # noqa: F401  (service.*)
from .model import TableError, Viewer, players_of  # noqa: F401  (service.TableError, …)
from .rows import Snapshot, plain  # noqa: F401  (service.plain)

ATTEMPTS = 8  # compare-and-set retries when another host appended at the same moment


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


def viewer_of(table: TableRecord, token: str | None) -> Viewer:
    """Who holds ``token``: the host, a seat, or a spectator (the join link's key)."""
    if not token:
        raise TableError(401, "This needs the table's link or a seat: 'Authorization: Bearer "
                              "<token>' (never in the URL).")
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



def mark_stored(session: Session, table: TableRecord, slug: str) -> None:
    with sqlite_writer(session):
        table.status = "stored"
        table.stored_slug = slug
        table.updated_at = utcnow()
        session.commit()

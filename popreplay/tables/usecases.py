"""A table's use cases (docs/architecture.md "Use cases"): one function per thing a phone does —
create a table, take a seat, name the keeper, send an entry (a part, a whole entry, a correction:
one path), store the game. Each takes who asks (:class:`Viewer`) and its dependencies
(:class:`Deps`, built once by the app factory), runs one unit of work and answers an outcome
value (``tables/outcomes.py``): no HTTP here. Reading the table as a phone may see it is
``tables/readings.py``.

Every entry gets the next sequence number of its table with a compare-and-set on
``tables.last_seq`` in the same transaction as its row: two hosts sharing the database never give
one number twice, and a retried entry (same ``client_id``) is found and counted once. What took
effect is answered as such: the fan-out is told after the commit and its failure is only logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .. import budget, store
from ..db.session import sqlite_writer
from ..db.tables import TableEntry, TableRecord
from ..db.types import utcnow
from ..engine import get_game
from ..jsonout import compact
from ..logformat.limits import depth_exceeds
from ..groups.errors import Refused as GroupRefused
from . import authority, corrections, group_seats, signoff, state as states
from .decide import decided
from .readings import whole_draft_result
from .model import TableError, Viewer, players_of
from .outcomes import (Appended, Busy, Created, Deps, Duplicate, KeeperNamed, Outcome, Refused,
                       SeatTaken, Signed, Stale, Stored, use_case)
from .rows import Row, Snapshot, plain
from .state import size_of

ATTEMPTS = 8  # compare-and-set retries when another host appended at the same moment
# a seat request's id is the phone's secret for that request (its retry gets the same token):
# random, at least this long (a shorter one is taken as no id: a new token every time)
MIN_REQUEST_ID = 16


def refused(reason: str, message: str, path: str | None = None, code: str = "bad-request",
            detail: str | None = None) -> Refused:
    errors = () if path is None else ({"code": code, "message": detail or reason,
                                       "path": path},)
    return Refused(reason, message, errors)


def derived_token(table: TableRecord | Snapshot, *what: str) -> str:
    """A token derived from the table's host secret (the hash of its host token, kept by the
    server alone) and ``what`` (the request's id): a retry of the same request gets the same
    token, on any host and after a restart."""
    key = getattr(table, "host_token_hash", None) or ""
    digest = hmac.new(key.encode("ascii"), "|".join(("popreplay-table", table.id, *what))
                      .encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


# --- who asks ------------------------------------------------------------------------------------

def find(session: Session, table_id: str) -> TableRecord:
    table = session.get(TableRecord, table_id)
    if table is None:
        raise TableError(404, f"No table {table_id!r}.")
    return table


def viewer_of(table: TableRecord | Snapshot, token: str | None) -> Viewer:
    """Who holds ``token``: the host, a seat (the keeper or not), or a spectator (the join
    link's key)."""
    if not token:
        raise TableError(401, "This needs the table's link or a seat: 'Authorization: Bearer "
                              "<token>' (never in the URL).")
    digest = store.token_hash(token)
    if secrets.compare_digest(digest, table.host_token_hash):  # type: ignore[union-attr]
        return Viewer("host")
    for player, held in (table.seat_tokens or {}).items():
        if secrets.compare_digest(digest, held):
            return authority.viewer("seat", player, table)
    if secrets.compare_digest(digest, table.join_key_hash):  # type: ignore[union-attr]
        return Viewer("watch")
    raise TableError(403, "This token is no seat of this table and not its link.")


@use_case
def opened(deps: Deps, table_id: str, token: str | None) -> tuple[TableRecord, Viewer]:
    """The table and who asks (a refusal: no token, not this table's, no table)."""
    table = find(deps.session(), table_id)
    return table, viewer_of(table, token)


# --- create, seats, keeper -----------------------------------------------------------------------

@use_case
def create(deps: Deps, *, log: dict[str, Any], hands: bool,
           group: dict[str, Any] | None = None) -> Created | Refused:
    """A new table from the recorder's first draft (``start(setup)``), checked by the engine.
    ``group``: the group it records for and the member at each seat (``group_seats.kept``),
    checked by the caller; kept in ``start`` (no phone is shown it)."""
    bad = bounded(deps, log, "/log")
    if bad is not None:
        return bad
    game_name = log.get("game")
    try:
        game = get_game(game_name) if isinstance(game_name, str) else None
    except KeyError:
        game = None
    if game is None or not hasattr(game, "choices"):
        return refused("invalid", "This game cannot be recorded at a table.", "/log/game",
                       detail="unknown game")
    choices = budget.run(None, states.engine_choices, game_name, log, wait=deps.wait)
    if choices.get("error"):
        error = choices["error"]
        return Refused("rules", "The first draft is not a draft of this game.", (
            {**plain(error), "path": "/log" + (error.get("path") or "")},))
    players = log.get("players")
    if not isinstance(players, list) or not players:
        return refused("invalid", "The draft names no players.", "/log/players",
                       detail="players")
    session = deps.session()
    host_token, join_key = store.new_owner_token(), store.new_owner_token()
    table = TableRecord(id=secrets.token_urlsafe(9), game=game_name, mode=str(log.get("mode")),
                        start={"log": log, "hands": bool(hands),
                               **({"group": group} if group else {})},
                        host_token_hash=store.token_hash(host_token),
                        join_key_hash=store.token_hash(join_key), seat_tokens={}, last_seq=0,
                        status="live")
    with sqlite_writer(session):
        session.add(table)
        session.commit()
    state = states.load(session, table, wait=deps.wait)
    return Created(Snapshot.of(table), host_token, join_key, state)


@use_case
def take_seat(deps: Deps, table_id: str, viewer: Viewer, *, player: str,
              request_id: str | None = None) -> SeatTaken | Refused:
    """A seat token for ``player``. With the join link's key: a free seat only; the host may hand
    any seat to a new phone (the old phone's token stops working). A retry of the same request
    (same ``request_id``, random and at least :data:`MIN_REQUEST_ID` characters: whoever knows it
    gets the token) gets the same token, even after the first answer was lost. The first
    seat the host's phone takes keeps the shared entries (:mod:`authority`) until the host names
    another keeper."""
    session = deps.session()
    table = find(session, table_id)
    if viewer.role == "seat":
        return Refused("forbidden", "A seat cannot take another seat.")
    if player not in players_of(table):
        return refused("invalid", f"{player!r} is not a player of this table.", "/player",
                       detail="no such player")
    if request_id is not None and len(request_id) < MIN_REQUEST_ID:
        request_id = None  # a short id could be guessed by another phone: no retry by it
    token = (derived_token(table, "seat", player, request_id) if request_id
             else store.new_owner_token())
    digest = store.token_hash(token)
    with sqlite_writer(session):
        locked = session.get(TableRecord, table.id, with_for_update=True, populate_existing=True)
        seats = dict(locked.seat_tokens or {})
        again = request_id is not None and secrets.compare_digest(seats.get(player, ""), digest)
        if player in seats and not viewer.host and not again:
            session.rollback()
            return Refused("seat-taken", f"{player}'s seat is taken: the host can hand it to "
                                         "this phone.")
        if not again:
            seats[player] = digest
            locked.seat_tokens = seats
            if viewer.host and locked.keeper is None:
                locked.keeper = player  # the host's phone's seat keeps the shared entries
            locked.updated_at = utcnow()
        session.commit()
    session.refresh(table)
    deps.publish({"table": table.id, "seq": table.last_seq, "seats": True})
    seat = authority.viewer("seat", player, table)
    return SeatTaken(Snapshot.of(table), player, token, seat,
                     states.load(session, table, wait=deps.wait), again=again)


@use_case
def name_keeper(deps: Deps, table_id: str, viewer: Viewer, *,
                player: str | None) -> KeeperNamed | Refused:
    """The host names the seat that enters the shared entries (``None``: the host only); a seat
    takes them over by naming itself, only itself (docs/table.md "Who may make which entry").
    Every phone is told at once (its view's ``keeper``)."""
    if viewer.role == "seat" and player != viewer.player:
        return Refused("forbidden", "A seat takes over the shared entries only for itself: the "
                                    "host names another keeper.")
    if not viewer.host and viewer.role != "seat":
        return Refused("forbidden", "Only the table's host names the keeper (a seat may take "
                                    "over for itself).")
    session = deps.session()
    table = find(session, table_id)
    if player is not None and player not in players_of(table):
        return refused("invalid", f"{player!r} is not a player of this table.", "/player",
                       detail="no such player")
    with sqlite_writer(session):
        table.keeper = player or ""
        table.updated_at = utcnow()
        session.commit()
    deps.publish({"table": table.id, "seq": table.last_seq, "seats": True})
    return KeeperNamed(Snapshot.of(table), player)


# --- entries -------------------------------------------------------------------------------------

def bounded(deps: Deps, value: Any, path: str) -> Refused | None:
    """An entry (or a first draft) deeper or bigger than an upload may be, refused before the
    engine sees it."""
    limits = deps.limits
    if depth_exceeds(value, limits.max_depth):
        return refused("invalid", f"This nests deeper than {limits.max_depth} levels, as no "
                                  "log may.", path, detail="too deep")
    if limits.max_entry_bytes is not None and size_of(value) > limits.max_entry_bytes:
        return refused("invalid", f"This is bigger than {limits.max_entry_bytes:,} bytes, as "
                                  "no entry may be.", path, detail="too big")
    return None


def full(max_entries: int) -> Refused:
    return Refused("full", f"This table holds its {max_entries:,} entries, as many as a table "
                           "takes: the host can store the game (and go on in the recorder).", (
                               {"code": "table-full", "message": f"at most {max_entries} entries",
                                "path": "/entry"},))


def draft_full(limit: int) -> Refused:
    return Refused("full", f"This table's draft would be bigger than {limit:,} bytes, as big as "
                           "a stored game may be: the host can store the game.", (
                               {"code": "table-full", "message": f"at most {limit} bytes",
                                "path": "/entry"},))


@use_case
def append(deps: Deps, table_id: str, viewer: Viewer, *, client_id: str, seen: int,
           entry: dict[str, Any]) -> Outcome:
    """Send one entry: ``{"type": "part", ...}`` (a seat's slots of a shared entry), ``{"type":
    "place", ...}`` (a whole entry) or ``{"type": "correct", ...}`` (a correction): who may make
    it (:mod:`authority`), then the engine (within the budget), then the compare-and-set."""
    if viewer.role == "watch":
        return Refused("forbidden", "A spectator enters nothing: take a seat first.")
    bad = bounded(deps, entry, "/entry")
    if bad is not None:
        return bad
    session = deps.session()
    for _ in range(ATTEMPTS):
        try:
            done = _attempt(deps, session, table_id, viewer, client_id=client_id, seen=seen,
                            entry=entry)
        finally:
            session.rollback()  # nothing left open (a refusal, a stale entry: reads only)
        if done is not None:
            if isinstance(done, Appended):
                deps.publish({"table": table_id, "seq": done.seqs[-1]})
            elif isinstance(done, Busy) and done.appended:
                deps.publish({"table": table_id, "seq": done.appended[-1]})
            return done
    return Busy("another host appended at the same moment, again and again")


def correct(deps: Deps, table_id: str, viewer: Viewer, *, client_id: str, seen: int, seq: int,
            sets: dict[str, Any], fixes: list[Any]) -> Outcome:
    """Correct an earlier entry: the same path as every entry (:func:`append`)."""
    return append(deps, table_id, viewer, client_id=client_id, seen=seen, entry={
        "type": corrections.KIND, "seq": seq, "set": sets, "fixes": fixes})


def _attempt(deps: Deps, session: Session, table_id: str, viewer: Viewer, *, client_id: str,
             seen: int, entry: dict[str, Any]) -> Outcome | None:
    """One try; ``None`` when another host took the sequence number meanwhile. Reads and the
    engine's work first (no lock held: SQLite's writers wait only for the write itself), then
    the compare-and-set of ``tables.last_seq`` and the rows, in one transaction."""
    session.expire_all()
    table = find(session, table_id)
    if table.status != "live":
        return Refused("closed", "This table's game is stored: it takes no more entries.")
    viewer = authority.viewer(viewer.role, viewer.player, table) if viewer.role == "seat" \
        else viewer  # the keeper as it is now
    known = session.scalar(select(TableEntry).where(TableEntry.table_id == table_id,
                                                    TableEntry.client_id == client_id))
    if known is not None:
        return Duplicate(Snapshot.of(table), states.load(session, table, wait=deps.wait),
                         (known.seq,))
    if seen > table.last_seq or seen < 0:
        return refused("invalid", f"`seen` is {seen}: this table's last entry is "
                                  f"{table.last_seq}.", "/seen", detail="seen")
    limits = deps.limits
    if limits.max_entries is not None and table.last_seq >= limits.max_entries:
        return full(limits.max_entries)
    last = table.last_seq
    state = states.load(session, table, wait=deps.wait)
    if seen < state.last_change:
        return Stale(Snapshot.of(table), state, tuple(
            Row.of(r) for r in states.entries(session, table_id, after=seen, upto=last)))
    taken = list(table.seat_tokens or {})
    if limits.max_draft_bytes is not None and (
            state.size + size_of(entry) > limits.max_draft_bytes):
        return draft_full(limits.max_draft_bytes)
    denied = authority.check(state, viewer, entry, taken=taken)
    if denied is not None:
        code = {"filled": "filled", "correction": "correction"}.get(denied.reason, "forbidden")
        return Refused(denied.reason, denied.message, (
            {"code": code, "message": denied.by or denied.reason, "path": denied.path},))
    if entry.get("type") == corrections.KIND:
        made = corrections.decide(session, table, viewer, entry, error=TableError,
                                  wait=deps.wait, state=state)
    else:
        made = decided(state, viewer, entry, taken=taken, wait=deps.wait)
    if limits.max_entries is not None and last + len(made) > limits.max_entries:
        return full(limits.max_entries)
    session.rollback()  # the reads end here: the write below is a transaction of its own
    first = last + 1
    with sqlite_writer(session):  # SQLite: one writer at a time
        moved = session.execute(update(TableRecord).where(
            TableRecord.id == table_id, TableRecord.last_seq == last)
            .values(last_seq=last + len(made), updated_at=utcnow()))
        if moved.rowcount != 1:  # type: ignore[attr-defined]
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
    notify = tuple(b["player"] for k, _, b in made if k == "drop" and b.get("player"))
    seqs = tuple(range(first, first + len(made)))
    try:
        now = states.load(session, table, wait=deps.wait)
    except budget.Busy as busy:  # appended all the same: a retry (same id) is a duplicate
        return Busy(busy.why, appended=seqs)
    return Appended(Snapshot.of(table), now, seqs, notify)


# --- the end: store the game ---------------------------------------------------------------------

@use_case
def store_game(deps: Deps, table_id: str, viewer: Viewer, *, visibility: str) -> Stored | Refused:
    """Store the table's game as the recorder stores a draft (``store.ingest``) and close the
    table, in one transaction. The owner token is derived from the table's host secret: a retry
    (the answer was lost) gets the same one."""
    if not viewer.host:
        return Refused("forbidden", "Only the table's host may do this.")
    session = deps.session()
    table = find(session, table_id)
    owner = derived_token(table, "store")
    if table.status != "live":
        record = store.find_by_ref(session, table.stored_slug) if table.stored_slug else None
        if record is not None and record.owner_token_hash == store.token_hash(owner):
            return Stored(Snapshot.of(table), record.slug, owner, record, again=True)
        return Refused("closed", f"This table's game is stored already: {table.stored_slug}.")
    log = states.load(session, table, wait=deps.wait).log
    session.rollback()

    def close(record: Any) -> None:
        locked = session.get(TableRecord, table_id, with_for_update=True, populate_existing=True)
        locked.status = "stored"
        locked.stored_slug = record.slug
        locked.updated_at = utcnow()

    group = table.start.get("group")
    if group and group.get("private"):
        visibility = "unlisted"  # a private group's game is listed nowhere, even before it joins
    try:
        done = store.ingest(session, compact(log).encode("utf-8"), visibility=visibility,
                            owner_token=owner, with_record=close)
    except store.InvalidLog as invalid:
        return Refused("rules", "The draft is not a valid log yet: nothing was stored.", tuple(
            {**e, "path": "/log" + (e.get("path") or "")}
            for e in invalid.result.get("errors") or []))
    if not done.created:
        return Refused("conflict", "This exact log is already stored.")
    table = find(session, table_id)
    if group:  # the game joins the table's group, each seat its member (docs/groups.md)
        try:
            group_seats.join(session, table.start, done.record)
        except GroupRefused:  # the group is full, or the game is in it already: stored anyway
            session.rollback()
    deps.publish({"table": table.id, "seq": table.last_seq, "seats": True})
    return Stored(Snapshot.of(table), done.record.slug, owner, done.record)


# --- sign-off ------------------------------------------------------------------------------------

@use_case
def sign_off(deps: Deps, table_id: str, viewer: Viewer, *, verdict: str, step: int | None,
             sentence: str | None, claims: dict[str, Any] | None) -> Signed | Refused:
    """A seat confirms or disputes the result (a dispute names a replay step and says why);
    its claims (the score sheet) are compared by the engine. Also after the game is stored."""
    if viewer.role != "seat" or viewer.player is None:
        return Refused("forbidden", "Only a seat signs off: take your seat first.")
    session = deps.session()
    table = find(session, table_id)
    state = states.load(session, table, wait=deps.wait)
    if not signoff.available(table, state):
        return Refused("closed", "The game is not over yet: sign-off comes at the end.")
    sentence = (sentence or "").strip() or None
    if verdict == "dispute":
        _, steps = whole_draft_result(state, wait=deps.wait)
        if step is None or step > max(steps - 1, 0):
            return refused("invalid", f"A dispute names a step of the replay (0 to "
                                      f"{max(steps - 1, 0)}).", "/step", detail="step")
        if sentence is None:
            return refused("invalid", "A dispute says why, in a sentence.", "/sentence",
                           detail="sentence")
    else:
        step, sentence = None, None
    if claims:
        compared = budget.run(None, signoff.claims_check, state.log, table.game, claims,
                              wait=deps.wait)
        if compared.get("error"):
            problem = plain(compared["error"])
            return Refused("invalid", "These claims are not a score sheet of this game.", (
                {**problem, "path": "/claims" + str(problem.get("path") or "")
                 .removeprefix("/claimed")},))
    with sqlite_writer(session):
        signoff.give(session, table, player=viewer.player, verdict=verdict, step=step,
                     sentence=sentence, claims=claims, seq=table.last_seq)
    deps.publish({"table": table.id, "seq": table.last_seq, "seats": True})
    return Signed(Snapshot.of(table), viewer.player)

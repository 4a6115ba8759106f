"""Follow the table: the live stream's use case, an event generator (issue 36; docs/table.md,
"Streams").

:func:`follow` knows who asks (:class:`Follower`: the viewer, the token it showed, its language)
and is handed its dependencies explicitly (:class:`Sources`: a read-only unit of work per wake,
the fan-out subscription, how to compute a view and the entries as that viewer may see them,
whether to look at the database too). It yields :class:`Event` values and nothing of HTTP: the
SSE view (api/table_stream.py) only writes them out.

Each time the table changes (an entry, a seat taken or handed over, the game stored) the table is
read again and the follower's token checked again: a seat handed to another phone ends its old
stream at once (an ``end`` event, ``reason`` ``seat-handed-over``), before anything of that seat
is computed for it. Without a carrier that reaches every process (memory fan-out with several
workers, or Redis down) the stream also looks at the database every ``POLL`` seconds, for new
entries and for the seats.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Generator, Iterator, Mapping

from sqlalchemy.orm import Session

from .. import budget
from ..db.tables import TableRecord
from ..i18n import localize
from . import state as states
from .fanout import CLOSING, Subscription
from .model import TableError, Viewer
from .rows import Row, Snapshot

KEEPALIVE = 15.0  # seconds between keep-alive comments on an idle stream
POLL = 1.0  # without a shared carrier: also look at the database this often
SNAPSHOT_GAP = 50  # a phone further behind than this gets a snapshot, not every entry
RECONNECT_MS = 2000  # the `retry:` a browser waits before it opens the stream again

ViewOf = Callable[..., dict[str, Any]]  # (table, state, viewer, lang, *, wait) -> the view
EntriesOf = Callable[..., list[dict[str, Any]]]  # (table, state, viewer, rows, *, after, wait)


@dataclass(frozen=True)
class Event:
    """One thing to tell the follower: ``snapshot``, ``entry``, ``table``, ``end`` (data: why),
    ``retry`` (data: milliseconds) or ``comment`` (data: a word: keep-alive, busy, polling)."""

    kind: str
    data: Any = None
    id: int | None = None


@dataclass(frozen=True)
class Follower:
    """Who follows: the viewer the token stood for when the stream opened, and the token itself
    (checked again whenever the seats change), in ``lang``."""

    viewer: Viewer
    token: str
    lang: str


@dataclass(frozen=True)
class Sources:
    """What following needs, handed in (built by the view from the app's dependencies)."""

    sessions: Callable[[], ContextManager[Session]]  # a read-only unit of work
    view: ViewOf
    entries: EntriesOf
    subscription: Subscription | None  # None: answer what there is and end (a poll)
    polled: Callable[[], bool]  # also look at the database (no shared carrier now)
    work: float | None  # the engine's budget per computation (popreplay/budget.py)
    viewer_of: Callable[[TableRecord, str], Viewer]  # who a token is at this table now
    polling_note: Callable[[], str | None] = lambda: None  # why the stream polls, said once


@dataclass
class _Read:
    table: Snapshot
    compute: Callable[[float | None], states.State]
    rows: list[Row]
    still: bool  # the follower's token still stands for its viewer (the same role and seat)
    viewer: Viewer  # who it is now: the keeper may have changed (tables/authority.py)


def localize_entry(item: dict[str, Any], lang: str) -> dict[str, Any]:
    if isinstance(item.get("error"), dict):
        [error] = localize({"errors": [item["error"]]}, lang)["errors"]
        return {**item, "error": error}
    return item


def follow(table_id: str, who: Follower, *, last_id: int | None, seconds: float,
           sources: Sources) -> Iterator[Event]:
    """The table as ``who`` may see it, then every change, for ``seconds`` (0: once)."""
    end = time.monotonic() + seconds
    sub = sources.subscription
    yield Event("retry", RECONNECT_MS)
    seen, tries, pushed, noted = last_id, 0, False, None
    while True:
        read = _read(sources, table_id, who, seen)
        if read is None or not read.still:  # handed over: nothing more of it for this phone
            yield Event("end", {"reason": "gone" if read is None else "seat-handed-over"})
            return
        try:
            state = read.compute(sources.work)
            out = list(_changes(read, state, who, sources, seen=seen, last_id=last_id,
                                pushed=pushed))
        except budget.Busy:  # the engine is busy: say so, and try again (kept meanwhile)
            yield Event("comment", "busy")
            pause = min(budget.RETRY_SECONDS, 0.25 * 2 ** tries)  # soon: it may be queued
            tries += 1
            if sub is None or time.monotonic() + pause >= end:
                return
            time.sleep(pause)
            continue
        tries = 0
        yield from out
        seen, last_id, pushed = state.seq, -1, False
        if sub is None:
            return
        note = sources.polling_note()
        if note and note != noted:
            yield Event("comment", note)
        noted = note
        woke = yield from _wait(sources, sub, read.table, seen, end)
        if woke is None:
            return
        pushed = woke


def _read(sources: Sources, table_id: str, who: Follower, seen: int | None) -> _Read | None:
    with sources.sessions() as session:  # reads only, given back before the engine
        record = session.get(TableRecord, table_id)
        if record is None:
            return None
        try:
            now = sources.viewer_of(record, who.token)
        except TableError:
            now = None
        still = now is not None and (now.role, now.player) == (who.viewer.role, who.viewer.player)
        table = Snapshot.of(record)
        compute = states.loader(session, table)
        rows = [Row.of(r) for r in states.entries(session, table.id, after=seen,
                                                  upto=table.last_seq)] if (
            seen is not None and 0 <= seen < table.last_seq
            and table.last_seq - seen <= SNAPSHOT_GAP) else []
    return _Read(table, compute, rows, still, now if still and now is not None else who.viewer)


def _changes(read: _Read, state: states.State, who: Follower, sources: Sources, *,
             seen: int | None, last_id: int | None, pushed: bool) -> Iterator[Event]:
    sub, table, viewer, lang = sources.subscription, read.table, read.viewer, who.lang
    if seen is None or seen > state.seq or state.seq - seen > SNAPSHOT_GAP or (
            sub is not None and sub.overflowed):
        if sub is not None:
            sub.overflowed = False
        yield Event("snapshot", sources.view(table, state, viewer, lang, wait=sources.work),
                    id=state.seq)
    elif seen < state.seq or seen == last_id or pushed:
        items = sources.entries(table, state, viewer, read.rows, after=seen, wait=sources.work)
        for item in items:
            yield Event("entry", localize_entry(item, lang), id=item["seq"])
        yield Event("table", sources.view(table, state, viewer, lang, wait=sources.work))


def _wait(sources: Sources, sub: Subscription, table: Snapshot, seen: int,
          end: float) -> Generator[Event, None, bool | None]:
    """Until the table changes (``True``: the seats or the status; ``False``: an entry) or the
    stream's lifetime is over (``None``), with a keep-alive comment every ``KEEPALIVE`` s."""
    quiet = time.monotonic()
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return None
        polled = sources.polled()
        message = sub.get(timeout=min(KEEPALIVE, left, POLL if polled else KEEPALIVE))
        if message is CLOSING:  # the process is stopping: the phone reconnects elsewhere
            return None
        if message is None:
            if polled:
                now = version(sources, table.id)
                if now[0] > seen or now[1:] != (table.status, seats_of(table.seat_tokens),
                                                 table.keeper or ""):
                    return now[0] <= seen  # only the seats or the status: pushed
            if time.monotonic() - quiet >= KEEPALIVE:
                quiet = time.monotonic()
                yield Event("comment", "keep-alive")
            continue
        if int(message.get("seq") or 0) > seen or message.get("seats"):
            return bool(message.get("seats"))


def version(sources: Sources, table_id: str
            ) -> tuple[int, str, tuple[tuple[str, str], ...], str]:
    """What a poll compares: the last sequence number, the status, the seats and the keeper."""
    with sources.sessions() as session:
        record = session.get(TableRecord, table_id)
        if record is None:
            return (-1, "gone", (), "")
        return (record.last_seq, record.status, seats_of(record.seat_tokens or {}),
                record.keeper or "")


def seats_of(tokens: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(tokens.items()))

"""Telling every follower of a table that it changed: one interface, two carriers.

A message is small (``{"table": id, "seq": n}``): each stream then reads what it may see from the
database. ``Hub`` is the local part both carriers share: the streams of this process wait on it.
``MemoryFanout`` (the embedded default, one process) hands a published message straight to the
hub; ``RedisFanout`` (``POPREPLAY_REDIS_URL``, several hosts) publishes it on Redis, and one
listener per process subscribed to every table's channel hands what arrives to its hub — the
message published by this process too, so both carriers go through the same code path.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)
CHANNEL = "popreplay:table:"
QUEUE_SIZE = 64  # a follower this far behind gets a snapshot instead
CLOSING: dict[str, Any] = {"closing": True}  # what a follower gets once its process is stopping


class Subscription:
    def __init__(self, hub: Hub, table: str) -> None:
        self.hub, self.table = hub, table
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=QUEUE_SIZE)
        self.overflowed = False
        self.closing = False

    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message within ``timeout`` s, ``None`` without one; :data:`CLOSING` once
        the process is stopping (before anything still queued: the stream ends)."""
        if self.closing:
            return CLOSING
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            return None
        return CLOSING if self.closing else message

    def end(self) -> None:
        """The process is stopping: the waiting stream wakes up and ends."""
        self.closing = True
        try:
            self.messages.put_nowait(CLOSING)
        except queue.Full:
            pass  # it has something to read, and then sees ``closing``

    def put(self, message: dict[str, Any]) -> None:
        try:
            self.messages.put_nowait(message)
        except queue.Full:
            self.overflowed = True  # the stream sends a snapshot when it catches up

    def close(self) -> None:
        self.hub.leave(self)


class Hub:
    """The followers of each table in this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.followers: dict[str, set[Subscription]] = {}
        self.closing = False
        _hubs.add(self)

    def join(self, table: str) -> Subscription:
        sub = Subscription(self, table)
        with self.lock:
            sub.closing = self.closing
            self.followers.setdefault(table, set()).add(sub)
        return sub

    def leave(self, sub: Subscription) -> None:
        with self.lock:
            group = self.followers.get(sub.table)
            if group is not None:
                group.discard(sub)
                if not group:
                    del self.followers[sub.table]

    def deliver(self, message: dict[str, Any]) -> None:
        with self.lock:
            group = list(self.followers.get(str(message.get("table")), ()))
        for sub in group:
            sub.put(message)

    def count(self) -> int:
        with self.lock:
            return sum(len(g) for g in self.followers.values())

    def close(self) -> int:
        """End every stream waiting here (the process is stopping); how many there were."""
        with self.lock:
            self.closing = True
            subs = [sub for group in self.followers.values() for sub in group]
        for sub in subs:
            sub.end()
        return len(subs)


_hubs: weakref.WeakSet[Hub] = weakref.WeakSet()  # this process's (one per app)


def end_streams() -> int:
    """The process is stopping: every table stream of it ends now instead of holding its worker
    until the graceful timeout (the phones reconnect, with ``Last-Event-ID``, to a host that is
    up). How many streams were ended."""
    return sum(hub.close() for hub in list(_hubs))


@dataclass(frozen=True)
class Limits:
    """How many table streams may be open at once in a process: in all (``POPREPLAY_TABLE_MAX_
    STREAMS``), from one client (``..._PER_CLIENT``: its address), on one table (``..._PER_TABLE``).
    ``None``: not limited."""

    total: int | None = None
    per_client: int | None = None
    per_table: int | None = None


@dataclass(frozen=True)
class Full:
    """No place for one more stream: ``scope`` is ``client``, ``table`` or ``server``."""

    scope: str


class Streams:
    """The table streams open in this process, within :class:`Limits`: each holds a socket and
    a greenlet for minutes, so past a limit a phone is told to come back (429 past its client's
    limit, 503 past the table's or the server's) and polls meanwhile. Counted per process,
    whatever the carrier (a client's streams on several workers count on each)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.by_client: dict[str, int] = {}
        self.by_table: dict[str, int] = {}

    def take(self, limit: int | None = None, *, client: str = "", table: str = "",
             limits: Limits | None = None) -> Slot | None:
        """A slot for one more stream, or ``None`` when a limit is reached (:meth:`claim`
        says which)."""
        got = self.claim(client=client, table=table,
                         limits=limits or Limits(total=limit))
        return got if isinstance(got, Slot) else None

    def claim(self, *, client: str, table: str, limits: Limits) -> Slot | Full:
        with self.lock:
            if limits.total is not None and self.open >= limits.total:
                return Full("server")
            if limits.per_client is not None and self.by_client.get(client, 0) >= limits.per_client:
                return Full("client")
            if limits.per_table is not None and self.by_table.get(table, 0) >= limits.per_table:
                return Full("table")
            self.open += 1
            self.by_client[client] = self.by_client.get(client, 0) + 1
            self.by_table[table] = self.by_table.get(table, 0) + 1
        return Slot(self, client=client, table=table)

    def _release(self, client: str, table: str) -> None:
        with self.lock:
            self.open -= 1
            for counts, key in ((self.by_client, client), (self.by_table, table)):
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]

    def of_client(self, client: str) -> int:
        with self.lock:
            return self.by_client.get(client, 0)

    def of_table(self, table: str) -> int:
        with self.lock:
            return self.by_table.get(table, 0)


class Slot:
    """One open stream's place; :meth:`release` (once, however often it is called) gives it back."""

    def __init__(self, streams: Streams, *, client: str = "", table: str = "") -> None:
        self.streams, self.client, self.table = streams, client, table
        self.held = True
        self.lock = threading.Lock()

    def release(self) -> None:
        with self.lock:
            if not self.held:
                return
            self.held = False
        self.streams._release(self.client, self.table)


streams = Streams()  # this process's


class Fanout(Protocol):
    hub: Hub

    def publish(self, message: dict[str, Any]) -> None: ...

    def subscribe(self, table: str) -> Subscription: ...

    def polled(self) -> bool: ...


class MemoryFanout:
    """One process: a published message goes to this process's followers (another worker's
    entries: the followers look at the database too, ``polled``)."""

    def __init__(self) -> None:
        self.hub = Hub()

    def polled(self) -> bool:
        return True

    def publish(self, message: dict[str, Any]) -> None:
        self.hub.deliver(message)

    def subscribe(self, table: str) -> Subscription:
        return self.hub.join(table)


class RedisFanout:
    """Several hosts: messages go through Redis pub/sub (``popreplay:table:<id>``); one listener
    thread (a greenlet under gevent) per process feeds the local hub.

    Redis down (issue 36) is no failure of a table: :meth:`publish` hands the message to this
    process's followers and logs, never raises (what it tells took effect already); :attr:`up`
    says whether the listener hears Redis now, and while it does not the streams look at the
    database instead (``polled``) and say so."""

    CONNECT_SECONDS = 2.0  # Redis is near: a connection that takes longer is down

    def __init__(self, url: str) -> None:
        import redis

        self.hub = Hub()
        self.url = url
        self.redis = redis.Redis.from_url(url, socket_timeout=self.CONNECT_SECONDS,
                                          socket_connect_timeout=self.CONNECT_SECONDS)
        self.started = threading.Event()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.up = False  # the listener is subscribed now

    def publish(self, message: dict[str, Any]) -> None:
        import redis

        try:
            self.redis.publish(CHANNEL + str(message["table"]), json.dumps(message))
        except (redis.RedisError, OSError) as error:  # this process's followers still hear it
            log.warning("tables: Redis publish failed (%s); followers poll the database", error)
            self.up = False
            self.hub.deliver(message)

    def subscribe(self, table: str) -> Subscription:
        self._listen()
        return self.hub.join(table)

    def polled(self) -> bool:
        """Followers must look at the database themselves (Redis is not heard now)."""
        return not self.up

    def _listen(self) -> None:
        with self.lock:
            if self.thread is not None and self.thread.is_alive():
                return
            self.started.clear()
            self.thread = threading.Thread(target=self._run, name="popreplay-tables-redis",
                                           daemon=True)
            self.thread.start()
        self.started.wait(self.CONNECT_SECONDS + 1)

    def _run(self) -> None:
        import redis

        while True:
            try:
                client = redis.Redis.from_url(self.url, socket_connect_timeout=self.CONNECT_SECONDS,
                                              health_check_interval=30)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(CHANNEL + "*")
                self.up = True
                self.started.set()
                while True:
                    item = pubsub.get_message(timeout=1.0)
                    if item is None or item.get("type") != "pmessage":
                        continue
                    try:
                        self.hub.deliver(json.loads(item["data"]))
                    except ValueError:
                        continue
            except (redis.RedisError, OSError) as error:  # followers poll meanwhile; reconnect
                if self.up or not self.started.is_set():
                    log.warning("tables: Redis listener lost (%s); reconnecting", error)
                self.up = False
                self.started.set()
                threading.Event().wait(1.0)


_fanouts: dict[str, Any] = {}
_lock = threading.Lock()


def for_url(url: str | None) -> Fanout:
    """The process's fan-out for this Redis URL (``None``: in memory)."""
    key = url or ""
    with _lock:
        if key not in _fanouts:
            _fanouts[key] = RedisFanout(url) if url else MemoryFanout()
        return _fanouts[key]

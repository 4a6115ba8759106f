"""One bounded cache type for every per-process cache of the service (replays, pages, localized
replays, link previews, table states, seat views).

A :class:`BoundedCache` keeps at most ``max_entries`` values and/or ``max_bytes`` of them (each
value's size is ``size(value)``, ``len`` by default), dropping the least recently used first. A
value larger than ``max_item_bytes`` is not kept at all (one huge entry would empty the cache).

Its lock is a real one even where gevent patched ``threading``: it is held only for a few
dictionary operations, never across a computation or a switch, so it may be taken from any
thread or greenlet (a first replay finishes in a native thread of gevent's hub pool). Values are
computed outside it: :meth:`BoundedCache.get_or_compute` may compute one value twice when two
callers miss at once (the first one kept wins); callers that must compute once (the replay
cache) coordinate that themselves.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Generic, Hashable, Iterator, TypeVar

from .greenlets import original_threading

__all__ = ["BoundedCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A thread-safe least-recently-used mapping bounded by its number of entries and/or the
    total size of its values. ``on_evict(key, value)`` is called for each value dropped to make
    room (after the cache's lock is released), not for :meth:`pop` or :meth:`clear`."""

    def __init__(self, *, max_entries: int | None = None, max_bytes: int | None = None,
                 max_item_bytes: int | None = None,
                 size: Callable[[V], int] = len,  # type: ignore[assignment]
                 on_evict: Callable[[K, V], object] | None = None) -> None:
        if max_entries is None and max_bytes is None:
            raise ValueError("a bounded cache needs max_entries or max_bytes")
        if max_entries is not None and max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        if max_bytes is not None and max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.max_item_bytes = max_item_bytes
        self._size = size
        self._on_evict = on_evict
        self._items: OrderedDict[K, V] = OrderedDict()
        self._sizes: dict[K, int] = {}
        self._bytes = 0
        self._lock = original_threading("Lock")()

    # --- reading ---------------------------------------------------------------------------

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), else None."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    @property
    def bytes(self) -> int:
        """The total size of the values kept (``size`` of each)."""
        return self._bytes

    def keys(self) -> list[K]:
        with self._lock:
            return list(self._items)

    def values(self) -> list[V]:
        with self._lock:
            return list(self._items.values())

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())

    # --- writing ---------------------------------------------------------------------------

    def put(self, key: K, value: V) -> bool:
        """Keep ``value`` for ``key`` (replacing what was kept), dropping the least recently used
        values past the bounds (the newest is always kept). False (nothing kept, nothing
        dropped) when the value is larger than ``max_item_bytes``."""
        measured = self.max_bytes is not None or self.max_item_bytes is not None
        size = self._size(value) if measured else 0
        if self.max_item_bytes is not None and size > self.max_item_bytes:
            return False
        with self._lock:
            if key in self._items:
                self._bytes -= self._sizes.pop(key)
                del self._items[key]
            self._items[key] = value
            self._sizes[key] = size
            self._bytes += size
            dropped = []
            while len(self._items) > 1 and self._over():
                old_key, old_value = self._items.popitem(last=False)
                self._bytes -= self._sizes.pop(old_key)
                dropped.append((old_key, old_value))
        if self._on_evict is not None:
            for old_key, old_value in dropped:
                self._on_evict(old_key, old_value)
        return True

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``compute()`` (outside the lock), kept and returned."""
        value = self.get(key)
        if value is None:
            value = compute()
            self.put(key, value)
        return value

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its value, or None."""
        with self._lock:
            value = self._items.pop(key, None)
            if value is not None:
                self._bytes -= self._sizes.pop(key)
            return value

    def discard(self, where: Callable[[K], bool]) -> int:
        """Forget every key for which ``where(key)`` is true (one pass, under the lock; not
        reported to ``on_evict``); how many were forgotten."""
        with self._lock:
            gone = [key for key in self._items if where(key)]
            for key in gone:
                del self._items[key]
                self._bytes -= self._sizes.pop(key)
            return len(gone)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._sizes.clear()
            self._bytes = 0

    def _over(self) -> bool:
        return ((self.max_entries is not None and len(self._items) > self.max_entries)
                or (self.max_bytes is not None and self._bytes > self.max_bytes))

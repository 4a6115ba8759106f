"""Engine work beside the request, within a budget (issue 25; docs/reliability.md, "Budgets").

Every request that runs the engine (a first replay, the recorder's check and cut, validation,
uploads, the re-check of a stored game's messages, a localized replay) hands the work to
:func:`run` (or :class:`Background` for the first replay, store/replays.py): it is computed in a small
pool of native threads beside the request (under gevent, the worker's other greenlets — ``/healthz``
— go on meanwhile), the request waits for it up to its budget (``POPREPLAY_REPLAY_WAIT``), and past
it :class:`Busy` is raised: a 503 with ``Retry-After`` in the error shape, while the work goes on
and its bytes are kept for the retry (when the caller gives a ``key``). At most
``MAX_IN_FLIGHT`` computations are running or queued in a process; past that, :class:`Busy` at
once (nothing is queued). The work itself is bounded by the log limits (logformat.limits) and the
engine's bounded searches.

The one place where "submit beside the request, wait up to a budget, else 503" is decided: a
task queue (issue 27) replaces :class:`Background` here.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from .caching import BoundedCache
from .greenlets import gevent_patched, original_threading
from typing import Any, Callable, Hashable, Iterator

__all__ = ["Background", "Busy", "RETRY_SECONDS", "beside", "cyclic_gc_paused", "in_flight", "run"]

# native threads for engine work per process: one (a process per core, `popreplay serve
# --workers`): with two, the worker's own thread (its greenlets: /healthz) waited behind two
# threads for Python's lock, up to 850 ms for a probe under load; with one, under 250 ms
WORKERS = 1
MAX_IN_FLIGHT = 32  # computations running or queued at once in a process
RETRY_SECONDS = 2
CACHE_BYTES = 64 * 1024 * 1024  # finished answers kept for their key (bytes only)
CACHE_ENTRIES = 256


class Busy(Exception):
    """The work did not finish within the request's budget (or too much is running already):
    answered 503 with ``Retry-After``; a keyed computation goes on and is kept for the retry."""

    def __init__(self, why: str = "") -> None:
        super().__init__(why)
        self.why = why


_gc_lock = original_threading("Lock")()
_gc_pausers = 0


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while engine work runs (every computation of :func:`run` and
    the first replay).

    A replay with steps is tens of thousands of short-lived objects without reference cycles
    (freed by reference counting as soon as it is encoded). Built with the collector on, they live
    long enough to be promoted to the oldest generation, and every few replays a full collection
    walked them all: a pause of 40 to 70 ms for the request that triggered it (measured with
    ``popreplay bench``); a French replay of a 5,000-event slap game (millions of objects) held
    every thread of the process, ``/healthz`` included, up to 1.8 s (issue 25). The collector is
    off while any thread of the process computes and back on as soon as none does. (A real lock,
    held briefly: it is taken from native threads too.)
    """
    global _gc_pausers
    with _gc_lock:
        if _gc_pausers == 0 and not gc.isenabled():  # off already (by someone else): leave it
            paused = False
        else:
            paused = True
            _gc_pausers += 1
            gc.disable()
    try:
        yield
    finally:
        if paused:
            with _gc_lock:
                _gc_pausers -= 1
                if _gc_pausers == 0:
                    gc.enable()


# At most WORKERS computations run at once; the others wait for their turn in their native
# thread (never in the worker's own thread: its greenlets go on).
_turns = original_threading("BoundedSemaphore")(WORKERS)
_executor: Any = None


class _Failed:
    """What a computation raised, carried back as a value: nothing the function raises ever
    leaves its native thread as an exception (see :func:`_in_turn`)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _in_turn(flags: dict[str, Any], function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in its turn, in the pool's native thread. Whatever it raises
    (``RecursionError``, ``MemoryError``, anything) is returned as :class:`_Failed`, and
    ``flags["finished"]`` (the budget's release) runs here, in a ``finally``, before the value is
    handed back: the place is free before anyone learns the outcome, and no callback, hub or
    future has to carry an exception for it.

    Why not let it raise: under gevent the hub's ``AsyncResult.set_exception`` pickles the
    traceback with a recursive ``to_dict`` (gevent/_tblib.py); the traceback of a
    ``RecursionError`` is ~1,000 frames deep, so that raised a second ``RecursionError`` in the
    hub's callback: the result was never set, the waiting request answered 503 at the end of its
    budget, and the link that released the place never ran (issue 36: 64–96 requests with a
    deeply nested ``/meta`` left every engine request of the worker 503 until restart).
    """
    value: Any = None
    try:
        with _turns:
            if not flags["abandoned"]:  # else nobody waits for it any more, nothing would keep it
                with cyclic_gc_paused():
                    value = function(*args)
    except BaseException as error:  # noqa: BLE001 - handed back to the caller, re-raised there
        value = _Failed(error)
    finally:
        finished = flags.get("finished")
        if finished is not None:
            try:
                finished(None if isinstance(value, _Failed) else value)
            except BaseException:  # noqa: BLE001,S110 - the release itself cannot fail the job
                pass
    return value


class Background:
    """One computation beside the request: in a native thread (gevent's hub thread pool when
    gevent patched ``threading``: its greenlets go on meanwhile; else a small thread pool), at
    most ``WORKERS`` at once. ``finished(value)`` (``None`` if it failed) runs in that thread as
    soon as it is done, whatever it raised; :meth:`value` re-raises what it raised."""

    def __init__(self, function: Callable[..., Any], *args: Any,
                 finished: Callable[[Any], None] | None = None) -> None:
        global _executor
        self.gevent = gevent_patched()
        self.flags: dict[str, Any] = {"abandoned": False, "finished": finished}
        if self.gevent:
            import gevent

            self.job = gevent.get_hub().threadpool.spawn(_in_turn, self.flags, function, *args)
        else:
            if _executor is None:
                from concurrent.futures import ThreadPoolExecutor

                _executor = ThreadPoolExecutor(max_workers=MAX_IN_FLIGHT,
                                               thread_name_prefix="engine")
            self.job = _executor.submit(_in_turn, self.flags, function, *args)

    def wait(self, seconds: float | None) -> bool:
        if self.gevent:
            return self.job.wait(seconds) is not None or self.job.ready()
        from concurrent.futures import wait

        return bool(wait([self.job], timeout=seconds).done)

    def value(self) -> Any:
        value = self.job.get() if self.gevent else self.job.result()
        if isinstance(value, _Failed):
            raise value.error
        return value

    def when_done(self, callback: Callable[[Any], None]) -> None:
        """``callback(value)`` once done (``None`` if it failed), in a greenlet or a thread."""
        def outcome(job: Any) -> Any:
            try:
                value = job.get() if self.gevent else job.result()
            except BaseException:  # noqa: BLE001 - the pool itself failed: no value
                return None
            return None if isinstance(value, _Failed) else value

        if self.gevent:
            import gevent

            self.job.rawlink(lambda job: gevent.spawn(callback, outcome(job)))
        else:
            self.job.add_done_callback(lambda job: callback(outcome(job)))


_lock = original_threading("Lock")()
_in_flight = 0
_running: dict[Hashable, Background] = {}
_done: BoundedCache[Hashable, bytes] = BoundedCache(
    max_entries=CACHE_ENTRIES, max_bytes=CACHE_BYTES, max_item_bytes=CACHE_BYTES // 4)


def _release(key: Hashable | None, flags: dict[str, Any], value: Any) -> None:
    """A computation of :func:`run` is done (``value`` is ``None`` if it failed): its place in
    the budget is free and, keyed, its bytes are kept. Runs in the engine's native thread."""
    global _in_flight
    with _lock:
        if flags.get("released"):
            return
        flags["released"] = True
        _in_flight -= 1
        if key is not None:
            if _running.get(key) is flags.get("job"):
                _running.pop(key, None)
            _keep(key, value)


def _keep(key: Hashable, value: Any) -> None:
    """Keep a finished value (bytes only: one object each, nothing for the collector to walk)."""
    if isinstance(value, bytes) and key not in _done:
        _done.put(key, value)


def in_flight() -> int:
    """How many computations of :func:`run` are running or queued in this process."""
    return _in_flight


def cached(key: Hashable) -> bytes | None:
    return _done.get(key)


def run(key: Hashable | None, function: Callable[..., Any], *args: Any,
        wait: float | None) -> Any:
    """``function(*args)`` beside the request, waited for up to ``wait`` seconds (``None``: in
    the caller, however long: the command line, ``POPREPLAY_REPLAY_WAIT=0``).

    ``key``: what the value depends on, wholly. Requests with the same key share one computation,
    and a value that is ``bytes`` is kept (an LRU of ``CACHE_BYTES``) and returned at once the
    next time, so a request answered 503 finds its answer on the retry. Raises :class:`Busy`.
    """
    global _in_flight
    if key is not None and (value := cached(key)) is not None:
        return value
    if wait is None:
        value = function(*args)
        if key is not None:
            with _lock:
                _keep(key, value)
        return value
    with _lock:  # brief: nothing in it waits or switches
        job = None if key is None else _running.get(key)
        if job is None:
            if _in_flight >= MAX_IN_FLIGHT:
                raise Busy("too much engine work is running")
            _in_flight += 1
    if job is None:
        job = _start(key, function, *args)
    if not job.wait(wait):
        if key is None:  # not started yet: skipped (a keyed one goes on, kept for the retry)
            job.flags["abandoned"] = True
        raise Busy("the engine's work took longer than this request waits")
    return job.value()  # what the function raised is raised here


def _start(key: Hashable | None, function: Callable[..., Any], *args: Any) -> Background:
    """Start a computation whose place is taken: released when it is done, whatever it raised,
    and released here if it could not even start (no thread: the error goes to the caller)."""
    flags: dict[str, Any] = {}
    try:
        job = Background(function, *args, finished=lambda value: _release(key, flags, value))
    except BaseException:
        _release(key, flags, None)
        raise
    flags.update(job=job)
    if key is not None:
        with _lock:  # not if it is done already (released before it could be listed)
            if not flags.get("released"):
                _running.setdefault(key, job)  # two at once: both compute, the last one kept
    return job


def beside(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in the pool, waited for as long as it takes (a streamed answer already
    sent its status): the worker's other requests go on meanwhile."""
    job = Background(function, *args)
    job.wait(None)
    return job.value()


def clear() -> None:
    """Forget the kept answers (tests)."""
    _done.clear()

"""What the process's threading is: real threads, or gevent's greenlets (``popreplay serve``'s
workers patch ``threading`` before the app is imported).

One place answers for the budget, the caches and the server's signal handlers."""

from __future__ import annotations

import sys
import threading
from typing import Any

__all__ = ["gevent_patched", "original_threading"]


def gevent_patched() -> bool:
    """Whether gevent has patched ``threading`` in this process (it never does so without
    importing ``gevent.monkey`` first, so an unimported module means no)."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("threading"))


def original_threading(name: str) -> Any:
    """``threading``'s own ``name`` (a real lock or semaphore even where gevent patched the
    module). A lock taken from greenlets must be held only briefly, never across a switch; one
    held long (the budget's turns) is waited for in native threads only."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None:
        return getattr(threading, name)
    return monkey.get_original("threading", name)

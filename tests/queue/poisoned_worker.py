"""``popreplay worker`` with an engine that crashes on some games (the queue leg's poison test):
a log whose title is "POISON" raises, one whose title is "KILLER" kills the worker process.

Celery's prefork pool notices a pool process's death when the process's sentinel pipe closes, but
looks for its exit code at once (``waitpid(WNOHANG)``): the kernel closes the pipe a moment
before the dead process can be reaped, so on a busy machine the look usually comes too early and
the death waits for the pool's next periodic check, 5 s later (measured: 9 of 10 deaths noticed
4.5-5 s late, the poison test 55 s instead of 10). Here the pool waits for the exit code when the
sentinel closes: the same deaths, the same redeliveries, noticed at once."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from celery.concurrency.asynpool import AsynPool  # noqa: E402

from popreplay.cli import main  # noqa: E402
from popreplay.store import revalidation  # noqa: E402

_real = revalidation.check_text


def check_text(raw, **kwargs):
    if b'"title": "POISON"' in raw:
        raise RecursionError("maximum recursion depth exceeded (a poisoned test game)")
    if b'"title": "KILLER"' in raw:
        os._exit(137)
    return _real(raw, **kwargs)


revalidation.check_text = check_text  # what a revalidate chunk checks a stored game with

_event_process_exit = AsynPool._event_process_exit


def event_process_exit(self, hub, proc):
    """The sentinel closed: the process has exited; reap it (a moment at most) before the pool
    looks for its exit code."""
    if proc._popen is not None:
        proc._popen.wait(timeout=5)
    _event_process_exit(self, hub, proc)


AsynPool._event_process_exit = event_process_exit

if __name__ == "__main__":
    sys.argv[0] = "popreplay"
    main()

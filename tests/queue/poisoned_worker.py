"""``popreplay worker`` with an engine that crashes on some games (the queue leg's poison test):
a log whose title is "POISON" raises, one whose title is "KILLER" kills the worker process."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

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

if __name__ == "__main__":
    sys.argv[0] = "popreplay"
    main()

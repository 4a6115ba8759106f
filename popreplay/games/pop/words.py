"""What the pages say of a POP! log's places (``web.places.place_in_log``): a number of a JSON
Pointer in words — a layout's row and queue, a card of a play, a hand, a draw or the Chief."""

from __future__ import annotations

from flask_babel import gettext as _

QUEUES = "ABCDE"


def place_word(token: str, parent: str | None, grandparent: str | None) -> str | None:
    """``token`` (a number of the pointer) in words, or ``None``: no word of POP!'s own."""
    n = int(token)
    if parent == "layout":
        return _("row %(n)s", n=n + 1)
    if grandparent == "layout" and n < len(QUEUES):
        return _("queue %(letter)s", letter=QUEUES[n])
    if parent == "chief" or grandparent in ("plays", "hands", "draws"):
        return _("card %(n)s", n=n + 1)
    return None

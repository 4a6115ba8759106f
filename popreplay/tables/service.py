"""The names the first slice's callers use (the live stream's view): who asks and the table, now
in ``tables/usecases.py`` (every use case) and ``tables/model.py``."""

from __future__ import annotations

from ..db.tables import TableRecord
from .model import TableError, Viewer, players_of
from .rows import plain
from .usecases import find, viewer_of

__all__ = ["TableError", "TableRecord", "Viewer", "find", "players_of", "plain", "viewer_of"]

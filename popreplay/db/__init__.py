"""Storage: SQLAlchemy 2 models, the engine/session per app, and Alembic migrations."""

from .models import Base, GamePlayer, GameRecord
from .session import Database, get_database, get_session
from . import group_events  # noqa: F401,E402  (a game of a group changed: its ratings are stale)

__all__ = ["Base", "Database", "GamePlayer", "GameRecord", "get_database", "get_session"]

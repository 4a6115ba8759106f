"""Storage: SQLAlchemy 2 models, the engine/session per app, and Alembic migrations."""

from .models import Base, GamePlayer, GameRecord
from .session import Database, get_database, get_session

__all__ = ["Base", "Database", "GamePlayer", "GameRecord", "get_database", "get_session"]

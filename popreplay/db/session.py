"""One SQLAlchemy engine per app, one Session per request (closed when the request ends)."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

try:
    import fcntl
except ImportError:  # not on POSIX: writers fall back to SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

EXTENSION = "popreplay.db"
IDLE_IN_TRANSACTION_MS = 30_000


def data_folder() -> Path:
    """The user's data folder for popreplay, whatever way the package was installed: on Linux
    ``$XDG_DATA_HOME/popreplay`` (``~/.local/share/popreplay``), on macOS ``~/Library/Application
    Support/popreplay``, on Windows ``%LOCALAPPDATA%\\popreplay`` (platformdirs' rule)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("popreplay", appauthor=False))


def default_sqlite_url() -> str:
    """The default database: ``popreplay.sqlite`` in :func:`data_folder` (created if missing)."""
    folder = data_folder()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'popreplay.sqlite'}"


def describe(url: str) -> str:
    """The database as people read it: a SQLite file's path, else the URL without its password."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return f"SQLite file {parsed.database}"
    return parsed.render_as_string(hide_password=True)


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3 here (``postgresql+psycopg://``)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str, *, pooled: bool = True) -> Engine:
    """An engine for ``url``; ``pooled=False`` opens one connection per use (migrations)."""
    url = normalise_url(url)
    extra: dict[str, Any] = {} if pooled else {"poolclass": NullPool}
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 15}, **extra)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # A session that stays "idle in transaction" (a client gone mid-request, a bug) holds locks
    # that block migrations and vacuum: PostgreSQL ends it after this long. Requests use short
    # transactions (an export: one per batch), far below it.
    options = f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
    return create_engine(url, pool_pre_ping=pooled,
                         connect_args={"connect_timeout": 5, "options": options}, **extra)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=15000")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable at checkpoints, one fsync less
    cursor.close()


@contextmanager
def sqlite_writer(session: Session) -> Iterator[None]:
    """Let one writer at a time write to the session's SQLite file, across threads and processes.

    SQLite admits one writer; the others wait in its busy handler, which sleeps in steps (1, 2, 5,
    10, 15, 20, 25 ... 100 ms) instead of waking when the lock is free: measured here, a writer
    held up 3 ms waited 8 ms, one held up 20 ms waited 34 ms. Writers that wrap their write
    transaction in this context manager queue on an exclusive ``flock`` of ``<database>-writelock``
    instead, and the kernel wakes the next one as soon as the lock is free. Each call opens the
    lock file anew (a lock belongs to one open file), so threads of one process take turns too; the
    lock goes with the file descriptor, whatever happens inside. PostgreSQL, an in-memory SQLite
    database, or a system without ``flock``: nothing to do.
    """
    url = session.get_bind().engine.url
    path = url.database if url.get_backend_name() == "sqlite" else None
    if fcntl is None or not path or path == ":memory:" or path.startswith("file:"):
        yield
        return
    try:  # (created like SQLite's own -wal and -shm files: as the umask allows)
        descriptor = os.open(f"{path}-writelock", os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # not ours to open (another user's folder, say): SQLite's own waiting will do
        yield
        return
    try:
        _flock(descriptor)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _cooperative() -> bool:
    """True in a gevent worker (``popreplay serve``'s default): ``time.sleep`` yields to the other
    requests of the process instead of blocking them all."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("time"))


def _flock(descriptor: int) -> None:
    """Take the lock. A blocking ``flock`` would stop a whole gevent worker, and deadlock it when
    another request of the same worker holds the lock: there, poll for it and yield meanwhile."""
    if not _cooperative():
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        return
    import time

    pause = 0.0005
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            time.sleep(pause)
            pause = min(pause * 2, 0.01)


class Database:
    """The engine and session factory of one app."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def session(self) -> Session:
        return self.sessions()

    def ping(self) -> None:
        """Raise when the database does not answer."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()


def init_app(app: Any) -> Database:
    url = app.config.get("DATABASE_URL") or default_sqlite_url()
    database = Database(url)
    app.extensions[EXTENSION] = database
    app.teardown_appcontext(_close_session)
    return database


def get_database(app: Any = None) -> Database:
    if app is None:
        from flask import current_app

        app = current_app
    return app.extensions[EXTENSION]


def get_session() -> Session:
    """The current request's Session (opened on first use, closed at the end of the request)."""
    from flask import g

    session = g.get("_popreplay_session")
    if session is None:
        session = g._popreplay_session = get_database().session()
    return session


def _close_session(_error: BaseException | None) -> None:
    from flask import g

    session = g.pop("_popreplay_session", None)
    if session is not None:
        session.close()

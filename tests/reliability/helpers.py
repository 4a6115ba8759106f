"""Shared by the concurrency and fault tests: a database outage the test controls (a TCP relay in
front of PostgreSQL), and the check that every stored game is whole and replays to its result."""

from __future__ import annotations

import socket
import threading
from sqlalchemy import create_engine, func, select

from popreplay.checking import check_text
from popreplay.db.models import GamePlayer, GameRecord
from popreplay.i18n import language_free
from popreplay.db.session import normalise_url
from tests.conftest import PG_HOST, PG_PORT


class Relay:
    """A TCP relay ``127.0.0.1:port`` -> PostgreSQL. ``down()`` closes the port and cuts every
    open connection (as a database that goes away does); ``up()`` opens the same port again."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def url(self, database_url: str) -> str:
        """``database_url`` with its host and port replaced by the relay's."""
        return normalise_url(database_url).replace(f"@{PG_HOST}:{PG_PORT}/",
                                                   f"@127.0.0.1:{self.port}/")

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.05)
        self._listener = listener
        self._stop.clear()
        self._thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._thread.start()

    def down(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            for connection in self._open:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                connection.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            try:
                upstream = socket.create_connection((PG_HOST, PG_PORT))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def assert_every_game_is_whole(database_url: str) -> int:
    """Every stored game has one seat per player and a stored result equal to what its stored
    log replays to now; no seat without its game. Returns the number of games."""
    engine = create_engine(normalise_url(database_url))
    try:
        with engine.connect() as connection:
            from sqlalchemy.orm import Session

            session = Session(bind=connection)
            games = session.scalars(select(GameRecord).order_by(GameRecord.id)).all()
            for record in games:
                result = check_text(record.log)
                assert result["status"] != "invalid", record.slug
                # stored as the store keeps a result: with its message ids (i18n.language_free)
                assert record.result == language_free(result), record.slug
                assert record.engine_version == result["engine"]
                assert [seat.position for seat in sorted(record.seats, key=lambda s: s.position)
                        ] == list(range(len(record.players))), record.slug
            orphans = session.scalar(
                select(func.count()).select_from(GamePlayer)
                .where(GamePlayer.game_id.not_in(select(GameRecord.id))))
            assert orphans == 0
            session.close()
            return len(games)
    finally:
        engine.dispose()


def stored_hashes(database_url: str) -> set[str]:
    engine = create_engine(normalise_url(database_url))
    try:
        with engine.connect() as connection:
            return set(connection.scalars(select(GameRecord.content_hash)))
    finally:
        engine.dispose()


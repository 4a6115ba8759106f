"""SQLite writers take turns through an flock (``db.session.sqlite_writer``), not SQLite's busy
handler: a writer waits exactly as long as the lock is held, and every write path of the store
takes its turn before it writes."""

from __future__ import annotations

import fcntl
import os
import threading

import pytest

from popreplay.db.models import GameRecord
from popreplay.db.session import get_database, sqlite_writer
from popreplay.store import replays
from popreplay.store.edits import delete_game
from popreplay.store.ingestion import ingest
from popreplay.store.replays import replay_gzip
from popreplay.store.revalidation import revalidate
from tests.conftest import as_bytes, empty_pg_schema, migrated_app, simulated


def lock_is_free(path) -> bool:
    descriptor = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(descriptor)


def test_the_turn_is_an_exclusive_lock_next_to_the_database(sqlite_app, tmp_path):
    lock = tmp_path / "app.sqlite-writelock"
    with get_database(sqlite_app).session() as session:
        with sqlite_writer(session):
            assert lock.exists() and not lock_is_free(lock)
        assert lock_is_free(lock)
        with pytest.raises(RuntimeError), sqlite_writer(session):
            raise RuntimeError("whatever happens inside, the lock goes")
        assert lock_is_free(lock)


@pytest.mark.parametrize("kind", ["memory", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_no_turn_without_a_sqlite_file(kind, request, monkeypatch):
    if kind == "memory":
        url = "sqlite://"
    else:
        url = request.getfixturevalue("pg_database")
        empty_pg_schema(url)
    for app in migrated_app(url):
        with get_database(app).session() as session:
            with monkeypatch.context() as patch:
                patch.setattr(os, "open", lambda *a, **k: pytest.fail(f"opened {a[0]}"))
                with sqlite_writer(session):
                    if kind == "postgresql":  # (an in-memory database is one per connection)
                        ingest(session, simulated_bytes())


def simulated_bytes() -> bytes:
    return as_bytes(simulated("coop", 3, seed=72))


def hold_turn(app, held: threading.Event, release: threading.Event) -> threading.Thread:
    def run() -> None:
        with get_database(app).session() as session, sqlite_writer(session):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=run)
    thread.start()
    assert held.wait(10)
    return thread


@pytest.mark.parametrize("write", ["ingest", "replay", "delete", "revalidate"])
def test_every_store_write_waits_for_its_turn(sqlite_app, make_log, write):
    database = get_database(sqlite_app)
    with database.session() as session:
        created = ingest(session, make_log("battle", 3, seed=70))
        record_id = created.record.id
    replays._replay_gzip.clear()

    def run() -> None:
        with database.session() as session:
            record = session.get(GameRecord, record_id)
            if write == "ingest":
                ingest(session, make_log("battle", 3, seed=71))
            elif write == "replay":
                replay_gzip(session, record)
            elif write == "delete":
                delete_game(session, record)
            else:
                list(revalidate(session))
            done.set()

    held, release, done = threading.Event(), threading.Event(), threading.Event()
    holder = hold_turn(sqlite_app, held, release)
    writer = threading.Thread(target=run)
    writer.start()
    assert not done.wait(0.3)  # queued behind the turn (the write itself takes milliseconds)
    release.set()
    holder.join(10)
    writer.join(10)
    assert done.is_set()


def test_a_lock_file_that_cannot_be_opened_leaves_sqlite_s_own_waiting(sqlite_app, tmp_path,
                                                                       make_log):
    lock = tmp_path / "app.sqlite-writelock"
    lock.mkdir()  # opening it for writing fails, as another user's file would
    with get_database(sqlite_app).session() as session:
        with sqlite_writer(session):
            pass
        assert ingest(session, make_log("battle", 3, seed=73)).created

"""The queue leg's tools: the real broker of this machine (RabbitMQ; mandatory with CI=true),
a queue of each test's own, workers as processes (``popreplay worker``) and many stored games."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest
import sqlalchemy as sa

from popreplay.db.models import GameRecord
from popreplay.db.session import make_engine

BROKER = "amqp://guest:guest@127.0.0.1:5672//"
ROOT = Path(__file__).resolve().parents[2]
POISONED = Path(__file__).with_name("poisoned_worker.py")


def broker_or_skip() -> None:
    from kombu import Connection

    try:
        with Connection(BROKER, connect_timeout=3) as connection:
            connection.ensure_connection(max_retries=1)
    except Exception as error:  # noqa: BLE001 - any failure to connect
        message = f"RabbitMQ is not reachable at {BROKER} ({error})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; with CI=true the queue leg is mandatory")
        pytest.skip(message)


def delete_queue(name: str) -> None:
    from kombu import Connection

    with Connection(BROKER, connect_timeout=5) as connection:
        channel = connection.channel()
        for action in (lambda: channel.queue_delete(name), lambda: channel.exchange_delete(name)):
            try:
                action()
            except Exception:  # noqa: BLE001 - not there
                channel = connection.channel()
        channel.close()


@pytest.fixture
def queue_env(db_url: str) -> Iterator[dict[str, str]]:
    """The environment of this test's commands and workers: its database, the broker, a queue
    of its own (deleted at the end)."""
    broker_or_skip()
    name = f"popreplay-test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "POPREPLAY_DATABASE_URL": db_url, "POPREPLAY_BROKER_URL": BROKER,
           "POPREPLAY_QUEUE": name, "PYTHONPATH": str(ROOT)}
    yield env
    delete_queue(name)


class Worker:
    def __init__(self, env: dict[str, str], log: Path, *, poisoned: bool = False) -> None:
        command = ([sys.executable, str(POISONED)] if poisoned
                   else [sys.executable, "-m", "popreplay"])
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                command + ["worker", "--concurrency", "1", "--loglevel", "info"], env=env,
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT)

    def kill(self) -> None:
        """SIGKILL, the worker and its pool process (its process group)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                self.kill()


@contextmanager
def workers(env: dict[str, str], tmp_path: Path, count: int, *,
            poisoned: bool = False) -> Iterator[list[Worker]]:
    started = [Worker(env, tmp_path / f"worker-{n}.log", poisoned=poisoned)
               for n in range(count)]
    try:
        yield started
    finally:
        for worker in started:
            worker.stop()


def popreplay(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "popreplay", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def start_popreplay(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "popreplay", *args], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def store_many(db_url: str, count: int, *, stale: bool = True) -> list[int]:
    """``count`` stored games, cheaply: a few real logs stored through ``store.ingest``, then
    copies of them under other hashes and slugs (revalidate reads only the log). ``stale``: their
    stored results are wrong (status, engine version), so every game revalidated shows as
    changed. Their ids."""
    from popreplay import create_app, store
    from popreplay.db import migrate
    from popreplay.db.session import get_database
    from tests.conftest import as_bytes, simulated

    migrate.upgrade(db_url)
    app = create_app({"DATABASE_URL": db_url, "TESTING": True})
    with app.app_context():
        session = get_database(app).session()
        seeds = [store.ingest(session, as_bytes(simulated("battle", 3, seed=900 + n))).record
                 for n in range(5)]
        columns = [c.name for c in GameRecord.__table__.columns if c.name != "id"]
        engine = get_database(app).engine
        with engine.begin() as connection:
            rows = [dict(r._mapping) for r in connection.execute(
                sa.select(*[GameRecord.__table__.c[c] for c in columns]).where(
                    GameRecord.id.in_([s.id for s in seeds])))]
            copies = []
            for n in range(count - len(rows)):
                row = dict(rows[n % len(rows)])
                digest = hashlib.sha256(f"copy {n} {uuid.uuid4()}".encode()).hexdigest()
                row.update(content_hash=digest, canonical_hash=digest, slug=f"c{digest[:10]}")
                copies.append(row)
            for start in range(0, len(copies), 2000):
                connection.execute(GameRecord.__table__.insert(), copies[start:start + 2000])
            if stale:
                connection.execute(GameRecord.__table__.update().values(
                    status="incomplete", engine_version="0.0.0"))
        session.close()
        get_database(app).dispose()
    engine = make_engine(db_url, pooled=False)
    with engine.connect() as connection:
        ids = list(connection.scalars(sa.select(GameRecord.id).order_by(GameRecord.id)))
    engine.dispose()
    return ids


def scalar(db_url: str, sql: str) -> Any:
    engine = make_engine(db_url, pooled=False)
    with engine.connect() as connection:
        value = connection.execute(sa.text(sql)).scalar()
    engine.dispose()
    return value


def rows(db_url: str, sql: str) -> list[tuple[Any, ...]]:
    engine = make_engine(db_url, pooled=False)
    with engine.connect() as connection:
        found = [tuple(r) for r in connection.execute(sa.text(sql))]
    engine.dispose()
    return found


def wait_until(predicate: Any, *, timeout: float, what: str, every: float = 0.2) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(every)


def changed_ids(stdout: str) -> list[int]:
    return [json.loads(line)["id"] for line in stdout.splitlines() if line.strip()]

"""The queue leg's tools: the real broker of this machine (RabbitMQ; mandatory with CI=true),
a queue of each test's own, workers as processes (``popreplay worker``) and many stored games."""

from __future__ import annotations

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

from popreplay.db.session import make_engine

BROKER = "amqp://guest:guest@127.0.0.1:5672//"
ROOT = Path(__file__).resolve().parents[2]
POISONED = Path(__file__).with_name("poisoned_worker.py")


def broker_or_skip() -> None:
    from kombu import Connection

    try:  # for up to a minute: another test may be restarting it (test_a_job_survives_...)
        with Connection(BROKER, connect_timeout=3) as connection:
            connection.ensure_connection(max_retries=20, interval_start=1, interval_step=1,
                                         interval_max=3)
    except Exception as error:  # noqa: BLE001 - any failure to connect
        message = f"RabbitMQ is not reachable at {BROKER} ({error})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; with CI=true the queue leg is mandatory")
        pytest.skip(message)


def delete_queue(name: str) -> None:
    """Best effort (a queue left behind is empty and harmless)."""
    try:
        _delete_queue(name)
    except Exception:  # noqa: BLE001 - the broker is being restarted by another test, say
        pass


def _delete_queue(name: str) -> None:
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

    def terminate(self) -> None:
        """SIGTERM: a warm shutdown (the worker finishes its task and exits)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def stop(self) -> None:
        self.terminate()
        self.wait_stopped()

    def wait_stopped(self) -> None:
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()


@contextmanager
def workers(env: dict[str, str], tmp_path: Path, count: int, *,
            poisoned: bool = False) -> Iterator[list[Worker]]:
    started = [Worker(env, tmp_path / f"worker-{n}.log", poisoned=poisoned)
               for n in range(count)]
    try:
        yield started
    finally:  # all told at once, then waited for: their shutdowns overlap
        for worker in started:
            worker.terminate()
        for worker in started:
            worker.wait_stopped()


def popreplay(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "popreplay", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def start_popreplay(env: dict[str, str], *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "popreplay", *args], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def store_many(db_url: str, count: int, *, stale: bool = True) -> list[int]:
    """``count`` stored games (copies of a few real ones; ``stale``: their results wrong, so
    revalidating changes every one); their ids."""
    from popreplay.queue.seeding import store_copies

    return store_copies(db_url, count, stale=stale)


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

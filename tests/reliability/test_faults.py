"""Faults: a database that does not answer is a 503 in the error shape with ``Retry-After`` on
every route that needs it, ``/readyz`` says false, and the service recovers by itself when the
database returns. A server killed (SIGKILL) in the middle of a burst of uploads leaves nothing
half-written: every acknowledged upload is stored, and every stored game replays to its result."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner

from popreplay import create_app
from popreplay.cli import main as cli
from popreplay.db import migrate
from popreplay.db.session import get_database
from tests.conftest import as_bytes, simulated
from tests.databases import fresh_head
from tests.e2e.test_serve import free_port, request, wait_until_up

from .helpers import Relay, assert_every_game_is_whole, stored_hashes

ERROR_KEYS = {"code", "status", "message", "errors"}


def needs_the_database(client: Any, slug: str) -> list[tuple[str, Any]]:
    """One request of every kind that reads or writes the database."""
    log = as_bytes(simulated("battle", 3, seed=4002))
    return [
        ("POST /games", client.post("/api/v1/games", data=log, content_type="application/json")),
        ("GET /games", client.get("/api/v1/games")),
        ("GET /games/export", client.get("/api/v1/games/export")),
        ("GET /games/{ref}", client.get(f"/api/v1/games/{slug}")),
        ("GET /games/{ref}/log", client.get(f"/api/v1/games/{slug}/log")),
        ("GET /games/{ref}/replay", client.get(f"/api/v1/games/{slug}/replay")),
        ("DELETE /games/{ref}", client.delete(f"/api/v1/games/{slug}",
                                              headers={"Authorization": "Bearer x"})),
        ("GET /players/{name}", client.get("/api/v1/players/Alice")),
        ("GET /", client.get("/")),
        ("GET /r/{slug}", client.get(f"/r/{slug}")),
    ]


def assert_unavailable(name: str, response: Any) -> None:
    assert response.status_code == 503, (name, response.status_code)
    assert response.headers["Retry-After"] == "5", name
    body = response.get_json()
    assert set(body) == ERROR_KEYS, name
    assert body["code"] == 503 and body["status"] == "Service Unavailable"


def test_every_route_that_needs_the_database_is_503_when_it_refuses():
    """A port that refuses connections: 503 everywhere the database is needed, the rest works."""
    app = create_app({"DATABASE_URL": f"postgresql+psycopg://nobody@127.0.0.1:{free_port()}/x",
                      "TESTING": True})
    client = app.test_client()
    try:
        for name, response in needs_the_database(client, "abcdefghijkl"):
            assert_unavailable(name, response)
        ready = client.get("/api/v1/readyz")
        assert ready.status_code == 503 and ready.get_json()["ready"] is False
        assert ready.headers["Retry-After"] == "5"
        assert client.get("/api/v1/healthz").status_code == 200
        checked = client.post("/api/v1/validate", data=as_bytes(simulated("battle", 3, seed=1)),
                              content_type="application/json")
        assert checked.status_code == 200 and checked.get_json()["status"] == "complete"
    finally:
        get_database(app).dispose()


@pytest.fixture
def pg(pg_database: str) -> str:
    """This worker's PostgreSQL database, empty and migrated."""
    fresh_head(pg_database)
    return pg_database


@pytest.mark.postgres
def test_the_service_recovers_by_itself_when_the_database_returns(pg):
    relay = Relay()
    relay.up()
    app = create_app({"DATABASE_URL": relay.url(pg), "TESTING": True})
    client = app.test_client()
    try:
        first = as_bytes(simulated("battle", 3, seed=4001))
        created = client.post("/api/v1/games", data=first, content_type="application/json")
        assert created.status_code == 201
        slug = created.get_json()["slug"]
        assert client.get("/readyz").get_json()["ready"] is True

        relay.down()  # the database goes away: pooled connections are cut, new ones refused
        for name, response in needs_the_database(client, slug):
            assert_unavailable(name, response)
        for path in ("/readyz", "/api/v1/readyz"):
            ready = client.get(path)
            assert ready.status_code == 503 and ready.get_json()["ready"] is False
            assert ready.headers["Retry-After"] == "5"

        relay.up()  # it comes back; the same app, not restarted, serves again
        assert client.get("/readyz").status_code == 200
        again = client.post("/api/v1/games", data=first, content_type="application/json")
        assert again.status_code == 200 and again.get_json()["slug"] == slug
        second = client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=4003)),
                             content_type="application/json")
        assert second.status_code == 201
        listed = client.get("/api/v1/games").get_json()["items"]
        assert {g["slug"] for g in listed} == {slug, second.get_json()["slug"]}
        assert client.get(f"/r/{slug}").status_code == 200
    finally:
        get_database(app).dispose()
        relay.down()
    # what the outage interrupted left nothing behind: the POST during it stored nothing
    assert assert_every_game_is_whole(pg) == 2


@pytest.mark.postgres
def test_an_outage_in_the_middle_of_uploads_leaves_every_game_whole(pg):
    """Uploads from threads while the database goes away and comes back: each answer is 201,
    200 or 503, each 201/200 is stored, nothing else is, and every stored game is whole."""
    relay = Relay()
    relay.up()
    app = create_app({"DATABASE_URL": relay.url(pg), "TESTING": True})
    logs = [as_bytes(simulated("battle", 3, seed=4100 + i)) for i in range(24)]
    answers: dict[int, int] = {}
    started = threading.Barrier(5)

    def upload(share: list[int]) -> None:
        client = app.test_client()
        started.wait()
        for index in share:
            answers[index] = client.post("/api/v1/games", data=logs[index],
                                         content_type="application/json").status_code

    threads = [threading.Thread(target=upload, args=(list(range(k, 24, 4)),)) for k in range(4)]
    try:
        for thread in threads:
            thread.start()
        started.wait()
        relay.down()
        relay.up()
        relay.down()
        relay.up()
        for thread in threads:
            thread.join()
        assert set(answers.values()) <= {200, 201, 503}
        acknowledged = {hashlib.sha256(logs[i]).hexdigest() for i, c in answers.items()
                        if c < 300}
        stored_before = stored_hashes(pg)
        # a 503 may still have stored its game (the commit was sent, the answer was lost)
        assert acknowledged <= stored_before
        assert assert_every_game_is_whole(pg) == len(stored_before)
        # back up: every log is taken now, the ones stored before are recognised
        client = app.test_client()
        for raw in logs:
            status = client.post("/api/v1/games", data=raw,
                                 content_type="application/json").status_code
            assert status == (200 if hashlib.sha256(raw).hexdigest() in stored_before else 201)
    finally:
        get_database(app).dispose()
        relay.down()
    assert assert_every_game_is_whole(pg) == len(logs)


# --- a server killed mid-burst -------------------------------------------------------------------


@pytest.fixture
def serve(pg: str, tmp_path: Path) -> Iterator[Any]:
    """``serve()`` starts ``popreplay serve`` (gunicorn, 2 workers) on ``pg`` in its own process
    group; yields (base URL, process). Every server started is killed at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def start() -> tuple[str, subprocess.Popen[bytes]]:
        port = free_port()
        env = {**os.environ, "POPREPLAY_DATABASE_URL": pg}
        with (tmp_path / f"serve-{port}.log").open("wb") as log:  # the child keeps its copy
            process = subprocess.Popen(
                [sys.executable, "-m", "popreplay", "serve", "--workers", "2", "--port",
                 str(port)],
                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, process)
        return base, process

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def burst(base: str, logs: list[bytes], *, kill_after: int | None = None,
          process: subprocess.Popen[bytes] | None = None) -> dict[int, int | str]:
    """POST every log from 8 threads; with ``kill_after``, SIGKILL the server's whole process
    group (gunicorn's master and workers) as soon as that many uploads were acknowledged."""
    work: queue.Queue[int] = queue.Queue()
    for index in range(len(logs)):
        work.put(index)
    answers: dict[int, int | str] = {}
    lock = threading.Lock()
    enough = threading.Event()

    def client() -> None:
        while True:
            try:
                index = work.get_nowait()
            except queue.Empty:
                return
            try:
                status = request("POST", f"{base}/api/v1/games", logs[index],
                                 {"Content-Type": "application/json"})[0]
            except (OSError, http.client.HTTPException) as error:  # the server was killed
                status = type(error).__name__
            with lock:
                answers[index] = status
                if kill_after and sum(s in (200, 201) for s in answers.values()) >= kill_after:
                    enough.set()

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    if kill_after and process is not None:
        enough.wait(timeout=120)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.slow
@pytest.mark.postgres
def test_a_server_killed_mid_burst_leaves_nothing_half_written(pg, serve):
    logs = [as_bytes(simulated("battle", 3, seed=4200 + i)) for i in range(150)]
    base, process = serve()
    answers = burst(base, logs, kill_after=25, process=process)
    acknowledged = {hashlib.sha256(logs[i]).hexdigest() for i, s in answers.items()
                    if s in (200, 201)}
    cut = [i for i in range(len(logs)) if answers.get(i) not in (200, 201)]
    assert len(acknowledged) >= 25
    assert cut, "the kill came after the burst: nothing was interrupted"

    # Nothing acknowledged is lost; nothing stored is half-written.
    stored = stored_hashes(pg)
    assert acknowledged <= stored
    assert assert_every_game_is_whole(pg) == len(stored)
    runner = CliRunner(env={"POPREPLAY_DATABASE_URL": pg})
    check = runner.invoke(cli, ["revalidate", "--dry-run", "--json"], catch_exceptions=False)
    assert check.exit_code == 0
    assert check.stdout == ""  # no game's result would change
    assert f"{len(stored)} games checked, 0 would change" in check.stderr

    # A new server on the same database takes every log: stored ones are recognised (200).
    base, _ = serve()
    again = burst(base, logs)
    expected = {i: 200 if hashlib.sha256(logs[i]).hexdigest() in stored else 201
                for i in range(len(logs))}
    assert again == expected
    assert assert_every_game_is_whole(pg) == len(logs)
    listed = json.loads(request("GET", f"{base}/api/v1/games?limit=100")[2])["items"]
    assert len(listed) == 100


# --- a PostgreSQL instance the test owns, stopped and started ------------------------------------


class OwnPostgres:
    """A throw-away PostgreSQL cluster (``initdb`` in a temporary folder, run as the ``postgres``
    system user because PostgreSQL refuses root) on a free loopback port."""

    def __init__(self) -> None:
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not bins or shutil.which("runuser") is None:
            pytest.skip("initdb or runuser is not installed")
        if os.geteuid() != 0:
            pytest.skip("needs root to run PostgreSQL as the postgres user")
        self.bin = bins[-1].parent
        # pytest's tmp_path is under a folder only root may enter: a folder of its own in /tmp
        self.folder = Path(tempfile.mkdtemp(prefix="popreplay-pg-"))
        self.data = self.folder / "pgdata"
        self.port = free_port()
        subprocess.run(["chown", "postgres", str(self.folder)], check=True)
        self._as_postgres(self.bin / "initdb", "-D", str(self.data), "-A", "trust", "-U",
                          "postgres", "--no-sync")

    def _as_postgres(self, *command: object) -> None:
        done = subprocess.run(["runuser", "-u", "postgres", "--", *map(str, command)],
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stdout + done.stderr

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._as_postgres(self.bin / "pg_ctl", "-D", self.data, "-o", options, "-l",
                          self.data / "server.log", "-w", "start")

    def stop(self, mode: str = "fast", *, missing_ok: bool = False) -> None:
        if missing_ok and not (self.data / "postmaster.pid").exists():
            return
        self._as_postgres(self.bin / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")


@pytest.mark.slow
@pytest.mark.postgres
def test_a_postgresql_server_stopped_and_started_again():
    """The real thing: the database server itself stops (``immediate``: like a crash, recovery
    at the next start) and starts again; the running app answers 503, then serves again."""
    server = OwnPostgres()
    try:
        check_a_stop_and_a_start(server)
    finally:
        server.stop("immediate", missing_ok=True)
        server.remove()


def check_a_stop_and_a_start(server: OwnPostgres) -> None:
    server.start()
    app = None
    try:
        migrate.upgrade(server.url)
        app = create_app({"DATABASE_URL": server.url, "TESTING": True})
        client = app.test_client()
        created = client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=4300)),
                              content_type="application/json")
        assert created.status_code == 201
        slug = created.get_json()["slug"]

        server.stop("immediate")
        for name, response in needs_the_database(client, slug):
            assert_unavailable(name, response)
        assert client.get("/readyz").get_json()["ready"] is False

        server.start()
        assert client.get("/readyz").status_code == 200
        assert client.get(f"/api/v1/games/{slug}").status_code == 200
        second = client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=4301)),
                             content_type="application/json")
        assert second.status_code == 201
    finally:
        if app is not None:
            get_database(app).dispose()
    server.stop("immediate")  # a crash; the next start recovers from the write-ahead log
    server.start()
    assert assert_every_game_is_whole(server.url) == 2

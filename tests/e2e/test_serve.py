"""``popreplay serve`` as a real process (gunicorn) on a free port: upload over HTTP, follow the
share link, delete with the owner token. And ``pip install .`` + ``popreplay db upgrade``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import as_bytes, simulated

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(method: str, url: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


def wait_until_up(base: str, process: subprocess.Popen, seconds: float = 60,
                  every: float = 0.2) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"popreplay serve exited with {process.returncode}")
        try:
            if request("GET", f"{base}/readyz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(every)
    raise AssertionError("popreplay serve did not answer in time")


@contextmanager
def running(command: list[str], env: dict[str, str], cwd: Path) -> Iterator[str]:
    """Start ``command ... serve`` on a free port; yield its base URL; stop it."""
    port = free_port()
    log = (cwd / f"serve-{port}.log").open("wb")
    process = subprocess.Popen([*command, "--port", str(port)], cwd=cwd, env=env, stdout=log,
                               stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
        yield base
    finally:
        process.send_signal(signal.SIGINT)  # gunicorn: quick shutdown
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture
def server(db_url, tmp_path):
    env = {**os.environ, "POPREPLAY_DATABASE_URL": db_url}
    command = [sys.executable, "-m", "popreplay", "serve", "--workers", "2"]
    with running(command, env, tmp_path) as base:
        yield base


@pytest.mark.slow
def test_upload_follow_the_share_link_and_delete(server):
    raw = as_bytes(simulated("battle", 3, seed=71))
    status, headers, body = request("POST", f"{server}/api/v1/games", raw,
                                    {"Content-Type": "application/json"})
    assert status == 201, body
    created = json.loads(body)
    assert created["share_url"] == f"{server}/r/{created['slug']}"
    assert headers["Server"].startswith("gunicorn")

    status, headers, _ = request("GET", created["share_url"])
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    status, _, replay = request("GET", f"{server}/api/v1/games/{created['slug']}/replay")
    assert status == 200 and json.loads(replay)["steps"]

    status, _, again = request("POST", f"{server}/api/v1/games", raw,
                               {"Content-Type": "application/json"})
    assert status == 200 and json.loads(again)["id"] == created["id"]

    auth = {"Authorization": f"Bearer {created['owner_token']}"}
    status, _, body = request("DELETE", f"{server}/api/v1/games/{created['id']}", None, auth)
    assert status == 204
    status, _, body = request("GET", f"{server}/api/v1/games/{created['id']}")
    assert status == 404 and json.loads(body)["code"] == 404
    assert request("GET", created["share_url"])[0] == 404


@pytest.mark.slow
def test_pip_install_then_db_upgrade_finds_the_migrations(tmp_path):
    """A non-editable install (the README's) carries the Alembic scripts.

    The venv is made without pip of its own (``ensurepip`` took 5 s of this test): this
    environment's pip installs into it (``--python``), the same non-editable ``pip install .``."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # the dependencies come from this environment; popreplay itself from `pip install .`
    site = Path(subprocess.check_output(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        text=True).strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                    "--no-deps", str(ROOT)], check=True, cwd=tmp_path)
    assert not (site / "popreplay.pth").exists() and not list(site.glob("__editable__*"))
    env = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"}
    env.pop("PYTHONPATH", None)
    where = subprocess.check_output(
        [str(python), "-c", "import popreplay.migrations as m; print(m.__file__)"],
        text=True, cwd=tmp_path, env=env).strip()
    assert where.startswith(str(site)), where
    subprocess.run([str(venv / "bin" / "popreplay"), "db", "upgrade"], check=True,
                   cwd=tmp_path, env=env)
    current = subprocess.check_output([str(venv / "bin" / "popreplay"), "db", "current"],
                                      text=True, cwd=tmp_path, env=env)
    from popreplay.db import migrate

    assert f"current: {migrate.head()}" in current  # every revision the package ships

    # the README's first command: serve with the default SQLite file in the user's data folder
    env.pop("POPREPLAY_DATABASE_URL")
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    with running([str(venv / "bin" / "popreplay"), "serve"], env, tmp_path) as base:
        status, _, body = request("POST", f"{base}/api/v1/games",
                                  as_bytes(simulated("coop", 4, seed=72)),
                                  {"Content-Type": "application/json"})
        assert status == 201
        status, headers, _ = request("GET", json.loads(body)["share_url"])
        assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert (tmp_path / "data" / "popreplay" / "popreplay.sqlite").is_file()
    assert not (venv / "var").exists()


@pytest.mark.slow
def test_simultaneous_uploads_of_one_log_store_one_game(server):
    from concurrent.futures import ThreadPoolExecutor

    raw = as_bytes(simulated("battle", 4, seed=73))

    def upload(_: int) -> tuple[int, int]:
        status, _, body = request("POST", f"{server}/api/v1/games", raw,
                                  {"Content-Type": "application/json"})
        return status, json.loads(body)["id"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(upload, range(8)))
    assert sorted(status for status, _ in answers) == [200] * 7 + [201]
    assert len({game_id for _, game_id in answers}) == 1
    status, _, body = request("GET", f"{server}/api/v1/games")
    assert [g["id"] for g in json.loads(body)["items"]] == [answers[0][1]]


@pytest.mark.slow
def test_streams_through_gunicorn(server):
    logs = [as_bytes(simulated("solo", 1, seed=seed)) for seed in (74, 75, 76)]
    for raw in logs[:2]:
        assert request("POST", f"{server}/api/v1/games", raw,
                       {"Content-Type": "application/json"})[0] == 201
    status, headers, body = request("GET", f"{server}/api/v1/games/export")
    assert status == 200 and headers["Content-Type"].startswith("application/x-ndjson")
    assert [json.loads(line)["raw_log"].encode() for line in body.splitlines()] == logs[:2]

    ndjson = b"\n".join([*logs, b"nonsense"]) + b"\n"
    status, headers, body = request("POST", f"{server}/api/v1/validate", ndjson,
                                    {"Content-Type": "application/x-ndjson"})
    assert status == 200
    results = [json.loads(line) for line in body.splitlines()]
    assert [r["line"] for r in results] == [1, 2, 3, 4]
    assert results[3]["status"] == "invalid"
    assert all(r["legal"] for r in results[:3])


@contextmanager
def serve_to_stop(folder: Path, workers: int) -> Iterator[tuple[subprocess.Popen, str, Path]]:
    """``popreplay serve`` on a SQLite file in ``folder``, for a test that stops it itself:
    the process, its base URL once it answers, its log. Killed after, if the test did not stop
    it."""
    port = free_port()
    log_path = folder / "serve.log"
    env = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{folder / 'stop.sqlite'}"}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "popreplay", "serve", "--workers", str(workers),
             "--port", str(port)], cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process, every=0.02)
        yield process, base, log_path
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_just_after_start_stops_every_worker_at_once(tmp_path, stop):
    """A worker keeps the master's signal handlers from its fork until it installs its own: a stop
    sent then was lost, and the master killed the worker after the graceful timeout (10 s). Ctrl+C
    as soon as the first worker answers is that case (the second is still starting)."""
    with serve_to_stop(tmp_path, workers=4) as (process, _, log_path):
        process.send_signal(stop)
        returncode = process.wait(timeout=30)
    served = log_path.read_text()
    assert "was sent SIGKILL" not in served and "graceful timeout" not in served, served
    assert returncode == 0, served
    assert served.count("Worker exiting") == 4, served


FORK_THEN_STOP = """
import os, signal, sys, time
from popreplay import service_cli

queued = []  # the master's handler, as gunicorn's: it queues the stop for the master's loop
signal.signal(signal.SIGTERM, lambda number, _frame: queued.append(number))
if sys.argv[1] == "guarded":
    service_cli._guard_forks()
pid = os.fork()
if pid == 0:
    time.sleep(0.3)  # gunicorn's child before the worker's handlers: title, log, post_fork
    print("before the worker's handlers:", service_cli._held, queued, flush=True)
    stopped = []
    signal.signal(signal.SIGTERM, lambda number, _frame: stopped.append(number))  # the worker's
    service_cli._pass_held_stops(None)
    time.sleep(0.1)
    print("worker stopped by:", stopped, flush=True)
    os._exit(0)
os.kill(pid, signal.SIGTERM)  # at once: the child is still on the master's handlers
os.waitpid(pid, 0)
os.kill(os.getpid(), signal.SIGTERM)  # the master's own stops still reach its handler
time.sleep(0.1)
print("master:", queued, flush=True)
"""


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded", "unguarded"])
def test_a_stop_sent_to_a_worker_right_after_its_fork_is_held_until_its_handlers(guarded):
    """The race behind a lost Ctrl+C (a worker forked while the master handled the stop), made
    certain: the stop reaches the new process before anything of gunicorn's runs in it. Guarded,
    it is held and passed on to the worker's own handler; without the guard it is lost (the
    failure the guard removes)."""
    run = subprocess.run([sys.executable, "-c", FORK_THEN_STOP,
                          "guarded" if guarded else "unguarded"],
                         cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    term = int(signal.SIGTERM)
    if guarded:
        assert run.stdout.splitlines() == [
            f"before the worker's handlers: [{term}] []", f"worker stopped by: [{term}]",
            f"master: [{term}]"]
    else:
        # lost either way: run by the master's handler in the child's copy, or dropped with the
        # signals Python clears just after a fork, depending on when it lands
        lines = run.stdout.splitlines()
        assert lines[0].startswith("before the worker's handlers: [] "), lines
        assert lines[1:] == ["worker stopped by: []", f"master: [{term}]"]


FREEZE = """
import gc, json, os, weakref
from popreplay import create_app, service_cli

class Cycle:
    pass

options = service_cli.serve_options("127.0.0.1", 8000, 1, 1, "gevent")
start = gc.get_freeze_count()
garbage = Cycle()
garbage.itself = garbage  # garbage the master made (the app it read the database's URL from)
garbage = weakref.ref(garbage)
options["on_starting"](None)  # gunicorn's master, before its first worker
master = gc.get_freeze_count()
assert garbage() is None, "the master froze its garbage"
pid = os.fork()
if pid == 0:
    inherited = gc.get_freeze_count()
    app = create_app()  # the worker loads its app
    loaded = len(gc.get_objects())
    options["post_worker_init"](None)
    print(json.dumps([start, master, inherited, loaded, gc.get_freeze_count(),
                      len(gc.get_objects())]), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
"""


def test_what_a_server_process_holds_once_up_is_left_out_of_the_garbage_collector():
    """The master freezes what it holds before it forks (its workers inherit that), and a worker
    what it holds once its app is loaded: later collections, and the interpreter's at exit, walk
    only what came after (a stop took 1.3 s, the master and its worker each collecting their whole
    heap at exit; docs/deploy.md)."""
    run = subprocess.run([sys.executable, "-c", FREEZE], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    start, master, inherited, loaded, frozen, left = json.loads(run.stdout)
    assert start == 0
    # the modules the master imported, still frozen in the worker (less a few freed since)
    assert master > 10_000 and master - 20 <= inherited <= master
    assert loaded > 10_000  # the app and what it imported, before the freeze
    # all of it frozen (less the few objects freed between the count and the freeze), and
    # almost nothing left for the collector to walk
    assert frozen >= master + loaded - 1_000 and left < 100

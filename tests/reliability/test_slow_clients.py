"""Slow clients (issue 15, finding 2) against real servers on loopback: ``popreplay serve`` as it
starts by default (gunicorn's gevent worker), and the production shape, nginx from Debian's
package with ``deploy/nginx.conf`` in front of ``popreplay serve --worker-class gthread``. Each
attack is bounded (64 sockets, a few seconds) and stops by itself. And a chunked upload over the
limit through gunicorn (finding 4)."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
import sqlalchemy as sa

from tests.conftest import as_bytes, simulated
from tests.e2e.test_serve import free_port, wait_until_up
from tests.reliability.slowclients import attack

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

pytestmark = pytest.mark.slow


@contextmanager
def popreplay_serve(db_url: str, folder: Path, *extra: str) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "POPREPLAY_DATABASE_URL": db_url}
    with (folder / f"serve-{port}.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "popreplay", "serve", "--port", str(port), *extra],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def nginx_in_front(upstream: str, folder: Path) -> Iterator[str]:
    """nginx with the repository's deploy/nginx.conf, its ports moved to free ones."""
    if NGINX is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nginx is missing (scripts/test installs Debian's nginx-light)")
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    port = free_port()
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "listen 80;" in conf and "server 127.0.0.1:8000;" in conf
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};").replace(
        "server 127.0.0.1:8000;", f"server {upstream.removeprefix('http://')};")
    prefix = folder / "nginx"
    prefix.mkdir()
    (prefix / "nginx.conf").write_text(conf)
    directives = f"pid {prefix}/nginx.pid; error_log {prefix}/error.log;"
    if os.geteuid() == 0:
        directives += " user root;"  # its workers must reach the test's private folder
    process = subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                "-g", f"daemon off; {directives}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.1)
            finally:
                connection.close()
        else:
            raise AssertionError("nginx did not start: " + (prefix / "error.log").read_text())
        yield base
    finally:
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'slow.sqlite'}"


@pytest.mark.parametrize("kind", ["headers", "body"])
def test_2_serve_answers_healthz_within_1s_with_64_slow_clients(sqlite_url, tmp_path, kind):
    with popreplay_serve(sqlite_url, tmp_path) as base:
        result = attack(base, 64, 3, kind)  # ~14 probes (every 0.2 s) with all 64 trickling
    print(f"serve (gevent), {kind} x64: {result.line()}")
    assert result.failures == 0, result.line()
    assert result.worst < 1.0, result.line()
    assert len(result.times) >= 10


def test_2_nginx_with_the_repository_config_shields_gthread(sqlite_url, tmp_path):
    with popreplay_serve(sqlite_url, tmp_path, "--worker-class", "gthread") as upstream:
        with nginx_in_front(upstream, tmp_path) as base:
            for kind in ("headers", "body"):
                result = attack(base, 64, 3, kind)
                print(f"nginx + gthread, {kind} x64: {result.line()}")
                assert result.failures == 0, (kind, result.line())
                assert result.worst < 1.0, (kind, result.line())
            # and it passes the service's own answers through
            connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
            raw = as_bytes(simulated("battle", 3, seed=120))
            connection.request("POST", "/api/v1/games", raw,
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            assert response.status == 201, response.read()
            response.read()
            connection.close()


def test_4_a_chunked_upload_over_the_limit_through_gunicorn(sqlite_url, tmp_path):
    big = as_bytes(simulated("battle", 3, seed=121, meta={"note": "x" * 1900}))
    big = big[:-1] + b" " * (1024 * 1024 + 10 - len(big)) + b"}"
    with popreplay_serve(sqlite_url, tmp_path) as base:
        connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=30)
        chunks = (big[i:i + 65536] for i in range(0, len(big), 65536))
        connection.request("POST", "/api/v1/games", chunks,
                           {"Content-Type": "application/json"}, encode_chunked=True)
        response = connection.getresponse()
        assert response.status == 413, response.read()
        response.read()
        connection.close()
    engine = sa.create_engine(sqlite_url)
    try:
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM games")).scalar() == 0
    finally:
        engine.dispose()

"""Two ``popreplay serve`` processes (separate ports, separate caches) on one PostgreSQL database
(issue 15, "Two servers, one database"): identical uploads to both at once store one game; a
delete on one is seen at once by the other (no replay or page from a cache); schema changes run
by one while the other serves (and while a client reads an export slowly)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy as sa

from popreplay.db.session import make_engine
from tests.conftest import fresh_pg_database, pg_admin, simulated
from tests.e2e.test_serve import request
from tests.store.test_same_game import respellings
from tests.reliability.test_slow_clients import popreplay_serve
from tests.databases import upgraded

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


@pytest.fixture
def shared_pg(testrun_uid: str, worker_id: str):
    name = f"popreplay_two_{testrun_uid[:8]}_{worker_id}"
    url = fresh_pg_database(name)
    upgraded(url)
    yield url
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def post(base: str, raw: bytes) -> tuple[int, dict]:
    status, _, body = request("POST", f"{base}/api/v1/games", raw,
                              {"Content-Type": "application/json"})
    return status, json.loads(body)


def test_two_servers_one_database(shared_pg, tmp_path: Path):
    with popreplay_serve(shared_pg, tmp_path) as one, popreplay_serve(shared_pg, tmp_path) as two:
        # identical (and respelled) uploads to both at once: one game each
        logs = [simulated("battle", 3, seed=300 + i) for i in range(6)]
        jobs = [(base, raw) for log in logs for raw in respellings(log)[:4] for base in (one, two)]
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda job: post(*job), jobs))
        assert sorted({status for status, _ in answers}) == [200, 201]
        assert sum(status == 201 for status, _ in answers) == len(logs)
        ids = {body["id"] for _, body in answers}
        assert len(ids) == len(logs)
        engine = make_engine(shared_pg, pooled=False)
        with engine.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM games")).scalar() == len(logs)

        # a delete on one is seen at once by the other, caches warm on both
        created = next(body for status, body in answers if status == 201)
        slug = created["slug"]
        for base in (one, two):
            for path in (f"/api/v1/games/{slug}/replay", f"/r/{slug}", f"/api/v1/games/{slug}"):
                assert request("GET", base + path)[0] == 200
        status, _, _ = request("DELETE", f"{one}/api/v1/games/{slug}", None,
                               {"Authorization": f"Bearer {created['owner_token']}"})
        assert status == 204
        for path in (f"/api/v1/games/{slug}/replay", f"/r/{slug}", f"/api/v1/games/{slug}",
                     f"/api/v1/games/{created['id']}"):
            assert request("GET", two + path)[0] == 404, path

        # schema changes by one side while the other serves, a slow export reader attached
        reader = socket.create_connection(("127.0.0.1", int(two.rsplit(":", 1)[1])))
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.sendall(b"GET /api/v1/games/export HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        reader.recv(64)  # the export has started; the client stops reading
        failures: list[int] = []
        stop = threading.Event()

        def traffic() -> None:
            while not stop.is_set():
                for base in (one, two):
                    status = request("GET", f"{base}/api/v1/games?limit=5")[0]
                    if status != 200:
                        failures.append(status)
                time.sleep(0.05)

        thread = threading.Thread(target=traffic)
        thread.start()
        try:
            start = time.monotonic()
            with engine.connect() as connection:
                connection.execute(sa.text("SET lock_timeout = '10s'"))
                connection.execute(sa.text("ALTER TABLE games ADD COLUMN probe integer"))
                connection.execute(sa.text("ALTER TABLE games DROP COLUMN probe"))
                connection.commit()
            altered = time.monotonic() - start
            upgraded = subprocess.run(
                [sys.executable, "-m", "popreplay", "db", "upgrade"], capture_output=True,
                text=True, timeout=60, env={**__import__("os").environ,
                                            "POPREPLAY_DATABASE_URL": shared_pg})
            assert upgraded.returncode == 0, upgraded.stderr
        finally:
            stop.set()
            thread.join()
            reader.close()
            engine.dispose()
        print(f"ALTER TABLE beside a stalled export: {altered * 1000:.0f} ms")
        assert altered < 5
        assert failures == []

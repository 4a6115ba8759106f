"""Concurrency (SQLite and PostgreSQL): many simultaneous posts of one log store exactly one game;
simultaneous posts of different logs are all stored; uploads, reads, deletes and duplicates at
once leave every stored result equal to what its stored log replays to (one transaction per
ingest)."""

from __future__ import annotations

import hashlib
import threading
from typing import Any, Callable

from popreplay.db.session import get_database
from tests.conftest import as_bytes, simulated

from .helpers import assert_every_game_is_whole, stored_hashes

THREADS = 12


def at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(0..count-1)`` in ``count`` threads released together; their answers."""
    gate = threading.Barrier(count)
    answers: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        gate.wait()
        try:
            answers[index] = work(index)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return answers


def test_many_simultaneous_posts_of_one_log_store_one_game(app, db_url):
    raw = as_bytes(simulated("battle", 4, seed=5001))

    def post(_: int) -> tuple[int, dict[str, Any]]:
        response = app.test_client().post("/api/v1/games", data=raw,
                                          content_type="application/json")
        return response.status_code, response.get_json()

    answers = at_once(THREADS, post)
    codes = sorted(code for code, _ in answers)
    assert codes == [200] * (THREADS - 1) + [201]
    assert len({body["slug"] for _, body in answers}) == 1
    assert sum("owner_token" in body for _, body in answers) == 1
    get_database(app).dispose()
    assert stored_hashes(db_url) == {hashlib.sha256(raw).hexdigest()}
    assert assert_every_game_is_whole(db_url) == 1


def test_simultaneous_posts_of_different_logs_are_all_stored(app, db_url):
    logs = [as_bytes(simulated("battle", 3, seed=5100 + i)) for i in range(THREADS * 3)]

    def post(index: int) -> list[int]:
        client = app.test_client()
        return [client.post("/api/v1/games", data=logs[k], content_type="application/json")
                .status_code for k in range(index, len(logs), THREADS)]

    answers = at_once(THREADS, post)
    assert [code for batch in answers for code in batch] == [201] * len(logs)
    get_database(app).dispose()
    assert stored_hashes(db_url) == {hashlib.sha256(raw).hexdigest() for raw in logs}
    assert assert_every_game_is_whole(db_url) == len(logs)
    slugs = app.test_client().get("/api/v1/games?limit=100").get_json()["items"]
    assert len({g["slug"] for g in slugs}) == len(logs)


def test_uploads_duplicates_reads_and_deletes_at_once_keep_every_game_whole(app, db_url):
    """Each thread uploads its own logs and a log every thread shares, reads the list, replays
    and deletes its first game: afterwards exactly the undeleted games are stored, whole."""
    shared = as_bytes(simulated("coop", 4, seed=5200))
    own = [[as_bytes(simulated("battle", 3, seed=5300 + 10 * t + k)) for k in range(3)]
           for t in range(THREADS)]

    def mixed(index: int) -> dict[str, Any]:
        client = app.test_client()
        created = [client.post("/api/v1/games", data=raw, content_type="application/json")
                   .get_json() for raw in own[index]]
        duplicate = client.post("/api/v1/games", data=shared, content_type="application/json")
        listed = client.get("/api/v1/games?limit=100")
        replay = client.get(f"/api/v1/games/{created[1]['slug']}/replay")
        gone = client.delete(f"/api/v1/games/{created[0]['slug']}",
                             headers={"Authorization": f"Bearer {created[0]['owner_token']}"})
        return {"dup": duplicate.status_code, "list": listed.status_code,
                "replay": replay.status_code, "delete": gone.status_code,
                "steps": len(replay.get_json()["steps"])}

    answers = at_once(THREADS, mixed)
    assert sorted(a["dup"] for a in answers) == [200] * (THREADS - 1) + [201]
    assert {a["list"] for a in answers} == {200}
    assert {a["replay"] for a in answers} == {200}
    assert {a["delete"] for a in answers} == {204}
    assert all(a["steps"] > 0 for a in answers)
    get_database(app).dispose()
    kept = {hashlib.sha256(raw).hexdigest() for logs in own for raw in logs[1:]}
    kept.add(hashlib.sha256(shared).hexdigest())
    assert stored_hashes(db_url) == kept
    assert assert_every_game_is_whole(db_url) == len(kept)

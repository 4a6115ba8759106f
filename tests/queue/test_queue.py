"""Bulk jobs on the real broker (RabbitMQ of this machine; mandatory with CI=true): the same
databases with and without a broker, a worker killed mid-job, a broker restart mid-job, a poison
game, idempotent chunks, and a first replay computed by a worker."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import sqlalchemy as sa

from popreplay.db.session import make_engine
from popreplay.queue.jobs import MAX_ATTEMPTS
from tests.conftest import as_bytes, simulated
from tests.queue.helpers import (
    changed_ids,
    popreplay,
    rows,
    scalar,
    start_popreplay,
    store_many,
    wait_until,
    workers,
)
from tests.databases import upgraded

pytestmark = pytest.mark.slow

GAME_COLUMNS = ("content_hash, canonical_hash, game, mode, status, legal, errors, outcome, "
                "claims, claims_match, engine_version, visibility, title, players")


def games(db_url: str) -> list[tuple]:
    found = rows(db_url, f"SELECT {GAME_COLUMNS} FROM games ORDER BY content_hash")
    return [tuple(json.loads(v) if isinstance(v, str) and v[:1] in "[{" else v for v in row)
            for row in found]


def seats(db_url: str) -> list[tuple]:
    return rows(db_url, "SELECT g.content_hash, p.position, p.name, p.score, p.won FROM "
                "game_players p JOIN games g ON g.id = p.game_id ORDER BY 1, 2")


def after_of(line: str) -> str:
    change = json.loads(line)
    return json.dumps([change["before"], change["after"]], sort_keys=True)


def write_import_files(folder) -> None:
    folder.mkdir()
    lines = [as_bytes(simulated("battle", 3, seed=n)) for n in range(60)]
    lines += lines[:5]  # duplicates
    illegal = simulated("coop", 3, seed=3)
    illegal["rounds"][0]["turns"][0]["plays"]["Alice"] = [51]
    lines.append(as_bytes(illegal))
    lines.append(b'{"format": "popreplay/1", "game": "pop"}')  # invalid
    (folder / "logs.ndjson").write_bytes(b"\n".join(lines) + b"\n")
    (folder / "one.json").write_bytes(as_bytes(simulated("solo", 1, seed=4)))


def side_by_side(envs: tuple[dict[str, str], ...], *args: str) -> list[subprocess.CompletedProcess]:
    """The same command in each environment, run at the same time (their start-ups overlap; each
    has its own database), each one's result."""
    started = [start_popreplay(env, *args) for env in envs]
    done = []
    for process in started:
        out, err = process.communicate(timeout=300)
        done.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return done


def test_import_and_revalidate_give_the_same_database_with_and_without_a_broker(
        queue_env, db_url, tmp_path):
    write_import_files(tmp_path / "logs")
    local_url = f"sqlite:///{tmp_path / 'local.sqlite'}"
    local_env = {k: v for k, v in queue_env.items() if k != "POPREPLAY_BROKER_URL"}
    local_env["POPREPLAY_DATABASE_URL"] = local_url
    for url in (local_url, db_url):
        upgraded(url)
    with workers(queue_env, tmp_path, 2):
        here, there = side_by_side((local_env, queue_env),
                                   "import", "--chunk", "7", str(tmp_path / "logs"))
        assert here.returncode == there.returncode == 2  # the invalid line
        summary = "stored 61, illegal 1 (stored too), duplicate 5, invalid 1"
        assert here.stdout.strip() == there.stdout.strip() == summary
        assert "by the workers (job 1)" in there.stderr
        assert games(local_url) == games(db_url) and len(games(db_url)) == 62
        assert seats(local_url) == seats(db_url)
        for url in (local_url, db_url):  # results gone stale, as after an engine release
            engine = make_engine(url, pooled=False)
            with engine.begin() as connection:
                connection.execute(sa.text("UPDATE games SET status = 'incomplete', "
                                           "engine_version = '0.0.0' "
                                           "WHERE content_hash < '6'"))
            engine.dispose()
        here, there = side_by_side((local_env, queue_env), "revalidate", "--json", "--chunk", "9")
        assert here.returncode == there.returncode == 0, there.stderr
        stale = scalar(local_url, "SELECT count(*) FROM games WHERE content_hash < '6'")
        assert 0 < stale < 62
        assert sorted(map(after_of, here.stdout.splitlines())) == sorted(
            map(after_of, there.stdout.splitlines()))
        assert len(there.stdout.splitlines()) == stale
        assert games(local_url) == games(db_url)
        assert scalar(db_url, "SELECT count(*) FROM job_chunks WHERE state != 'done'") == 0


def test_a_worker_killed_mid_job_leaves_its_chunk_to_another(queue_env, db_url, tmp_path):
    """1,500 games in 10 chunks of 150 (3,000 in 20 before; the survivor's 18 chunks alone were
    a third of the test): what is checked needs both workers mid-chunk once (each chunk takes
    0.5 s or more, polled every 0.05 s; the kill comes during the first two chunks) and chunks
    left after the kill, including the killed one's; every game still reported exactly once."""
    ids = store_many(db_url, 1500)
    with workers(queue_env, tmp_path, 2) as (one, two):
        follower = start_popreplay(queue_env, "revalidate", "--json", "--chunk", "150")
        # both busy (one process each, prefetch 1): two chunks taken and not done
        wait_until(lambda: scalar(db_url, "SELECT count(*) FROM job_chunks WHERE state = "
                                  "'queued' AND attempts > 0") == 2, timeout=300,
                   what="both workers mid-chunk", every=0.05)
        one.kill()
        out, err = follower.communicate(timeout=600)
    assert follower.returncode == 0, err
    reported = changed_ids(out)
    assert sorted(reported) == ids  # every game revalidated and reported, each exactly once
    assert "1500 games checked, 1500 changed" in err
    assert scalar(db_url, "SELECT count(*) FROM games WHERE engine_version = '0.0.0'") == 0
    assert scalar(db_url, "SELECT sum(item_count) FROM job_chunks WHERE state = 'done'") == 1500
    assert scalar(db_url, "SELECT max(attempts) FROM job_chunks") >= 2  # the killed one's chunk


RABBITMQCTL = shutil.which("rabbitmqctl") or "/usr/sbin/rabbitmqctl"


def rabbitmq(action: str) -> None:
    subprocess.run([RABBITMQCTL, action], check=True, capture_output=True, timeout=120)


def test_a_job_survives_a_broker_restart(queue_env, db_url, tmp_path):
    if not shutil.which("rabbitmqctl") and not shutil.os.path.exists(RABBITMQCTL):
        pytest.skip("rabbitmqctl is not installed")
    """1,000 games in 10 chunks of 100 (2,000 in 20 before): the broker goes down once a chunk
    is done, with most chunks still queued (a chunk takes 0.3 s or more), which is what is
    checked: the queued messages survive the restart and each game is revalidated once."""
    ids = store_many(db_url, 1000)
    with workers(queue_env, tmp_path, 1):
        submitted = popreplay(queue_env, "revalidate", "--detach", "--chunk", "100")
        assert submitted.returncode == 0, submitted.stderr
        job = int(submitted.stdout.strip())
        wait_until(lambda: (scalar(db_url, "SELECT count(*) FROM job_chunks WHERE state = "
                                   "'done'") or 0) >= 1, timeout=300, what="a chunk done")
        try:
            done = scalar(db_url, "SELECT count(*) FROM job_chunks WHERE state = 'done'")
            rabbitmq("stop_app")
            # down until the chunk in hand is done (its acknowledgement has no broker to go to:
            # the message comes again after the restart and is skipped), 3 s at most
            try:
                wait_until(lambda: scalar(db_url, "SELECT count(*) FROM job_chunks WHERE "
                                          "state = 'done'") > done, timeout=3,
                           what="a chunk done while the broker is down", every=0.1)
            except AssertionError:
                pass  # none in hand: down for 3 s, as before
        finally:
            rabbitmq("start_app")  # the broker runs again, whatever happened
        rabbitmq("await_startup")
        wait_until(lambda: scalar(db_url, f"SELECT state FROM jobs WHERE id = {job}") == "done",
                   timeout=300, what="the job to finish after the restart", every=0.5)
    assert scalar(db_url, "SELECT count(*) FROM games WHERE engine_version = '0.0.0'") == 0
    assert scalar(db_url, "SELECT sum(item_count) FROM job_chunks WHERE state = 'done'") == 1000
    changes = [c for (outcome,) in rows(db_url, "SELECT outcome FROM job_chunks")
               for c in (json.loads(outcome) if isinstance(outcome, str) else outcome)["changes"]]
    assert sorted(c["id"] for c in changes) == ids  # each game once


def test_a_poison_game_is_reported_not_retried_forever(queue_env, db_url, tmp_path):
    ids = store_many(db_url, 40, stale=False)
    engine = make_engine(db_url, pooled=False)
    with engine.begin() as connection:
        poison = simulated("battle", 3, seed=77, meta={"title": "POISON"})
        killer = simulated("battle", 3, seed=78, meta={"title": "KILLER"})
        for number, log in ((ids[3], poison), (ids[30], killer)):
            raw = json.dumps(log).encode()
            connection.execute(sa.text("UPDATE games SET log = :log WHERE id = :id"),
                               {"log": raw, "id": number})
    engine.dispose()
    with workers(queue_env, tmp_path, 1, poisoned=True):
        done = popreplay(queue_env, "revalidate", "--chunk", "20", timeout=400)
    assert done.returncode == 2
    assert f"{ids[3]} " in done.stderr and "not revalidated, the engine crashed: RecursionError" \
        in done.stderr
    assert f"given up: its worker died {MAX_ATTEMPTS} times on it" in done.stderr
    assert f"games {ids[20]}..{ids[39]}" in done.stderr
    assert "20 games checked" in done.stderr  # the first chunk; the killer's chunk given up
    assert scalar(db_url, "SELECT attempts FROM job_chunks WHERE number = 2") == MAX_ATTEMPTS + 1

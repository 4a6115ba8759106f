"""A chunk done twice is done once (no broker needed: the worker's task body, called here), a
second attempt that loses the race to the first leaves nothing of its own, a game that crashes
the engine in-process is reported; and a first replay computed by a worker (real broker)."""

from __future__ import annotations

import gzip
import json
import uuid

import pytest
from sqlalchemy import update

from popreplay import create_app
from popreplay.store import revalidation
from popreplay.store.replays import encode_replay
from popreplay.db.models import JobChunk
from popreplay.db.session import get_database
from popreplay.queue import jobs
from tests.queue.helpers import rows, scalar, store_many, workers


@pytest.fixture
def job_of(db_url):
    """A revalidate job of ``count`` stale games, in one chunk: (app, session, job id, ids)."""
    made = []

    def make(count: int, *, chunk: int):
        ids = store_many(db_url, count)
        app = create_app({"DATABASE_URL": db_url, "TESTING": True})
        context = app.app_context()
        context.push()
        session = get_database(app).session()
        job = jobs.new_job(session, kind="revalidate", params={"dry_run": False})
        for number, start in enumerate(range(0, count, chunk), start=1):
            part = ids[start:start + chunk]
            jobs.add_chunk(session, job_id=job, number=number,
                           payload={"ids": [part[0], part[-1]]}, item_count=len(part))
        jobs.seal(session, job_id=job, chunk_count=-(-count // chunk), item_count=count)
        made.append((app, context, session))
        return session, job, ids

    yield make
    for app, context, session in made:
        session.close()
        context.pop()
        get_database(app).dispose()


def test_a_chunk_delivered_twice_is_done_once(job_of, db_url, monkeypatch):
    session, job, ids = job_of(30, chunk=15)
    calls = []
    real = revalidation.check_text
    monkeypatch.setattr(revalidation, "check_text", lambda raw, **kw: calls.append(1) or real(raw, **kw))
    assert jobs.run_chunk(session, job_id=job, number=1) == "done"
    assert jobs.run_chunk(session, job_id=job, number=1) == "skipped"  # redelivered
    assert len(calls) == 15
    assert jobs.run_chunk(session, job_id=job, number=2) == "done"
    assert scalar(db_url, f"SELECT state FROM jobs WHERE id = {job}") == "done"
    assert scalar(db_url, "SELECT count(*) FROM games WHERE engine_version = '0.0.0'") == 0
    outcomes = [json.loads(o) if isinstance(o, str) else o
                for (o,) in rows(db_url, "SELECT outcome FROM job_chunks ORDER BY number")]
    assert [len(o["changes"]) for o in outcomes] == [15, 15]
    assert sorted(c["id"] for o in outcomes for c in o["changes"]) == ids


def test_an_attempt_that_loses_the_race_leaves_nothing(job_of, db_url, monkeypatch):
    session, job, ids = job_of(10, chunk=10)
    real = revalidation.check_text
    engine = session.get_bind()

    def other_attempt_commits_first(raw, **kwargs):
        with engine.begin() as connection:  # the first attempt, done meanwhile elsewhere
            connection.execute(update(JobChunk).where(JobChunk.job_id == job)
                               .values(state="done", outcome={"checked": 0, "changes": [],
                                                              "poison": []}))
        monkeypatch.setattr(revalidation, "check_text", real)
        return real(raw, **kwargs)

    monkeypatch.setattr(revalidation, "check_text", other_attempt_commits_first)
    assert jobs.run_chunk(session, job_id=job, number=1) == "skipped"
    # this attempt's results were rolled back with it: still stale, the winner's outcome kept
    assert scalar(db_url, "SELECT count(*) FROM games WHERE engine_version = '0.0.0'") == 10
    outcome = rows(db_url, "SELECT outcome FROM job_chunks")[0][0]
    assert (json.loads(outcome) if isinstance(outcome, str) else outcome)["checked"] == 0


def test_popreplay_jobs_lists_the_jobs(job_of, runner):
    session, job, ids = job_of(20, chunk=10)
    assert jobs.run_chunk(session, job_id=job, number=1) == "done"
    listed = runner.invoke(["jobs"])
    assert listed.exit_code == 0
    assert listed.stdout.startswith(f"{job} revalidate running: chunks 1/2 done; 10/20 items;")


def test_a_chunk_that_kills_its_worker_is_given_up(job_of, db_url):
    session, job, ids = job_of(10, chunk=10)
    session.execute(update(JobChunk).values(attempts=jobs.MAX_ATTEMPTS))
    session.commit()
    assert jobs.run_chunk(session, job_id=job, number=1) == "given-up"
    outcome = rows(db_url, "SELECT outcome, state FROM job_chunks")[0]
    assert outcome[1] == "failed"
    assert f"games {ids[0]}..{ids[-1]}" in str(outcome[0])
    assert scalar(db_url, f"SELECT state FROM jobs WHERE id = {job}") == "done"


def test_in_process_a_poison_game_is_reported_and_the_others_revalidated(runner, db_url,
                                                                          monkeypatch):
    ids = store_many(db_url, 12)
    real = revalidation.check_text
    poisoned = {}

    def check_text(raw, **kwargs):
        if not poisoned:
            poisoned["raw"] = raw
        if raw is poisoned["raw"]:
            raise RecursionError("a game the engine cannot replay")
        return real(raw, **kwargs)

    monkeypatch.setattr(revalidation, "check_text", check_text)
    done = runner.invoke(["revalidate", "--json", "--chunk", "5"])
    assert done.exit_code == 2
    assert f"{ids[0]} " in done.stderr and "the engine crashed: RecursionError" in done.stderr
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == ids[1:]
    assert scalar(db_url, "SELECT count(*) FROM games WHERE engine_version = '0.0.0'") == 1


def test_detach_needs_a_broker(runner, db_url):
    store_many(db_url, 5)
    done = runner.invoke(["revalidate", "--detach"])
    assert done.exit_code == 1 and "--detach needs a broker" in done.stderr
    assert scalar(db_url, "SELECT count(*) FROM jobs") == 0  # in-process: no job rows


@pytest.mark.slow
def test_a_first_replay_is_computed_by_a_worker(queue_env, db_url, tmp_path):
    from tests.conftest import as_bytes, simulated

    store_many(db_url, 5, stale=False)
    app = create_app({"DATABASE_URL": db_url, "TESTING": True, "REPLAY_WAIT": 0.5,
                      "BROKER_URL": queue_env["POPREPLAY_BROKER_URL"],
                      "QUEUE_NAME": queue_env["POPREPLAY_QUEUE"]})
    client = app.test_client()
    # a game of its own: a replay in this process's cache (another test's) is not computed again
    raw = as_bytes(simulated("battle", 4, seed=uuid.uuid4().int % 10**6 + 5000))
    slug = client.post("/api/v1/games", data=raw, content_type="application/json"
                       ).get_json()["slug"]
    pending = client.get(f"/api/v1/games/{slug}/replay")  # no worker yet: 503, Retry-After
    assert pending.status_code == 503 and pending.headers["Retry-After"] == "2"
    assert scalar(db_url, "SELECT count(*) FROM replays") == 0  # nothing computed here
    with workers(queue_env, tmp_path, 1):
        from tests.queue.helpers import wait_until

        wait_until(lambda: scalar(db_url, "SELECT count(*) FROM replays") == 1, timeout=240,
                   what="the worker to store the replay")
        answer = client.get(f"/api/v1/games/{slug}/replay")
    assert answer.status_code == 200
    expected = json.loads(gzip.decompress(encode_replay(raw).body))
    assert answer.get_json() == expected and expected["steps"]
    get_database(app).dispose()

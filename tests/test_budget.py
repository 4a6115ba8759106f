"""popreplay.budget: every engine job releases its place whatever it raises (issue 36).

A computation that raised a ``RecursionError`` (an entry whose ``/meta`` was nested ~900 levels
deep) was never reported back under gevent (the hub failed to carry its 1,000-frame traceback),
so its place in the budget was never released: 64–96 such requests left every engine request of
a worker 503 until restart. Both pools are tested: the plain thread pool in this process, gevent's
hub pool in a subprocess (``monkey.patch_all`` must come before anything else is imported).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from popreplay import budget

JOBS = 200


class Stop(BaseException):
    """Not even an ``Exception``: released all the same."""


def deep(n: int) -> int:
    return deep(n + 1)


def failing(i: int) -> None:
    if i % 3 == 0:
        deep(0)
    if i % 3 == 1:
        raise ValueError(f"job {i}")
    raise Stop(f"job {i}")


EXPECTED = {0: "RecursionError", 1: "ValueError", 2: "Stop"}


def run_failing_jobs() -> dict[str, object]:
    """200 failing jobs, keyed and not, through :func:`budget.run`; what each caller got and what
    is left of the budget right after (the place is released before the outcome is handed back)."""
    raised = []
    for i in range(JOBS):
        key = ("failing", i) if i % 2 else None
        try:
            budget.run(key, failing, i, wait=10)
        except budget.Busy:
            raised.append("Busy")
        except BaseException as error:  # noqa: BLE001 - what the caller gets is the point
            raised.append(type(error).__name__)
    after = {"in_flight": budget.in_flight(), "running": len(budget._running)}
    ok = [budget.run(("fine", i), lambda i=i: f"{i}".encode(), wait=10)
          for i in range(budget.MAX_IN_FLIGHT + 1)]
    return {"raised": raised, **after, "ok": len(ok), "in_flight_end": budget.in_flight()}


def check(outcome: dict[str, object]) -> None:
    assert outcome["raised"] == [EXPECTED[i % 3] for i in range(JOBS)]  # each error, no Busy
    assert outcome["in_flight"] == 0 and outcome["running"] == 0
    assert outcome["ok"] == budget.MAX_IN_FLIGHT + 1 and outcome["in_flight_end"] == 0


def test_200_failing_jobs_leave_the_budget_empty_in_the_thread_pool():
    check(run_failing_jobs())


def test_200_failing_jobs_leave_the_budget_empty_in_gevents_hub_pool():  # ~3 s
    script = textwrap.dedent("""
        from gevent import monkey
        monkey.patch_all()
        import json, sys
        from popreplay.greenlets import gevent_patched
        assert gevent_patched()
        sys.path.insert(0, sys.argv[1])
        import test_budget
        print(json.dumps(test_budget.run_failing_jobs()))
    """)
    done = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=240,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert done.returncode == 0, done.stderr[-2000:]
    check(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "failed with RecursionError" not in done.stderr  # nothing reached gevent's hub


def test_a_failed_job_is_reported_to_when_done_and_raised_by_value():
    got: list[object] = []
    job = budget.Background(deep, 0)
    job.when_done(got.append)
    assert job.wait(10)
    with pytest.raises(RecursionError):
        job.value()
    for _ in range(100):
        if got:
            break
        job.wait(0.01)
    assert got == [None]


def test_a_job_that_cannot_start_releases_its_place(monkeypatch):
    def no_thread(*args: object, **kwargs: object) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(budget, "Background", no_thread)
    for _ in range(budget.MAX_IN_FLIGHT + 1):
        with pytest.raises(RuntimeError):
            budget.run(("no thread",), sum, [1], wait=1)
    assert budget.in_flight() == 0 and not budget._running


def test_a_keyed_job_shared_by_two_callers_fails_for_both_and_is_released():
    import threading

    gate = threading.Event()

    def slow_failure() -> None:
        gate.wait(10)
        raise ValueError("shared")

    results: list[str] = []

    def call() -> None:
        try:
            budget.run(("shared",), slow_failure, wait=10)
        except ValueError as error:
            results.append(str(error))

    callers = [threading.Thread(target=call) for _ in range(2)]
    for caller in callers:
        caller.start()
    for _ in range(200):
        if budget.in_flight():
            break
        gate.wait(0.01)
    gate.set()
    for caller in callers:
        caller.join(10)
    assert results == ["shared", "shared"]
    assert budget.in_flight() == 0 and not budget._running

"""Shared by the hardening tests (issues 15, 16 and 25): posting a log, counting stored games,
engine work made slower and counted, and the autouse fixture that leaves no engine work kept
between two tests."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import sqlalchemy as sa

from popreplay import budget
from popreplay.db.models import GameRecord
from popreplay.db.session import get_database
from popreplay.engine.registry import get_game

MiB = 1024 * 1024


def post(client: Any, raw: bytes, **kwargs: Any) -> Any:
    return client.post("/api/v1/games", data=raw, content_type="application/json", **kwargs)


def count_games(app: Any) -> int:
    with get_database(app).session() as session:
        return session.scalar(sa.select(sa.func.count()).select_from(GameRecord))


API = "/api/v1/record"
CUBE = get_game("cube")


@pytest.fixture(autouse=True)
def nothing_kept():
    settle()
    budget.clear()
    yield
    settle()
    budget.clear()


def upload(client: Any, log: dict[str, Any], visibility: str = "public") -> dict[str, Any]:
    answer = client.post(f"/api/v1/games?visibility={visibility}", data=json.dumps(log),
                         content_type="application/json")
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def small_cube(seed: int = 3) -> dict[str, Any]:
    log = CUBE.simulate(mode="standard", players=3, seed=seed)
    log.pop("claimed", None)
    return log


def slow(monkeypatch: Any, module: Any, name: str, seconds: float) -> list[int]:
    """``module.name`` made ``seconds`` slower; the calls are counted."""
    real, calls = getattr(module, name), []

    def slower(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        time.sleep(seconds)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slower)
    return calls


def settle() -> None:
    """Until no engine work is running (a request that stopped waiting leaves it going on)."""
    for _ in range(400):
        if not budget._running and not budget._in_flight:
            return
        time.sleep(0.05)

"""``POST /api/v1/record/check`` never answers 5xx (issue 33): a bounded, seeded fuzz over every
game (each shipped example, cut to drafts of several lengths) and every field of the game's
``pending`` entry (docs/recorder.md), with values of the right and of wrong shapes; each answer
is a 200 with its result and choices (an entry of the wrong shape: ``choices.error`` under
``/pending``) or a 422 in the error shape."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from popreplay.games import KITS
from tests.reliability.test_fuzz_record import short

pytestmark = pytest.mark.slow  # ~1,000 checks a database

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "popreplay" / "games")
                  .glob("*/examples/*.json"))
CARDS = [None, 0, 1, 5, 50, 104, -1, 10**9, 2.5, "red-7", "shadow-0", "x", True, [], {}]


def values(rng: random.Random, players: list[str]) -> list[Any]:
    """Values a recorder's panel could send for one field, shapes right and wrong."""
    def some() -> list[Any]:
        return [rng.choice(CARDS) for _ in range(rng.randint(1, 6))]
    return [None, [], [None], [None, None], {}, "", players[0], rng.choice(players), True, 0, 3,
            99, some(), {p: some() for p in players}, {"nobody": some()}, "round", "layout",
            "hands", "kept", [some()], -5]


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{p.parent.parent.name}-{p.stem}"
                                                    for p in EXAMPLES])
def test_every_pending_shape_of_every_game_is_answered(client: Any, example: Path) -> None:
    log = json.loads(example.read_text(encoding="utf-8"))
    kit = KITS[log["game"]]
    fields = list(kit.load("pending")) if kit.pending else ["anything"]
    rng = random.Random(f"{example.name}-33")
    answered = 0
    for moves in (0, 2, 8):
        draft = short(log, moves)
        for field in fields:  # every field alone, with every value
            for value in values(rng, log["players"]):
                answered += _check(client, draft, {field: value})
        for _ in range(6):  # and a few together
            chosen = rng.sample(fields, k=rng.randint(1, len(fields)))
            pending = {f: rng.choice(values(rng, log["players"])) for f in chosen}
            answered += _check(client, draft, pending, steps="tail")
    assert answered > 0


def _check(client: Any, draft: dict[str, Any], pending: dict[str, Any], *,
           steps: str = "none") -> int:
    response = client.post("/api/v1/record/check",
                           json={"log": draft, "pending": pending, "steps": steps})
    assert response.status_code in (200, 422), (pending, response.status_code, response.data)
    body = response.get_json()
    if response.status_code == 422:
        assert body["errors"] and all(e["path"].startswith("/") for e in body["errors"])
        return 1
    assert set(body) == {"result", "steps", "choices"}, body
    error = (body["choices"] or {}).get("error")
    if error is not None and error.get("code") == "pending":
        assert error["path"].startswith("/pending"), error
    return 1

"""Helpers of the group tests: a group of five with games stored in played order."""

from __future__ import annotations

from typing import Any

from popreplay.db.session import get_session
from popreplay.groups import access, games, members
from popreplay.store.ingestion import ingest
from tests.conftest import as_bytes, simulated

NAMES = ["Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji"]


def battle(seed: int, players: int, day: int, **changes: Any) -> bytes:
    """A simulated battle played on ``day`` of May 2026 (its place in the played order)."""
    log = simulated("battle", players, seed)
    log["meta"] = {**log.get("meta", {}), "played_at": f"2026-05-{day:02d}T20:00:00Z"}
    log.update(changes)
    return as_bytes(log)


def club(*, count: int = 20, private: bool = True) -> tuple[Any, dict[str, int], list[Any]]:
    """A group of the five simulated players (their names as aliases) and ``count`` battles of
    2 to 5 of them, each on its own day: the group, its members' ids by name, the records."""
    session = get_session()
    made = access.create_group(session, name="Thursday Club", private=private)
    group = made.group
    ids = {name: members.add_member(session, group, name=name).id for name in NAMES}
    records = []
    for k in range(count):
        done = ingest(session, battle(100 + k, 2 + k % 4, 1 + k))
        games.add_game(session, group, done.record)
        records.append(done.record)
    return made, ids, records

"""The table states kept per process (popreplay/tables/state.py, on popreplay.caching's
BoundedCache): of one table only the last KEEP_BEHIND states before its latest, of every table at
most CACHE_SIZE, the least recently used first to go."""

from __future__ import annotations

from typing import Iterator

import pytest

from popreplay.tables import state as states


def made(table: str, seq: int) -> states.State:
    return states.State(table=table, game="pop", seq=seq, hands=False, log={}, choices={},
                        plans={}, parts={}, last_change=seq)


@pytest.fixture(autouse=True)
def empty() -> Iterator[None]:
    states.forget()
    yield
    states.forget()


def test_of_one_table_only_the_states_just_before_its_latest_are_kept():
    assert states.KEEP_BEHIND == 4
    for seq in range(1, 11):
        states.keep(made("t", seq))
    assert [s.seq for s in states._cache.values()] == [6, 7, 8, 9, 10]
    assert states.kept("t", 5) is None and states.kept("t", 6).seq == 6
    assert states.latest_before("t", 10).seq == 9
    assert states.latest_before("t", 6) is None


def test_another_tables_states_are_not_let_go_by_this_one():
    states.keep(made("u", 1))
    for seq in range(1, 20):
        states.keep(made("t", seq))
    assert states.kept("u", 1) is not None
    assert states.latest_before("u", 99).seq == 1
    states.forget("t")
    assert states._cache.keys() == [("u", 1)]


def test_past_cache_size_the_least_recently_used_goes_and_a_read_keeps_one():
    for n in range(states.CACHE_SIZE):
        states.keep(made(f"t{n}", 1))
    assert states.kept("t0", 1) is not None  # now the most recently used
    states.keep(made("new", 1))
    assert len(states._cache) == states.CACHE_SIZE
    assert states.kept("t1", 1) is None and states.kept("t0", 1) is not None


def test_a_tables_old_states_make_room_before_any_other_tables():
    for n in range(states.CACHE_SIZE - 5):
        states.keep(made(f"t{n}", 1))
    for seq in range(1, 6):
        states.keep(made("t", seq))  # the cache is full now
    states.keep(made("t", 6))  # lets ("t", 1) go, no other table's state
    assert states.kept("t0", 1) is not None and states.kept("t", 1) is None
    assert len(states._cache) == states.CACHE_SIZE

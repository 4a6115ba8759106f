"""popreplay.caching.BoundedCache: the one bounded cache type of the service (replays, pages,
localized replays, link previews)."""

from __future__ import annotations

import threading

import pytest

from popreplay.caching import BoundedCache


def test_least_recently_used_goes_first_past_max_entries():
    cache: BoundedCache[str, str] = BoundedCache(max_entries=2)
    assert cache.put("a", "1") and cache.put("b", "2")
    assert cache.get("a") == "1"  # now the most recent
    cache.put("c", "3")
    assert cache.keys() == ["a", "c"] and cache.get("b") is None
    assert len(cache) == 2 and "a" in cache and "b" not in cache


def test_bounded_by_the_total_size_of_its_values():
    cache: BoundedCache[str, bytes] = BoundedCache(max_bytes=10)
    cache.put("a", b"xxxx")
    cache.put("b", b"yyyy")
    assert cache.bytes == 8
    cache.put("c", b"zzzz")  # 12 > 10: the oldest goes
    assert cache.keys() == ["b", "c"] and cache.bytes == 8
    cache.put("b", b"y")  # replaced: its size counted once
    assert cache.bytes == 5 and cache.keys() == ["c", "b"]


def test_a_value_over_max_item_bytes_is_not_kept_and_drops_nothing():
    cache: BoundedCache[str, str] = BoundedCache(max_bytes=100, max_item_bytes=25)
    cache.put("small", "s" * 10)
    assert cache.put("huge", "h" * 26) is False
    assert cache.keys() == ["small"] and cache.bytes == 10


def test_without_an_item_bound_a_value_larger_than_max_bytes_is_kept_alone():
    cache: BoundedCache[str, str] = BoundedCache(max_bytes=10)
    cache.put("a", "aa")
    assert cache.put("big", "b" * 50) is True
    assert cache.keys() == ["big"] and cache.bytes == 50


def test_both_bounds_apply():
    cache: BoundedCache[int, str] = BoundedCache(max_entries=3, max_bytes=5)
    for key in range(4):
        cache.put(key, "x")
    assert cache.keys() == [1, 2, 3]
    cache.put(9, "xxxx")
    assert cache.keys() == [3, 9] and cache.bytes == 5


def test_a_custom_size():
    cache: BoundedCache[str, list[int]] = BoundedCache(max_bytes=10, size=sum)
    cache.put("a", [3, 3])
    cache.put("b", [5])
    assert cache.keys() == ["b"] and cache.bytes == 5


def test_on_evict_hears_of_every_value_dropped_for_room_not_of_pop_or_clear():
    dropped: list[tuple[str, str]] = []
    cache: BoundedCache[str, str] = BoundedCache(
        max_entries=1, on_evict=lambda key, value: dropped.append((key, value)))
    cache.put("a", "1")
    cache.put("b", "2")
    assert dropped == [("a", "1")]
    assert cache.pop("b") == "2" and cache.pop("b") is None
    cache.put("c", "3")
    cache.clear()
    assert dropped == [("a", "1")] and len(cache) == 0 and cache.bytes == 0


def test_get_or_compute_computes_on_a_miss_only():
    cache: BoundedCache[str, str] = BoundedCache(max_entries=4)
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        return "value"

    assert cache.get_or_compute("k", compute) == "value"
    assert cache.get_or_compute("k", compute) == "value"
    assert calls == [1]


def test_it_needs_a_bound():
    with pytest.raises(ValueError):
        BoundedCache()
    with pytest.raises(ValueError):
        BoundedCache(max_entries=0)
    with pytest.raises(ValueError):
        BoundedCache(max_bytes=0)


def test_many_threads_at_once_keep_it_within_its_bounds():
    cache: BoundedCache[int, bytes] = BoundedCache(max_entries=50, max_bytes=400)
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for n in range(2000):
                key = (offset * 7919 + n) % 300
                if cache.get(key) is None:
                    cache.put(key, bytes(key % 16))
                if n % 97 == 0:
                    cache.pop(key)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(cache) <= 50 and cache.bytes <= 400
    assert cache.bytes == sum(len(value) for value in cache.values())


def test_discard_forgets_the_keys_it_is_told_of_and_says_how_many():
    dropped: list[str] = []
    cache: BoundedCache[tuple[str, int], str] = BoundedCache(
        max_entries=10, max_bytes=100, on_evict=lambda key, value: dropped.append(value))
    for table, seq in [("t", 1), ("u", 1), ("t", 2), ("t", 3)]:
        cache.put((table, seq), f"{table}{seq}")
    assert cache.discard(lambda key: key[0] == "t" and key[1] < 3) == 2
    assert cache.keys() == [("u", 1), ("t", 3)] and cache.bytes == 4
    assert cache.discard(lambda key: False) == 0
    assert dropped == []  # forgotten, not evicted for room

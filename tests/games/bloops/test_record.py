"""Recording whole simulated Bloops games through the recorder page, by taps only (390×844)."""

from __future__ import annotations

from typing import Any

import pytest

from popreplay.checking import check_log
from popreplay.engine.games.bloops import BLOOPS
from tests.games.recording import (Entries, Taps, finish, no_horizontal_scroll, phone,  # noqa: F401
                                   record_bloops, report, screenshot, start)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("seed", [1, 2])  # seed 1: an observer's log; seed 2: face-up cards only
def test_a_simulated_game_recorded_by_taps_gives_the_same_result(phone, server, seed):
    full = BLOOPS.simulate(mode="classic", players=3, seed=seed)
    start(phone, server.url, game="bloops", mode="classic", players=full["players"])
    taps = Taps()
    settled = Entries()
    middle = len(full["events"]) // 2
    record_bloops(phone, {**full, "events": full["events"][:middle], "reveal": None}, settled, taps)
    assert no_horizontal_scroll(phone)
    if seed == 2:
        screenshot(phone, "recorder-bloops.png")
    record_bloops(phone, {**full, "events": full["events"][middle:]}, settled, taps)
    report(f"Bloops (seed {seed})", taps)
    assert taps.summary()["draw"]["max"] == 1
    slug = finish(phone)
    status, log = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200
    # The log written differs (it names fewer known values in the reveal, the deck is not
    # declared): the result is the same, field for field.
    expected = check_log({k: v for k, v in full.items() if k != "claimed"})
    assert check_log(log) == expected

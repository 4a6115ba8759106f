"""Recording a whole simulated slap game through the recorder page, by taps only (390×844)."""

from __future__ import annotations

from typing import Any

import pytest

from popreplay.checking import check_log
from popreplay.engine.games.slap import SLAP
from tests.games.recording import (Entries, Taps, finish, no_horizontal_scroll, phone,  # noqa: F401
                                   record_slap, report, screenshot, start)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def stored_result(server: Any, slug: str) -> dict[str, Any]:
    status, log = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200
    return check_log(log)


def test_a_simulated_timed_game_recorded_by_taps_gives_the_same_result(phone, server):  # noqa: F811
    full = SLAP.simulate(mode="timed", players=3, seed=1, options={"deal": "none"})
    start(phone, server.url, game="slap", mode="timed", players=full["players"])
    taps = Taps()
    settled = Entries()
    middle = len(full["events"]) // 2
    record_slap(phone, {**full, "events": full["events"][:middle]}, settled, taps)
    assert no_horizontal_scroll(phone)
    screenshot(phone, "recorder-slap.png")
    # A card already flipped is greyed out: the engine no longer offers it.
    seen = full["events"][0]["card"]
    phone.click(f'[data-act="colour"][data-colour="{seen.rsplit("-", 1)[0]}"]')
    assert phone.locator(f'[data-act="value"][data-card="{seen}"]').is_disabled()
    colour = seen.rsplit("-", 1)[0]
    flipped = {e.get("card") for e in full["events"][:middle]}
    fresh = next(f"{colour}-{v}" for v in range(17) if f"{colour}-{v}" not in flipped)
    assert phone.locator(f'[data-act="value"][data-card="{fresh}"]').is_enabled()
    record_slap(phone, {**full, "events": full["events"][middle:]}, settled, taps)
    report("slap", taps)
    assert taps.summary()["flip"]["max"] == 2 and taps.summary()["slap"]["max"] <= 2
    slug = finish(phone)
    expected = check_log({k: v for k, v in full.items() if k != "claimed"})
    assert stored_result(server, slug) == expected

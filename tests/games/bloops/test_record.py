"""Recording whole simulated Bloops games through the recorder page, by taps only (390×844)."""

from __future__ import annotations


import pytest

from popreplay.checking import check_log
from popreplay.engine.games.bloops import BLOOPS
from popreplay.engine.games.bloops.choices import choices
from tests.games.recording import (SCREENSHOTS, Entries, Taps, finish,  # noqa: F401
                                   no_horizontal_scroll, phone, record_bloops, report,
                                   screenshots_wanted, start)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("seed", [1, 2])  # seed 1: an observer's log; seed 2: face-up cards only
def test_a_simulated_game_recorded_by_taps_gives_the_same_result(phone, server, seed):  # noqa: F811
    full = BLOOPS.simulate(mode="classic", players=3, seed=seed)
    start(phone, server.url, game="bloops", mode="classic", players=full["players"])
    taps = Taps()
    settled = Entries()
    middle = len(full["events"]) // 2
    record_bloops(phone, {**full, "events": full["events"][:middle], "reveal": None}, settled, taps)
    assert no_horizontal_scroll(phone)
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


def test_a_rearrangement_is_entered_by_taps_seen_or_not(phone, server):  # noqa: F811
    full = BLOOPS.simulate(mode="classic", players=3, seed=2)
    names = full["players"]
    before = [e for e in full["events"][:22] if e["type"] != "rearrange"]
    start(phone, server.url, game="bloops", mode="classic", players=names)
    taps = Taps()
    settled = Entries()
    record_bloops(phone, {**full, "events": before, "reveal": None}, settled, taps)
    places = choices({**full, "events": before})["next"]["rearrange"]["places"]
    seen = {"type": "rearrange", "player": names[1], "order": places[names[1]][::-1]}
    record_bloops(phone, {**full, "events": [seen], "reveal": None}, settled, taps)
    # Half an entry, shown, then taken back: nothing is entered.
    phone.click('.br-rearrange [data-act="rearrange-open"]')
    phone.click(f'.br-rearrange [data-act="rearrange-player"][data-player="{names[2]}"]')
    for place in places[names[2]][-1:-3:-1]:
        phone.click(f'.br-rearrange [data-act="rearrange-place"][data-place="{place}"]')
    assert phone.locator('.br-rearrange [data-act="rearrange-place"]:disabled').count() == 2
    assert no_horizontal_scroll(phone)
    phone.evaluate("window.scrollTo(0, document.querySelector('.br-rearrange')"
                   ".getBoundingClientRect().top + window.scrollY"
                   " - document.querySelector('.rp-toolbar').offsetHeight"
                   " - document.querySelector('.rp-table').offsetHeight - 8)")  # both sticky
    if screenshots_wanted():  # the picture in docs/recorder.md
        phone.screenshot(path=str(SCREENSHOTS / "recorder-bloops.png"))
    phone.click('.br-rearrange [data-act="rearrange-back"]')
    assert phone.locator('.br-rearrange [data-act="rearrange-place"]:disabled').count() == 1
    phone.click('.br-rearrange [data-act="rearrange-cancel"]')
    assert phone.locator('.br-rearrange [data-act="rearrange-player"]').count() == 0
    unseen = {"type": "rearrange", "player": names[2], "order": "unknown"}
    record_bloops(phone, {**full, "events": [unseen], "reveal": None}, settled, taps)
    report("Bloops rearranging", taps)
    assert taps.summary()["rearrange"]["max"] == 2 + len(places[names[1]]) - 1
    events = phone.evaluate("async () => (await import('/assets/record.js')).recorder.state.draft.events")
    assert len(events) == len(before) + 2 and events[-2:] == [seen, unseen]

"""Recording whole simulated cube games through the recorder page, by taps only (390×844)."""

from __future__ import annotations

import pytest

from popreplay.checking import check_log
from popreplay.engine.games.cube import CUBE
from tests.games.recording import (RECORDER, Entries, Taps, finish, no_horizontal_scroll, phone,  # noqa: F401
                                   record_cube, report, screenshot, start)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_simulated_game_recorded_by_taps_gives_the_same_result(phone, server):  # noqa: F811
    # Seed 25: no hand goes over 10 cards inside a turn (see "Known limits" in docs/recorder.md).
    full = CUBE.simulate(mode="standard", players=3, seed=25)
    start(phone, server.url, game="cube", mode="standard", players=full["players"])
    taps = Taps()
    settled = Entries()
    middle = len(full["turns"]) // 2
    record_cube(phone, {**full, "turns": full["turns"][:middle]}, settled, taps)
    assert no_horizontal_scroll(phone)
    screenshot(phone, "recorder-cube.png")
    record_cube(phone, {**full, "turns": full["turns"][middle:]}, settled, taps, dealt=True)
    report("cube", taps)
    assert taps.summary()["turn (draw and lay)"]["max"] <= 5
    slug = finish(phone)
    status, log = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200
    expected = check_log({k: v for k, v in full.items() if k != "claimed"})
    assert check_log(log) == expected



def test_a_game_seen_by_one_player_is_recorded_with_unseen_cards(phone, server):  # noqa: F811
    from tests.games.cube.test_hidden import observer_view

    full = CUBE.simulate(mode="standard", players=3, seed=25)
    seen = observer_view(full, "Bruno")  # Bruno's own cards, and what is face up
    start(phone, server.url, game="cube", mode="standard", players=full["players"])
    taps = Taps()
    record_cube(phone, seen, Entries(), taps)
    report("cube, seen by Bruno", taps)
    slug = finish(phone)
    status, log = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200
    assert log["deal"]["Ana"] == [None] * 5 and None not in log["deal"]["Bruno"]
    assert check_log(log) == check_log({k: v for k, v in seen.items() if k != "claimed"})


def test_a_hand_over_ten_is_entered_then_its_surplus_discarded(phone, server):  # noqa: F811
    # Seed 10 (24 turns): hands go over 10 cards inside a turn and discard the surplus at its end.
    # The turn is still open while its hand is over the limit: the frame follows the engine's
    # choices (no error), not the draft's provisional `hand-limit` result.
    full = CUBE.simulate(mode="standard", players=3, seed=10)
    assert any("discard" in event for turn in full["turns"] for event in turn.get("events", []))
    start(phone, server.url, game="cube", mode="standard", players=full["players"])
    record_cube(phone, full, Entries(), Taps())
    slug = finish(phone)
    status, log = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200
    assert check_log(log) == check_log({k: v for k, v in full.items() if k != "claimed"})


def test_an_f_m_c_show_out_of_turn_is_one_tap_for_the_player_who_holds_the_six(phone, server):  # noqa: F811
    # Issue 14 ruling: Bruno shows the F.M.C. in Ana's turn (golden fmc-out-of-turn).
    import json
    from pathlib import Path

    golden = json.loads((Path(__file__).resolve().parents[2] / "golden" / "cube"
                         / "fmc-out-of-turn.log.json").read_text("utf-8"))
    start(phone, server.url, game="cube", mode="standard", players=golden["players"])
    phone.evaluate("""async log => { const r = (await import('/assets/record.js')).recorder;
        r.state.draft.deck = log.deck; r.save(); }""", golden)
    phone.reload()
    # The panel says "Checking the draft…" until the engine's choices for the reloaded draft are in.
    phone.wait_for_function("() => { const r = " + RECORDER + ";"
                            " return r && r.answer && !r.busy; }")
    record_cube(phone, golden, Entries(), Taps())
    slug = finish(phone)
    status, log = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200 and log["turns"][-1]["events"][-1]["player"] == "Bruno"
    assert check_log(log)["outcome"]["winners"] == ["Bruno"]

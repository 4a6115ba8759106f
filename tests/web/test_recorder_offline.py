"""Offline, cube, slap and Bloops keep offering what the engine last offered, narrowed by the entries
made since (the answer's ``spent``, docs/recorder.md "How drafts are kept"), at 390×844: after two
entries made offline a card or value those entries used is no longer offered, the page says the
entries wait to be checked, and back online the draft is checked whole, nothing lost."""

from __future__ import annotations

from typing import Any

import pytest

from popreplay.engine.games.bloops import BLOOPS
from popreplay.engine.games.bloops.choices import choices as bloops_choices
from popreplay.engine.games.cube import CUBE
from popreplay.engine.games.cube.choices import choices as cube_choices
from popreplay.engine.games.slap import SLAP
from popreplay.engine.games.slap.choices import choices as slap_choices
from tests.games.recording import RECORDER, no_horizontal_scroll, phone, screenshot  # noqa: F401
from tests.web.conftest import browser, server  # noqa: F401

pytestmark = pytest.mark.browser


def begin(page: Any, url: str, game: str, mode: str, draft: dict[str, Any]) -> None:
    """Open the recorder on ``draft`` (as a what-if branch or a continued draft opens it) and wait
    until the engine has checked it."""
    page.goto(url + "/record")
    page.wait_for_function("() => " + RECORDER)
    setup = {"game": game, "mode": mode, "players": draft["players"], "options": {},
             "recordHands": True, "meta": {}}
    page.evaluate("async ([s, d]) => (await import('/assets/record.js')).recorder.begin(s, d)", [setup, draft])
    page.wait_for_selector("#recorder[data-entries='0'][data-checked='1']")


def offline_entries(page: Any, n: int) -> None:
    page.wait_for_selector(f"#recorder[data-entries='{n}'][data-checked='0']")


def narrowed_facts(page: Any) -> str:
    facts = page.inner_text(".rp-facts")
    assert "2 entries are waiting to be checked." in facts
    assert "leave out those entered since" in facts
    assert "ones from before these entries" not in facts
    return facts


def back_online(page: Any, expected: dict[str, Any], key: str) -> None:
    page.context.set_offline(False)
    page.wait_for_selector("#recorder[data-entries='2'][data-checked='1']", timeout=20_000)
    assert "Back online: every entry is checked." in page.inner_text("#rec-status")
    assert page.locator(".rp-error-box").count() == 0
    draft = page.evaluate("JSON.parse(localStorage.getItem('popreplay-recorder')).draft")
    assert draft[key] == expected[key]


def test_slap_offline_flips_are_taken_out_of_the_next_flip(phone, server):  # noqa: F811
    full = SLAP.simulate(mode="timed", players=3, seed=1, options={"deal": "none"})
    events = full["events"]
    at = next(i for i in range(3, len(events) - 1) if "flip" in events[i] and "flip" in events[i + 1]
              and events[i]["flip"] != events[i + 1]["flip"])
    first, second = events[at], events[at + 1]
    draft = {k: v for k, v in full.items() if k != "claimed"}
    assert slap_choices({**draft, "events": events[:at]})["next"]["flip"]["player"] == first["flip"]
    begin(phone, server.url, "slap", "timed", {**draft, "events": events[:at]})
    phone.context.set_offline(True)
    phone.click(f'[data-act="colour"][data-colour="{first["card"].rsplit("-", 1)[0]}"]')
    phone.click(f'[data-act="value"][data-card="{first["card"]}"]')
    offline_entries(phone, 1)
    # who flips next is not known offline: the recorder taps the player (the engine's list)
    flippers = phone.locator('[data-act="flipper"]')
    assert sorted(flippers.all_inner_texts()) == sorted(full["players"])
    phone.click(f'[data-act="flipper"][data-player="{second["flip"]}"]')
    phone.click(f'[data-act="colour"][data-colour="{second["card"].rsplit("-", 1)[0]}"]')
    phone.click(f'[data-act="value"][data-card="{second["card"]}"]')
    offline_entries(phone, 2)
    narrowed_facts(phone)
    for card in (first["card"], second["card"]):
        phone.click(f'[data-act="colour"][data-colour="{card.rsplit("-", 1)[0]}"]')
        assert phone.locator(f'[data-act="value"][data-card="{card}"]').is_disabled()
    colour = first["card"].rsplit("-", 1)[0]
    phone.click(f'[data-act="colour"][data-colour="{colour}"]')
    seen = {e.get("card") for e in events[:at + 2]}
    fresh = next(f"{colour}-{v}" for v in range(17) if f"{colour}-{v}" not in seen)
    assert phone.locator(f'[data-act="value"][data-card="{fresh}"]').is_enabled()
    assert no_horizontal_scroll(phone)
    screenshot(phone, "recorder-offline-slap.png")
    back_online(phone, {"events": events[:at + 2]}, "events")


def cube_case() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A draft whose next turn begins with two cards played in one tap each (the step filled in)."""
    log = CUBE.simulate(mode="standard", players=3, seed=1, options={})
    log.pop("claimed", None)
    for j, turn in enumerate(log["turns"]):
        plays = (turn.get("events") or [])[:2]
        if len(plays) < 2 or not all(set(e) <= {"play", "step"} for e in plays):
            continue
        draft = {**log, "turns": log["turns"][:j] + [{k: v for k, v in turn.items() if k != "events"}]}
        offered = (cube_choices(draft)["next"].get("play") or {}).get("cards") or {}
        options = [next((o for o in offered.values() if e["play"] in o["cards"]), None) for e in plays]
        if all(o is not None and set(o) <= {"cards", "steps"} and o.get("steps", [None]) == [e.get("step")]
               for o, e in zip(options, plays)):
            return draft, plays
    raise AssertionError("no turn begins with two one-tap plays")


def test_cube_offline_plays_leave_the_hand_offered(phone, server):  # noqa: F811
    draft, plays = cube_case()
    begin(phone, server.url, "cube", "standard", draft)
    phone.context.set_offline(True)
    for n, event in enumerate(plays, start=1):
        phone.click(f'.cr-play [data-act="play"][data-card="{event["play"]}"]')
        offline_entries(phone, n)
    narrowed_facts(phone)
    for event in plays:  # played: no longer in the hand offered
        assert phone.locator(f'.cr-play [data-card="{event["play"]}"]').count() == 0
    assert phone.locator('.cr-play [data-act="play"]').count() >= 1  # the rest of the hand stays
    assert no_horizontal_scroll(phone)
    expected = {"turns": draft["turns"][:-1] + [{**draft["turns"][-1], "events": plays}]}
    back_online(phone, expected, "turns")


def bloops_case() -> tuple[dict[str, Any], dict[str, Any]]:
    """A draft just after a discard: a wrong counter-discard whose penalty card is the last copy of
    a value, then the next draw, are both possible."""
    log = BLOOPS.simulate(mode="classic", players=3, seed=1, options={})
    events = log["events"]
    base = {k: v for k, v in log.items() if k not in ("claimed", "reveal")}
    for k in range(3, len(events)):
        if events[k - 1].get("type") != "discard":
            continue
        draft = {**base, "events": events[:k]}
        answer = bloops_choices(draft)
        counter, draw = answer["next"].get("counter"), answer["next"].get("draw")
        if not counter or not counter["penalty"] or not draw:
            continue
        last = [int(v) for v, n in answer["spent"][0]["left"].items() if n == 1]
        for name, places in counter["places"].items():
            shown = [p for p in places if p["value"] is not None and p["value"] != counter["top"]]
            if last and shown:
                other = next(v for v in answer["values"] if v != last[0])
                return draft, {"player": name, "place": shown[0]["place"], "shown": shown[0]["value"],
                               "penalty": last[0], "drawer": draw["player"], "drawn": other}
    raise AssertionError("no draft for the case")


def test_bloops_offline_a_values_last_copy_is_no_longer_offered(phone, server):  # noqa: F811
    draft, case = bloops_case()
    begin(phone, server.url, "bloops", "classic", draft)
    penalty = case["penalty"]
    assert phone.locator(f'.br-draw [data-act="value"][data-value="{penalty}"]').is_enabled()
    phone.context.set_offline(True)
    phone.click(f'[data-act="counter-player"][data-player="{case["player"]}"]')
    phone.click(f'.br-counter [data-act="counter-place"][data-place="{case["place"]}"]')
    phone.click(f'.br-counter [data-act="value"][data-value="{penalty}"]')
    offline_entries(phone, 1)
    assert phone.locator(f'.br-draw [data-act="value"][data-value="{penalty}"]').is_disabled()
    phone.click(f'.br-draw [data-act="value"][data-value="{case["drawn"]}"]')
    offline_entries(phone, 2)
    narrowed_facts(phone)
    assert phone.locator(f'.br-draw [data-act="value"][data-value="{penalty}"]').is_disabled()
    assert phone.locator(f'.br-draw [data-act="value"][data-value="{case["drawn"]}"]').count() == 1
    assert no_horizontal_scroll(phone)
    expected = {"events": draft["events"] + [
        {"type": "counter", "player": case["player"], "place": case["place"], "value": case["shown"],
         "penalty": penalty},
        {"type": "draw", "player": case["drawer"], "value": case["drawn"]}]}
    back_online(phone, expected, "events")


def test_cube_a_draw_begun_offline_goes_on_when_the_network_is_back(phone, server):  # noqa: F811
    """A turn's draw is built card by card with the engine's answers: offline the panel says it
    waits for the network (not "Checking…" for ever), and asks again once it is back."""
    log = CUBE.simulate(mode="standard", players=3, seed=1, options={})
    log.pop("claimed", None)
    j = next(j for j, turn in enumerate(log["turns"]) if j > 2 and len(turn.get("draw") or []) >= 2)
    draft = {**log, "turns": log["turns"][:j]}
    assert "turn" in cube_choices(draft)["next"]
    begin(phone, server.url, "cube", "standard", draft)
    phone.context.set_offline(True)
    phone.locator('.cr-turn [data-act="draw-unseen"]').click()
    # "Checking…" while the engine is asked, then (the request failing offline) the wait in words
    waits = phone.locator(".cr-wait", has_text="the rest of this draw is offered when the network is back")
    waits.wait_for(timeout=10_000)
    assert phone.inner_text(".cr-wait").startswith("Offline:")
    phone.context.set_offline(False)
    phone.wait_for_selector('.cr-turn [data-act="draw"], .cr-turn [data-act="lay-done"]', timeout=20_000)
    assert phone.locator(".cr-wait").count() == 0

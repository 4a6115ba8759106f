"""The viewer in a real browser: Debian's Chromium driven by Playwright against ``popreplay serve``.

What is drawn is compared with the replay JSON the API serves for the same game.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from .conftest import SCREENSHOTS, Server, screenshots_wanted

pytestmark = pytest.mark.browser


# --- reading the page ----------------------------------------------------------------------------


def drawn_cards(page: Any) -> list[list[int]]:
    """[row, column, card] of every card drawn in the play area."""
    return sorted(page.eval_on_selector_all(
        ".pop-area .card[data-card]",
        "els => els.map(e => [Number(e.dataset.row), Number(e.dataset.col), Number(e.dataset.card)])"))


def expected_cards(step: dict[str, Any]) -> list[list[int]]:
    rows = step["state"]["area"]["rows"]
    return sorted([r, c, card] for r, row in enumerate(rows) for c, card in enumerate(row)
                  if card is not None)


def drawn_queues(page: Any) -> list[int]:
    found = dict(page.eval_on_selector_all(
        ".pop-area .card.queue", "els => els.map(e => [e.dataset.queue, Number(e.dataset.row)])"))
    return [found[q] for q in "ABCDE"]


def wait_for_step(page: Any, index: int) -> None:
    page.wait_for_function("n => document.getElementById('viewer').dataset.step === n", arg=str(index))


def assert_shows(page: Any, replay: dict[str, Any], index: int) -> None:
    """The page is at step ``index`` and draws exactly that step's table, note and scores."""
    wait_for_step(page, index)
    step = replay["steps"][index]
    assert drawn_cards(page) == expected_cards(step)
    assert drawn_queues(page) == step["state"]["area"]["queue_rows"]
    assert page.locator("#step-note .text").inner_text() == expected_note(step)
    assert page.locator("#step-count").inner_text() == f"Step {index} / {len(replay['steps']) - 1}"
    assert page.url.endswith(f"#step={index}")
    for name, score in step["state"]["scores"].items():
        player = page.locator(f'.player[data-player="{name}"]')
        assert player.locator(".round-score").inner_text() == str(score)
        if replay["mode"] == "battle":
            assert player.locator(".total-score").inner_text() == str(step["state"]["totals"][name])
    pending = page.eval_on_selector_all(".chief-pile .card", "els => els.map(e => Number(e.dataset.card))")
    assert pending == step["state"]["chief_pending"]


def expected_note(step: dict[str, Any]) -> str:
    """The note as the line shows it (issue 24): without the round or turn the line already says
    ("Round 1: …"), and a violation in words, without its pointer."""
    if step["kind"] == "violation":
        return re.sub(r" \(see /[^()]*\)$", "", step["data"]["error"]["message"])
    note = step["note"]
    for word, value in (("Round", step["round"]), ("Turn", step["turn"])):
        if value is not None and note.startswith(f"{word} {value}: "):
            note = note[len(f"{word} {value}: "):]
    return note


def first_step(replay: dict[str, Any], kind: str, **data: Any) -> dict[str, Any]:
    return next(s for s in replay["steps"] if s["kind"] == kind
                and all(s["data"].get(k) == v for k, v in data.items()))


def shoot(page: Any, name: str, *, full_page: bool = True) -> None:
    """A screenshot for the docs; at phone width, ``full_page=False``: the screen as a player
    sees it (a whole-page picture draws the bar stuck to the screen's bottom mid-page)."""
    if screenshots_wanted():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


# --- the replay page -----------------------------------------------------------------------------


def test_step_with_keys_and_buttons_draws_the_replay_json(page: Any, server: Server,
                                                          stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    page.goto(f"{server.url}/r/{slug}")
    wait_for_step(page, 0)
    assert drawn_cards(page) == expected_cards(replay["steps"][0])
    assert page.locator("#game-title").inner_text() == "Example battle: a disputed score"

    page.locator("body").press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_shows(page, replay, 3)
    page.keyboard.press("ArrowLeft")
    assert_shows(page, replay, 2)

    page.get_by_role("button", name="Next step").click()
    page.get_by_role("button", name="Next step").click()
    assert_shows(page, replay, 4)
    page.get_by_role("button", name="Previous step").click()
    assert_shows(page, replay, 3)

    last = len(replay["steps"]) - 1
    page.keyboard.press("End")
    assert_shows(page, replay, last)
    assert page.get_by_role("button", name="Next step").is_disabled()
    page.keyboard.press("Home")
    assert_shows(page, replay, 0)
    assert page.get_by_role("button", name="Previous step").is_disabled()
    page.get_by_role("button", name="Last step").click()
    assert_shows(page, replay, last)
    page.get_by_role("button", name="First step").click()
    assert_shows(page, replay, 0)

    middle = next(s["index"] for s in replay["steps"] if s["round"] == 2 and s["kind"] == "explode")
    page.locator("#step-slider").fill(str(middle))
    assert_shows(page, replay, middle)


def test_deep_link_opens_at_the_step_and_marks_placed_and_exploding_cards(
        page: Any, server: Server, stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    place = next(s for s in replay["steps"] if s["kind"] == "place" and s["data"]["explodes"]
                 and s["data"]["owner"] is not None)
    page.goto(f"{server.url}/r/{slug}#step={place['index']}")
    assert_shows(page, replay, place["index"])
    placed = page.eval_on_selector_all(".pop-area .card.just-placed", "els => els.map(e => Number(e.dataset.card))")
    assert placed == [place["data"]["card"]]
    marked = page.eval_on_selector_all(".pop-area .card.will-explode", "els => els.map(e => Number(e.dataset.card))")
    assert sorted(marked) == sorted(place["data"]["explodes"])
    assert len(marked) >= 2
    # the marked cards pulse a few times and stop, under 5 s (WCAG 2.2.2; a page left open on a
    # phone draws nothing more): every animation on the page has an end
    ends = page.evaluate("() => document.getAnimations().map(a => a.effect.getComputedTiming().endTime)")
    assert len(ends) >= len(marked) and max(ends) < 5000, ends

    wave = replay["steps"][place["index"] + 1]
    assert wave["kind"] == "explode"
    page.keyboard.press("ArrowRight")
    assert_shows(page, replay, wave["index"])
    gone = page.eval_on_selector_all(".exploded-strip .wave-cards .card",
                                     "els => els.map(e => Number(e.dataset.card))")
    assert gone == wave["data"]["cards"]
    taken = page.eval_on_selector_all(".exploded-strip .taken-pile .card",
                                      "els => els.map(e => Number(e.dataset.card))")
    assert taken == wave["data"]["chief_pile_taken"]
    assert not set(gone) & {card for _, _, card in drawn_cards(page)}

    page.evaluate("window.location.hash = '#step=7'")
    assert_shows(page, replay, 7)


def ring_clear_of_row_numbers(tab: Any) -> None:
    """Each "about to explode" ring of queue A (9 px outside its card: 6 px inset, 3 px shadow)
    ends to the right of the row numbers' text."""
    gaps = tab.evaluate("""() => {
        const labels = [...document.querySelectorAll('.pop-area .rowlabel')].slice(1);
        const range = document.createRange();
        const textRight = Math.max(...labels.map(l => { range.selectNodeContents(l);
                                                        return range.getBoundingClientRect().right; }));
        return [...document.querySelectorAll('.pop-area .card.will-explode[data-col="0"]')]
            .map(c => c.getBoundingClientRect().left - 9 - textRight);
    }""")
    assert gaps and min(gaps) > 0, gaps


@pytest.mark.parametrize("width", [390, 1280])
def test_the_table_marks_do_not_cover_their_neighbours(browser: Any, server: Server,
                                                        stored: dict[str, Any], width: int) -> None:
    """The explode ring leaves the row numbers readable, no tag covers the card above the one
    just placed, and the legend says the colours plainly."""
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    place = next(s for s in replay["steps"] if s["kind"] == "place" and s["data"]["queue"] == "A"
                 and s["data"]["explodes"] and s["data"]["row"] >= 3)
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        tab = context.new_page()
        tab.goto(f"{server.url}/r/{slug}#step={place['index']}")
        wait_for_step(tab, place["index"])
        ring_clear_of_row_numbers(tab)
        assert tab.locator(".pop-area .mark").count() == 0
        placed = tab.locator(".pop-area .card.just-placed")
        assert "just placed" in placed.get_attribute("aria-label")
        legend = tab.locator(".legend").inner_text()
        for colour, digits in (("purple", "0 or 5"), ("red", "1 or 6"), ("yellow", "2 or 7"),
                               ("green", "3 or 8"), ("blue", "4 or 9")):
            assert f"{colour}: ends in {digits}" in legend
        assert "mod" not in legend
    finally:
        context.close()


def test_autoplay_advances_and_pauses(page: Any, server: Server, stored: dict[str, Any]) -> None:
    slug = stored["coop"]["slug"]
    page.goto(f"{server.url}/r/{slug}")
    page.get_by_label("Speed").select_option("4")
    page.get_by_role("button", name="Play", exact=True).click()
    assert page.locator("[data-action=play]").get_attribute("data-playing") == "true"
    page.wait_for_function("() => Number(document.getElementById('viewer').dataset.step) >= 3")
    page.get_by_role("button", name="Pause", exact=True).click()
    assert page.locator("[data-action=play]").get_attribute("data-playing") == "false"
    assert page.get_by_role("button", name="Play", exact=True).is_visible()
    stopped = page.locator("#viewer").get_attribute("data-step")
    assert page.url.endswith(f"#step={stopped}")


def test_hands_are_hidden_until_revealed_one_player_at_a_time(
        page: Any, server: Server, stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    page.goto(f"{server.url}/r/{slug}#step=1")
    wait_for_step(page, 1)
    assert page.locator(".hand").count() == 0
    page.get_by_role("button", name="Show Bruno’s hand").click()
    hand = page.eval_on_selector_all('.player[data-player="Bruno"] .hand .card',
                                     "els => els.map(e => Number(e.dataset.card))")
    assert hand == replay["steps"][1]["state"]["hands"]["Bruno"]
    assert page.locator(".hand").count() == 1
    assert page.evaluate("() => document.activeElement.textContent") == "Hide Bruno’s hand"
    page.keyboard.press("ArrowRight")
    wait_for_step(page, 2)
    hand = page.eval_on_selector_all('.player[data-player="Bruno"] .hand .card',
                                     "els => els.map(e => Number(e.dataset.card))")
    assert hand == replay["steps"][2]["state"]["hands"]["Bruno"]
    page.get_by_role("button", name="Hide Bruno’s hand").click()
    assert page.locator(".hand").count() == 0


def test_result_panel_totals_claims_and_point_sources(page: Any, server: Server,
                                                      stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    page.goto(f"{server.url}/r/{slug}")
    panel = page.locator("#result-panel")
    assert panel.locator("#result-status").inner_text() == "complete"
    assert panel.locator("#winners").inner_text().startswith("Winner: Bruno")
    for name, total in replay["outcome"]["totals"].items():
        assert panel.locator(f'.totals-table td[data-player="{name}"]').inner_text() == str(total)
    differs = panel.locator("tr.differs").evaluate_all("rows => rows.map(r => r.dataset.field)")
    matches = panel.locator("tr.matches").evaluate_all("rows => rows.map(r => r.dataset.field)")
    assert differs == ["/totals/Alice", "/winners"]
    assert matches == ["/totals/Bruno", "/totals/Chloé"]
    alice = panel.locator("tr.differs").first
    assert alice.locator(".claimed").inner_text() == "40"
    assert alice.locator(".computed").inner_text() == "42"

    sources = [s for s in replay["steps"] if s["kind"] == "explode" and s["data"]["collector"] == "Chloé"]
    buttons = panel.locator('.points-list li[data-player="Chloé"] .jump')
    assert buttons.count() == len(sources)
    buttons.nth(1).click()
    assert_shows(page, replay, sources[1]["index"])
    assert page.locator(".player.collector").get_attribute("data-player") == "Chloé"
    assert buttons.nth(1).get_attribute("aria-current") == "step"


def turns_in_words(turns: list[int]) -> str:
    words = [str(t) for t in turns]
    return ("turn " if len(words) == 1 else "turns ") + (
        words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1])


def test_the_dispute_in_words_names_the_round_the_player_and_the_turns(
        page: Any, server: Server, example_logs: dict[str, Any]) -> None:
    """"Round 1, Alice: score sheet 19, replay 23 — from turns 2, 4 and 5": rounds counted from 1
    as the table shows them, each turn a button to the step that scored it."""
    log = json.loads(json.dumps(example_logs["battle"]))
    log["meta"]["title"] = "A disputed round score"
    computed = server.replay(server.store(log)["slug"])["outcome"]["rounds"][0]["scores"]["Alice"]
    log["claimed"]["rounds"] = [{"scores": {"Alice": computed - 4}}]
    slug = server.store(log)["slug"]
    replay = server.replay(slug)
    page.goto(f"{server.url}/r/{slug}")
    sources = [s for s in replay["steps"] if s["kind"] == "explode"
               and s["data"]["collector"] == "Alice" and s["round"] == 1]
    turns = sorted({s["turn"] for s in sources})
    line = page.locator('.disputes li[data-field="/rounds/0/scores/Alice"]')
    assert line.inner_text() == (f"Round 1, Alice: score sheet {computed - 4}, replay {computed}"
                                 f" — from {turns_in_words(turns)}")
    assert page.locator('tr[data-field="/rounds/0/scores/Alice"] .what').inner_text() == \
        "Round 1, Alice"
    total = page.locator('.disputes li[data-field="/totals/Alice"]').inner_text()
    assert total.startswith("Alice, total: score sheet 40, replay 42 — from round 1 turns ")
    assert "; round 2 turn" in total and "; round 3 turn" in total
    assert page.locator(".disputes").inner_text().count("/") == 0  # no JSON Pointer in words
    buttons = line.locator(".jump.source")
    assert buttons.count() == len(turns)
    buttons.last.click()
    last_turn = [s for s in sources if s["turn"] == turns[-1]][0]
    assert_shows(page, replay, last_turn["index"])
    assert page.locator(".player.collector").get_attribute("data-player") == "Alice"


def test_the_dispute_in_words_for_another_game(page: Any, server: Server,
                                              example_logs: dict[str, Any]) -> None:
    log = json.loads(json.dumps(example_logs["slap"]))
    log["meta"] = {**(log.get("meta") or {}), "title": "A disputed slap"}
    replay = server.replay(server.store(log)["slug"])
    player = sorted(replay["outcome"]["cards"])[0]
    log["claimed"] = {"cards": {player: replay["outcome"]["cards"][player] + 3}, "flips": 0}
    slug = server.store(log)["slug"]
    page.goto(f"{server.url}/r/{slug}")
    lines = page.locator(".disputes li").all_inner_texts()
    assert lines == [
        f"{player}, cards: score sheet {replay['outcome']['cards'][player] + 3}, replay "
        f"{replay['outcome']['cards'][player]}",
        f"Flips: score sheet 0, replay {replay['outcome']['flips']}"]


def test_illegal_game_stops_at_the_violation(page: Any, server: Server,
                                             stored: dict[str, Any]) -> None:
    slug = stored["illegal"]["slug"]
    replay = server.replay(slug)
    assert replay["status"] == "illegal"
    page.goto(f"{server.url}/r/{slug}")
    banner = page.locator("#violation")
    assert banner.is_visible()
    message = banner.locator(".violation-message").inner_text()
    error = replay["errors"][0]
    assert message.startswith(f"Round {error['round']}, turn {error['turn']} — Alice: "
                              "Alice does not hold 50: ")
    assert "(see /" not in message and error["path"] not in banner.inner_text()
    banner.locator(".error-details summary").click()
    assert json.loads(banner.locator(".offending-move").inner_text())["plays"]["Alice"] == [50]
    page.get_by_role("button", name="Show the table at the violation").click()
    last = len(replay["steps"]) - 1
    assert replay["steps"][last]["kind"] == "violation"
    assert_shows(page, replay, last)
    assert page.locator(".step-error").inner_text().startswith("Illegal move: Round ")
    assert page.get_by_role("button", name="Next step").is_disabled()
    assert page.locator("#result-status").inner_text() == "illegal"


@pytest.mark.parametrize(("mode", "line", "shot"), [
    ("coop", "The group wins — level legendary", "replay-coop.png"),
    ("solo", "Won — title “mean”", None),
    ("puzzle", "Solved: every starting card exploded", "replay-puzzle.png"),
])
def test_coop_solo_and_puzzle_show_their_own_outcome(page: Any, server: Server,
                                                     stored: dict[str, Any], mode: str,
                                                     line: str, shot: str | None) -> None:
    slug = stored[mode]["slug"]
    replay = server.replay(slug)
    page.goto(f"{server.url}/r/{slug}")
    assert page.locator("#outcome-line").inner_text() == line
    assert page.locator("#claims-verdict").inner_text() == "claims match"
    assert page.locator(".points-list").count() == 0
    wave = first_step(replay, "explode") if mode != "coop" else None
    index = wave["index"] - 1 if wave else len(replay["steps"]) // 2
    page.goto(f"{server.url}/r/{slug}#step={index}")
    assert_shows(page, replay, index)
    if shot:
        shoot(page, shot)


def test_battle_screenshot_and_phone_width(browser: Any, page: Any, server: Server,
                                           stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    place = next(s for s in replay["steps"] if s["kind"] == "place" and s["round"] == 2
                 and len(s["data"]["explodes"]) >= 2 and s["state"]["chief_pending"])
    page.goto(f"{server.url}/r/{slug}#step={place['index']}")
    assert_shows(page, replay, place["index"])
    shoot(page, "replay-battle.png")

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    try:
        tab = phone.new_page()
        tab.goto(f"{server.url}/examples/puzzle#step=6")
        wait_for_step(tab, 6)
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        area = tab.locator(".pop-area").bounding_box()
        assert area["x"] >= 0 and area["x"] + area["width"] <= 390
        tab.get_by_role("button", name="Next step").tap()
        wait_for_step(tab, 7)
        shoot(tab, "replay-phone.png", full_page=False)
        tab.set_viewport_size({"width": 320, "height": 640})
        for path in ("/examples/battle#step=75", "/"):
            tab.goto(server.url + path)
            tab.locator("main h1").wait_for()
            assert tab.evaluate("document.documentElement.scrollWidth") <= 320, path
    finally:
        phone.close()


def swipe(cdp: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A one-finger swipe, as the phone's touch screen sends it (start, moves, end)."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": start[0], "y": start[1]}]})
    for k in range(1, 6):
        x = start[0] + (end[0] - start[0]) * k / 5
        y = start[1] + (end[1] - start[1]) * k / 5
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def in_view(box: dict[str, float], height: float) -> bool:
    return box["y"] >= 0 and box["y"] + box["height"] <= height


def test_on_a_phone_the_table_and_the_controls_share_the_screen_and_a_swipe_steps(
        browser: Any, server: Server, stored: dict[str, Any]) -> None:
    """390×844: the note, the table and the step controls (stuck to the bottom of the screen) are
    seen together, before and after stepping; a swipe left is the next step, right the previous;
    a vertical move scrolls and does not step; the result panel comes after; no sideways scroll."""
    slug = stored["battle"]["slug"]
    replay = server.replay(slug)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    try:
        tab = phone.new_page()
        tab.goto(f"{server.url}/r/{slug}#step=40")
        assert_shows(tab, replay, 40)
        # the winner and the scores come first (issue 37); the summary's link jumps to the board
        tab.get_by_role("link", name="Jump to the board").click()
        area = tab.locator(".pop-area")
        next_button = tab.get_by_role("button", name="Next step")
        assert in_view(tab.locator("#step-note").bounding_box(), 844)
        assert in_view(next_button.bounding_box(), 844)
        assert in_view(tab.locator("#step-count").bounding_box(), 844)
        board, bar = area.bounding_box(), tab.locator("#control-bar").bounding_box()
        assert 0 <= board["y"] < bar["y"] - 150  # the table's first rows above the controls
        assert tab.locator(".keys-hint").is_hidden() and tab.locator(".swipe-hint").is_visible()

        tab.mouse.wheel(0, 400)  # down into the table: the controls stay on screen
        tab.wait_for_function("() => window.scrollY >= 300")
        assert in_view(next_button.bounding_box(), 844)
        next_button.tap()
        assert_shows(tab, replay, 41)
        assert in_view(next_button.bounding_box(), 844)
        board = area.bounding_box()
        assert board["y"] < 844 and board["y"] + board["height"] > 0

        cdp = phone.new_cdp_session(tab)
        middle = board["y"] + min(board["height"], 300) / 2
        swipe(cdp, (330, middle), (80, middle + 20))
        assert_shows(tab, replay, 42)
        swipe(cdp, (80, middle), (330, middle))
        swipe(cdp, (80, middle), (330, middle - 10))
        assert_shows(tab, replay, 40)
        swipe(cdp, (200, middle + 100), (230, middle - 100))  # mostly vertical: a scroll
        swipe(cdp, (200, middle), (230, middle))  # too short
        tab.wait_for_timeout(200)
        assert tab.evaluate("document.getElementById('viewer').dataset.step") == "40"

        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        result = tab.locator("#result-panel").bounding_box()
        viewer = tab.locator("#viewer").bounding_box()
        assert result["y"] >= viewer["y"] + viewer["height"]
        tab.evaluate("window.scrollTo(0, 0)")
        tab.wait_for_function("() => window.scrollY === 0")
        shoot(tab, "replay-phone-battle.png", full_page=False)
        tab.locator("#result-panel").scroll_into_view_if_needed()
        # past the viewer, the controls leave with it instead of covering the result
        bar = tab.locator("#control-bar").bounding_box()
        assert bar["y"] + bar["height"] <= tab.locator("#result-panel").bounding_box()["y"] + 1
        tab.locator("#claims-title").evaluate("e => e.scrollIntoView()")
        shoot(tab, "replay-phone-disputes.png", full_page=False)
        tab.goto(server.url + "/")
        tab.locator("#recent-games").wait_for()
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        badge = tab.locator("#recent-games tbody tr").first.locator(".badge").first.bounding_box()
        assert badge["x"] + badge["width"] <= 390  # every column on screen, not scrolled away
        tab.locator("#recent-title").evaluate("e => e.scrollIntoView()")
        shoot(tab, "home-phone.png", full_page=False)
    finally:
        phone.close()


def test_on_a_desktop_the_controls_stay_above_the_table(page: Any, server: Server,
                                                        stored: dict[str, Any]) -> None:
    slug = stored["battle"]["slug"]
    page.goto(f"{server.url}/r/{slug}#step=40")
    wait_for_step(page, 40)
    bar = page.locator("#control-bar").bounding_box()
    assert bar["y"] + bar["height"] <= page.locator("#step-note").bounding_box()["y"]
    assert page.locator("#control-bar").evaluate("e => getComputedStyle(e).position") == "static"
    assert page.locator(".keys-hint").is_visible() and page.locator(".swipe-hint").is_hidden()
    assert page.get_by_role("button", name="Next step").inner_text().startswith("Next")
    result = page.locator("#result-panel").bounding_box()
    assert result["x"] > page.locator("#viewer").bounding_box()["x"]  # beside, not under


def test_examples_open_from_the_home_page(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.locator('[data-example="puzzle"]').get_by_role("link", name="Watch the replay").click()
    page.wait_for_url("**/examples/puzzle")
    wait_for_step(page, 0)
    assert page.locator("#game-title").inner_text() == "Example puzzle: the domino chain"


def test_generic_renderer_for_a_game_without_its_file(page: Any, server: Server) -> None:
    page.goto(server.url + "/examples/puzzle")
    wait_for_step(page, 0)
    terms = page.evaluate("""async () => {
        const box = document.createElement('div');
        const {generic} = await import('/assets/generic.js');
        const {el} = await import('/assets/dom.js');
        generic.renderState(box, {state: {pile: [3, 4], turn: 2}}, {}, {el: el});
        return Array.from(box.querySelectorAll('dt, dd')).map(e => e.textContent);
    }""")
    assert terms == ["pile", "3, 4", "turn", "2"]


# --- the home page: validate and store through the form ------------------------------------------


def test_upload_validates_then_stores_and_opens_the_replay(page: Any, server: Server,
                                                          example_logs: dict[str, Any],
                                                          tmp_path: Path) -> None:
    log = json.loads(json.dumps(example_logs["solo"]))
    title = f"Uploaded through the form {uuid.uuid4().hex[:8]}"
    log["meta"]["title"] = title
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(log, indent=1), "utf-8")

    page.goto(server.url + "/")
    dropped = page.evaluate_handle(
        "text => { const dt = new DataTransfer();"
        " dt.items.add(new File([text], 'dropped.json', {type: 'application/json'})); return dt; }",
        json.dumps(example_logs["coop"]))
    # a drag enters the zone before it drops: the zone says so once the page listens (a drop sent
    # before that was lost once, in a whole run on a busy machine)
    page.wait_for_function("() => { const zone = document.getElementById('dropzone');"
                           " zone.dispatchEvent(new DragEvent('dragenter', {cancelable: true}));"
                           " return zone.classList.contains('dragover'); }")
    page.dispatch_event("#dropzone", "drop", {"dataTransfer": dropped})
    page.wait_for_function("() => document.getElementById('log-text').value.includes('nine quiet')")
    assert not page.locator("#dropzone.dragover").count()  # the drop ends the drag's highlight
    assert "Read dropped.json" in page.locator("#upload-result").inner_text()
    page.get_by_label("Or choose a file:").set_input_files(str(path))
    page.wait_for_function("() => document.getElementById('log-text').value.includes('Uploaded')")
    page.get_by_role("button", name="Check").click()
    assert page.locator("#check-status").inner_text() == "complete"
    assert page.locator("#check-errors").count() == 0
    page.get_by_role("button", name="Store and open the replay").click()
    page.wait_for_url("**/r/**")
    wait_for_step(page, 0)
    assert page.locator("#game-title").inner_text() == title
    assert page.locator(".owner-notice .token").inner_text().strip() != ""

    page.goto(server.url + "/")
    assert page.locator("#recent-games").get_by_role("link", name=title).count() == 1


def test_upload_shows_each_error_with_its_place_in_the_log(page: Any, server: Server) -> None:
    text = ('{\n "format": "popreplay/1",\n "game": "pop",\n "mode": "battle",\n'
            ' "players": ["Ana", "Ben", 7],\n "rounds": []\n}')
    page.goto(server.url + "/")
    page.get_by_label("Paste a log").fill(text)
    page.get_by_role("button", name="Check").click()
    assert page.locator("#check-status").inner_text() == "invalid"
    item = page.locator('#check-errors li[data-path="/players/2"]')
    assert "line 5, column 28" in item.inner_text()
    item.get_by_role("button", name="show in the log").click()
    selected = page.evaluate("(() => { const t = document.getElementById('log-text'); "
                             "return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected == "7"
    shoot(page, "home.png")

    page.get_by_role("button", name="Store and open the replay").click()
    page.locator('#check-errors li[data-path="/players/2"]').wait_for()
    assert page.url == server.url + "/"

    page.get_by_label("Paste a log").fill('{"format": "popreplay/1",')
    page.get_by_role("button", name="Check").click()
    page.locator('#check-errors li[data-code="json"]').wait_for()
    assert page.locator("#check-status").inner_text() == "invalid"
    assert page.locator("#check-errors li").count() == 1


def test_a_json_syntax_error_in_the_form_names_its_line_and_selects_it(page: Any,
                                                                       server: Server) -> None:
    """Not "at the whole log (/)": the line and column, and a button that selects the place."""
    text = '{\n "format": "popreplay/1",\n "game": "pop"\n "mode": "battle"\n}'
    page.goto(server.url + "/")
    page.get_by_label("Paste a log").fill(text)
    page.get_by_role("button", name="Check").click()
    item = page.locator('#check-errors li[data-code="json"]')
    item.wait_for()
    assert "Expecting ',' delimiter at line 4, column 2" in item.inner_text()
    assert item.locator(".place").inner_text() == "at line 4, column 2 show in the log"
    assert "whole log" not in item.inner_text()
    item.get_by_role("button", name="show in the log").click()
    selected = page.evaluate("(() => { const t = document.getElementById('log-text'); "
                             "return [t.selectionStart, t.value.slice(t.selectionStart, "
                             "t.selectionEnd), document.activeElement === t]; })()")
    assert selected == [text.index('"mode"'), '"mode": "battle"', True]


def test_a_json_error_after_emoji_names_the_column_people_see_and_selects_the_place(
        page: Any, server: Server) -> None:
    """Three emoji (two UTF-16 units each) before the error on its line: column 29, not 32, and
    the selection starts on the offending character."""
    text = '{"format": "popreplay/1", "meta": {"title": "🎴🎴🎴"} "game": "pop"}'
    page.goto(server.url + "/")
    page.get_by_label("Paste a log").fill(text)
    page.get_by_role("button", name="Check").click()
    item = page.locator('#check-errors li[data-code="json"]')
    item.wait_for()
    column = len('{"format": "popreplay/1", "meta": {"title": "🎴🎴🎴"} ') + 1
    assert column == 52 and f"line 1, column {column}" in item.inner_text()
    item.get_by_role("button", name="show in the log").click()
    selected = page.evaluate("(() => { const t = document.getElementById('log-text'); "
                             "return t.value.slice(t.selectionStart, t.selectionStart + 6); })()")
    assert selected == '"game"'


def test_upload_of_an_illegal_log_is_stored_and_shows_the_violation(
        page: Any, server: Server, example_logs: dict[str, Any]) -> None:
    log = json.loads(json.dumps(example_logs["puzzle"]))
    log["meta"]["title"] = f"Illegal puzzle {uuid.uuid4().hex[:8]}"
    log["rounds"][0]["turns"][0]["plays"]["Solo"] = [1, 8, 42, 48, 38]
    page.goto(server.url + "/")
    page.get_by_label("Paste a log").fill(json.dumps(log, indent=1))
    page.get_by_role("button", name="Check").click()
    assert page.locator("#check-status").inner_text() == "illegal"
    error = page.locator("#check-errors li").first
    assert error.get_attribute("data-path") == "/rounds/0/turns/0/plays/Solo/4"
    assert "round 1 › turn 1 › plays › Solo › card 5" in error.inner_text()
    page.get_by_role("button", name="Store and open the replay").click()
    page.wait_for_url("**/r/**")
    assert page.locator("#violation").is_visible()


def test_partial_claims_lost_coop_and_incomplete_battle(page: Any, server: Server,
                                                       example_logs: dict[str, Any]) -> None:
    from popreplay.engine import get_game

    battle = json.loads(json.dumps(example_logs["battle"]))
    battle["meta"]["title"] = "Two rounds only"
    battle["rounds"] = battle["rounds"][:2]
    battle["claimed"] = {"rounds": [{"scores": {"Alice": 23, "Bruno": 9}}], "winners": None}
    slug = server.store(battle)["slug"]
    replay = server.replay(slug)
    assert replay["status"] == "incomplete"
    page.goto(f"{server.url}/r/{slug}")
    assert page.locator("#winners").count() == 0
    assert "not decided yet" in page.locator(".outcome").inner_text()
    rows = page.locator(".claims-table tbody tr")
    fields = rows.evaluate_all("rows => rows.map(r => [r.dataset.field, r.className])")
    assert fields == [["/rounds/0/scores/Alice", "matches"], ["/rounds/0/scores/Bruno", "differs"],
                      ["/winners", "matches"]]
    assert page.locator('tr[data-field="/rounds/0/scores/Bruno"] .computed').inner_text() == "8"

    lost = None
    for seed in range(200):
        log = get_game("pop").simulate(mode="coop", players=4, seed=seed)
        status, result = server.request("POST", "/api/v1/validate", json.dumps(log).encode())
        if result["outcome"]["result"] == "lost":
            lost = log
            break
    assert lost is not None
    slug = server.store(lost)["slug"]
    replay = server.replay(slug)
    boom = first_step(replay, "explode")
    page.goto(f"{server.url}/r/{slug}")
    outcome = replay["outcome"]
    assert page.locator("#outcome-line").inner_text() == (
        f"The group loses on turn {outcome['failed_turn']} — level {outcome['level']}")
    page.locator(".outcome").get_by_role("button", name=f"step {boom['index']}").click()
    assert_shows(page, replay, boom["index"])


def test_an_example_loads_into_the_form_and_checks(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.get_by_role("button", name="Load the battle example into the form").click()
    page.wait_for_function("() => document.getElementById('log-text').value.includes('disputed')")
    page.get_by_role("button", name="Check").click()
    assert page.locator("#check-status").inner_text() == "complete"
    differences = page.locator("#claim-differences li").all_inner_texts()
    assert differences == ["Alice, total: score sheet 40, replay 42",
                           "Winners: score sheet Alice, replay Bruno"]
    assert page.locator("#claim-differences li").first.get_attribute("data-field") == "/totals/Alice"


def test_a_violation_before_any_table(page: Any, server: Server,
                                      example_logs: dict[str, Any]) -> None:
    log = json.loads(json.dumps(example_logs["battle"]))
    log["players"] = ["Alice"]
    log["meta"]["title"] = "A battle for one"
    slug = server.store(log)["slug"]
    replay = server.replay(slug)
    assert [s["kind"] for s in replay["steps"]] == ["violation"]
    page.goto(f"{server.url}/r/{slug}")
    wait_for_step(page, 0)
    page.locator("#violation .error-details summary").click()
    assert page.locator("#violation .violation-code").inner_text() == "(bad-player-count)"
    assert page.locator(".step-error").is_visible()
    assert page.locator("#stage").inner_text().endswith("No table yet at this step.")
    assert page.get_by_role("button", name="Next step").is_disabled()

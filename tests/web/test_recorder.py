"""The recorder (GET /record) in Debian's Chromium against the real server, phone viewport 390×844:
whole simulated POP! games of every mode recorded through the UI only, then the cross-cutting
behaviour (refused entry, undo/redo, reload, offline, continue elsewhere, what-if branches,
keyboard, labels, no horizontal scrolling). Screenshots with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any, Iterator

import pytest

from popreplay.checking import check_log
from popreplay.engine.games.pop import POP
from tests.games.pop.test_choices import without_hands
from tests.web.conftest import (SCREENSHOTS, browser, screenshots_wanted, server,  # noqa: F401
                                store_locally, watched_page)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser) -> Iterator[Any]:  # noqa: F811
    with watched_page(browser, viewport=PHONE, timeout=20000) as tab:
        yield tab


# --- driving the page ----------------------------------------------------------------------------

def start(page, url, *, mode, players, hands=True, options=None, game="pop"):
    page.goto(url + "/record")
    page.select_option("#rec-game", game)
    page.select_option("#rec-mode", mode)
    for _ in range(len(players) - 1):
        if page.locator("#rec-player-%d" % len(players)).count():
            break
        page.click("[data-act=add-player]")
    for i, name in enumerate(players, start=1):
        page.fill(f"#rec-player-{i}", name)
    if not hands:
        page.uncheck("#rec-hands")
    options = options or {}
    if options.get("two_player_variant"):
        page.check("#pop-variant")
    if "difficulty" in options:
        page.select_option("#pop-difficulty", str(options["difficulty"]))
    page.click("[data-act=start]")
    wait_checked(page, 0)


def wait_checked(page, entries):
    page.wait_for_selector(f"#recorder[data-entries='{entries}'][data-checked='1']")


def tap(page, cards, *, entries=None):
    """Tap one entry's cards (None: a puzzle gap), each once the panel is ready for it."""
    for k, card in enumerate(cards):
        # one click whose own wait is for the panel ready with k cards in (a separate wait for
        # the panel cost a round trip to the browser per tap)
        panel = f".pr-entry[data-ready='1'][data-filled='{k}']"
        if card is None:
            page.click(f"{panel} [data-act=gap]")
        else:
            page.click(f"{panel} [data-card='{card}']:not([disabled])")
    if entries is not None:
        wait_checked(page, entries)


def round_taps(data, players, hands):
    cards = [c for row in data["layout"] for c in row]
    if hands:
        for name in players:
            cards += data["hands"][name]
    return cards


def turn_taps(turn, players, *, variant, solo):
    cards = []
    if variant:
        cards += [c for name in players for c in turn.get("draws", {}).get(name, [])]
    cards += [c for name in players for c in turn["plays"][name]]
    cards += turn.get("chief", [])
    if solo:
        cards += [c for name in players for c in turn.get("draws", {}).get(name, [])]
    return cards


def record_log(page, log, *, hands=True):
    players = log["players"]
    options = log.get("options") or {}
    variant = bool(options.get("two_player_variant"))
    solo = log["mode"] == "solo"
    entries = 0
    for data in log["rounds"]:
        if log["mode"] == "puzzle":
            for _ in range(len(data["layout"]) - 1):
                page.click("[data-act=rows-more]")
                page.wait_for_selector(".pr-entry[data-ready='1']")
            page.wait_for_selector(f".pr-rows:has-text('Layout rows: {len(data['layout'])}')")
        entries += 1
        tap(page, round_taps(data, players, hands), entries=entries)
        for turn in data["turns"]:
            entries += 1
            tap(page, turn_taps(turn, players, variant=variant, solo=solo), entries=entries)
    return entries


def finish(page, claimed=None, picture=None):
    page.click("[data-act=finish]")
    if picture:
        shot(page, picture)
    for key, values in (claimed or {}).items():
        if isinstance(values, dict):
            for name, value in values.items():
                page.fill(f"[data-claim='{key}'][data-player='{name}']", str(value))
        elif isinstance(values, list):  # a set of players: tick each
            for name in values:
                page.check(f"[data-claim='{key}'][data-player='{name}']")
        else:  # one value of a list, or yes/no
            page.select_option(f"select[data-claim='{key}']", json.dumps(values))
    page.click("[data-act=store]")
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    return page.url.rsplit("/", 1)[1]


def table_drawn(page):
    """The replay renderer drew the checked table (the play area), without an error."""
    assert page.locator(".rp-table .pop-area").count() == 1
    assert page.locator(".rp-table .rp-error").count() == 0


def no_horizontal_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def shot(page, name):
    if screenshots_wanted():
        page.evaluate("window.scrollTo(0, 0)")  # the screen as it opens: title, toolbar, table
        page.screenshot(path=str(SCREENSHOTS / name), full_page=False)


def stored_log(server, slug):  # noqa: F811
    status, body = server.request("GET", f"/api/v1/games/{slug}/log")
    assert status == 200
    return body


# --- whole games through the UI only -------------------------------------------------------------

GAMES = [
    ("battle", 3, None, True),
    ("battle", 2, {"two_player_variant": True}, True),
    ("coop", 3, None, False),
    ("solo", 1, {"difficulty": 2}, True),
    ("puzzle", 1, None, False),
]


@pytest.mark.slow
@pytest.mark.parametrize("mode,players,options,hands", GAMES,
                         ids=["battle-3-hands", "battle-2-variant", "coop-no-hands", "solo", "puzzle"])
def test_a_whole_simulated_game_is_recorded_through_the_ui_and_stored_with_its_result(
        phone, server, mode, players, options, hands):  # noqa: F811
    log = POP.simulate(mode=mode, players=players, seed=12, options=options)
    if not hands:
        log = without_hands(log)
    start(phone, server.url, mode=mode, players=log["players"], hands=hands, options=options)
    record_log(phone, log, hands=hands)
    phone.wait_for_selector(".rp-done")
    table_drawn(phone)
    no_horizontal_scroll(phone)
    if mode in ("battle", "solo"):  # the 2-player variant has its own picture
        shot(phone, "recorder-pop-variant.png" if options and options.get("two_player_variant")
             else f"recorder-pop-{mode}.png")
    # the score sheet's numbers, and what it says in words: winners, won or lost, solved
    claimed = {k: v for k, v in log["claimed"].items()
               if k in ("totals", "winners", "result", "solved") and v is not None} or None
    slug = finish(phone, claimed, picture="recorder-end.png" if mode == "battle" and hands
                  and players == 3 else None)
    stored = stored_log(server, slug)
    assert stored["rounds"] == log["rounds"]
    expected = check_log({**log, "claimed": claimed} if claimed else
                         {k: v for k, v in log.items() if k != "claimed"})
    status, game = server.request("GET", f"/api/v1/games/{slug}")
    assert game["result"] == expected  # field for field, claims included
    assert game["result"]["outcome"] == check_log(log)["outcome"]
    if claimed:
        assert game["result"]["claims"] == {"match": True, "differences": []}
        phone.wait_for_selector("#result-panel")


# --- cross-cutting -------------------------------------------------------------------------------

def battle_log(seed=3):
    return POP.simulate(mode="battle", players=3, seed=seed)


def record_first(page, log, turns, *, hands=True):
    players = log["players"]
    data = log["rounds"][0]
    tap(page, round_taps(data, players, hands), entries=1)
    for t, turn in enumerate(data["turns"][:turns], start=2):
        tap(page, turn_taps(turn, players, variant=False, solo=False), entries=t)


def test_an_illegal_entry_is_refused_with_the_rules_message_and_nothing_is_lost(phone, server):  # noqa: F811
    start(phone, server.url, mode="puzzle", players=["Solo"], hands=False)
    phone.click("[data-act=rows-more]")
    phone.wait_for_selector(".pr-rows:has-text('Layout rows: 2')")
    # a card above a gap floats: the engine refuses the layout once it is whole
    tap(phone, [1, None, None, None, None, None, 2, 3, 4, 5])
    phone.wait_for_selector(".rp-error-box")
    assert "floats above a gap" in phone.inner_text(".rp-error-box .rp-error-line")
    assert phone.get_attribute("#recorder", "data-entries") == "0"
    # the nine cards before the last are still there: only the refused last tap is undone
    phone.wait_for_selector(".pr-entry[data-ready='1'][data-filled='9']")
    draft = phone.evaluate("JSON.parse(localStorage.getItem('popreplay-recorder')).draft")
    assert draft["rounds"] == []
    no_horizontal_scroll(phone)


def test_undo_redo_and_a_reload_keep_the_draft(phone, server):  # noqa: F811
    log = battle_log()
    start(phone, server.url, mode="battle", players=log["players"])
    record_first(phone, log, 2)
    phone.click("[data-act=undo]")
    wait_checked(phone, 2)
    assert "Round 1, turn 2" in phone.inner_text(".pr-entry h3")
    phone.click("[data-act=redo]")
    wait_checked(phone, 3)
    phone.keyboard.press("Control+z")
    wait_checked(phone, 2)
    phone.keyboard.press("Control+y")
    wait_checked(phone, 3)
    phone.reload()
    wait_checked(phone, 3)
    assert "Round 1, turn 3" in phone.inner_text(".pr-entry h3")
    draft = phone.evaluate("JSON.parse(localStorage.getItem('popreplay-recorder')).draft")
    assert draft["rounds"][0]["turns"] == log["rounds"][0]["turns"][:2]
    tap(phone, turn_taps(log["rounds"][0]["turns"][2], log["players"], variant=False, solo=False)[:2])
    phone.wait_for_selector(".pr-entry[data-ready='1'][data-filled='2']")
    table_drawn(phone)
    no_horizontal_scroll(phone)
    shot(phone, "recorder-pop.png")


def test_entries_made_offline_are_kept_and_checked_when_the_network_is_back(phone, server):  # noqa: F811
    log = battle_log()
    start(phone, server.url, mode="battle", players=log["players"])
    record_first(phone, log, 1)
    phone.context.set_offline(True)
    turns = log["rounds"][0]["turns"]
    for t, turn in enumerate(turns[1:3], start=3):
        for card in turn_taps(turn, log["players"], variant=False, solo=False):
            phone.click(f".pr-entry [data-card='{card}']:not([disabled])")
        phone.wait_for_selector(f"#recorder[data-entries='{t}'][data-checked='0']")
    assert "Offline" in phone.inner_text("#recorder")
    no_horizontal_scroll(phone)
    shot(phone, "recorder-offline.png")
    phone.context.set_offline(False)
    wait_checked(phone, 4)
    assert "Round 1, turn 4" in phone.inner_text(".pr-entry h3")
    draft = phone.evaluate("JSON.parse(localStorage.getItem('popreplay-recorder')).draft")
    assert draft["rounds"][0]["turns"] == turns[:3]


def test_a_saved_draft_is_continued_from_a_second_browser_with_the_owner_token(phone, server, browser):  # noqa: F811
    log = battle_log(seed=4)
    start(phone, server.url, mode="battle", players=log["players"])
    record_first(phone, log, 2)
    phone.click("[data-act=save]")
    phone.wait_for_selector(".rp-token")
    token = phone.inner_text(".rp-token")
    slug = phone.inner_text(".rp-facts a")
    assert stored_log(server, slug)["rounds"][0]["turns"] == log["rounds"][0]["turns"][:2]
    with watched_page(browser, viewport=PHONE, timeout=20000) as other:
        other.goto(f"{server.url}/record?continue={slug}")
        other.fill("#rec-token", token)
        other.click("[data-act=continue]")
        wait_checked(other, 0)
        assert "Round 1, turn 3" in other.inner_text(".pr-entry h3")
        turn = log["rounds"][0]["turns"][2]
        tap(other, turn_taps(turn, log["players"], variant=False, solo=False), entries=1)
        other.wait_for_selector(".rp-status:has-text('Saved as game')")
        assert stored_log(server, slug)["rounds"][0]["turns"] == log["rounds"][0]["turns"][:3]


def test_a_what_if_branch_is_stored_and_linked_both_ways(phone, server):  # noqa: F811
    log = battle_log(seed=5)
    source = server.store(log)
    steps = POP.replay(log, with_steps=True).steps
    step = max(s["index"] for s in steps if s["round"] == 1 and s["turn"] == 2)
    phone.goto(f"{server.url}/r/{source['slug']}#step={step}")
    link = phone.locator("[data-act=whatif]")
    link.focus()
    assert link.get_attribute("href") == f"/record?from={source['slug']}&step={step}"
    link.click()
    wait_checked(phone, 0)
    assert "Round 1, turn 3" in phone.inner_text(".pr-entry h3")
    assert "What if" in phone.inner_text(".rp-facts")
    # another move: each player reveals another card of their hand than in the game
    draft = POP.cut(log, step)
    hands = POP.choices(draft)["hands"]
    played = log["rounds"][0]["turns"][2]["plays"]
    cards = [next(c for c in hands[name] if c != played[name][0]) for name in log["players"]]
    chief = POP.choices(draft, pending={"entry": "turn", "cards": cards})["next"]["turn"]["cards"]
    tap(phone, cards + chief[:2], entries=1)
    slug = finish(phone)
    # an unlisted branch is listed with the source's owner token only (issue 25, finding 5)
    assert server.request("GET", f"/api/v1/record/branches/{source['slug']}")[1]["branches"] == []
    request = urllib.request.Request(f"{server.url}/api/v1/record/branches/{source['slug']}",
                                     headers={"Authorization": f"Bearer {source['owner_token']}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        links = json.loads(answer.read())
    assert [(b["slug"], b["step"]) for b in links["branches"]] == [(slug, step)]
    status, game = server.request("GET", f"/api/v1/games/{slug}")
    assert game["visibility"] == "unlisted"
    phone.wait_for_selector(".whatif .branch-of a")
    assert phone.get_attribute(".whatif .branch-of a", "href") == f"/r/{source['slug']}#step={step}"


def test_a_what_if_link_over_a_draft_in_progress_asks_first(phone, server):  # noqa: F811
    """Issue 25, finding 10: the link asks, as "New" does; "no" keeps the draft."""
    log = battle_log(seed=6)
    source = server.store(log)
    draft = {"setup": {"game": "pop", "mode": "battle", "players": log["players"], "options": {},
                       "recordHands": False, "meta": {"title": "My draft"}},
             "draft": {**{k: v for k, v in log.items() if k not in ("rounds", "claimed")},
                       "meta": {"title": "My draft"}, "rounds": log["rounds"][:1]},
             "undo": [], "redo": [], "saved": None, "branchOf": None, "checked": False}
    store_locally(phone, server.url, {"popreplay-recorder": json.dumps(draft)})
    asked: list[str] = []
    phone.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    phone.goto(f"{server.url}/record?from={source['slug']}&step=3")
    phone.wait_for_function("() => !location.search")
    assert asked and "what-if" in asked[0]
    phone.wait_for_selector(".pr-entry h3")
    assert "Round 2" in phone.inner_text(".pr-entry h3")  # the draft, where it was
    kept = phone.evaluate("JSON.parse(localStorage.getItem('popreplay-recorder')).draft.meta.title")
    assert kept == "My draft"
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.goto(f"{server.url}/record?from={source['slug']}&step=3")
    phone.wait_for_function("() => document.body.innerText.includes('What if')")


def test_keyboard_labels_and_no_horizontal_scroll(phone, server):  # noqa: F811
    phone.goto(server.url + "/")
    phone.click("text=Record a game")
    phone.wait_for_selector("#rec-game")
    no_horizontal_scroll(phone)
    shot(phone, "recorder-setup.png")
    unlabelled = phone.evaluate("""() => [...document.querySelectorAll('#recorder input, #recorder select')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map(e => e.id)""")
    assert unlabelled == []
    phone.fill("#rec-player-1", "Ana")
    phone.fill("#rec-player-2", "Ben")
    phone.focus("#rec-player-2")
    phone.keyboard.press("Enter")  # the form submits from the keyboard
    wait_checked(phone, 0)
    nameless = phone.evaluate("""() => [...document.querySelectorAll('#recorder button')]
        .filter(b => !(b.innerText.trim() || b.getAttribute('aria-label'))).length""")
    assert nameless == 0
    key = phone.locator(".pr-entry [data-card='7']")
    key.focus()
    phone.keyboard.press("Enter")
    phone.wait_for_selector(".pr-entry[data-ready='1'][data-filled='1']")
    assert phone.get_attribute(".pr-entry [data-card='2']", "disabled") is not None  # 7's colour
    no_horizontal_scroll(phone)

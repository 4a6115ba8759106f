"""Issue 24: what a player reads, in English and French at 390×844 — the end-of-game form speaks
the score sheet's words (no code word), POP! battle takes each round's scores, and the claims are
compared round by round on the stored game."""

from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pytest
from playwright.sync_api import expect

from popreplay.checking import check_log
from popreplay.engine import GAMES
from popreplay.logformat import published_schema
from tests.web.conftest import (SCREENSHOTS, browser, screenshots_wanted, server,  # noqa: F401
                                store_locally, watched_page)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
MODES = [(g.name, mode) for g in GAMES.values() if hasattr(g, "claimable") for mode in g.modes]
PLAYERS = {"solo": 1, "puzzle": 1, "cube": 2}


@pytest.fixture
def phone(browser) -> Iterator[Any]:  # noqa: F811
    with watched_page(browser, viewport=PHONE, timeout=20000) as tab:
        yield tab


def code_words() -> set[str]:
    """Every outcome key and enum value of ``claimed`` in the published schemas, and the
    engine's declared choices: none of them may be what a person reads on the form."""
    words: set[str] = set()
    for game in GAMES.values():
        try:
            properties = published_schema(game.name)["$defs"]["claimed"]["properties"]
        except (FileNotFoundError, KeyError):
            continue
        for key, spec in properties.items():
            words.add(key)
            words.update(v for v in spec.get("enum", []) if isinstance(v, str))
        for mode in game.modes:
            for field in game.claimable(mode):
                words.add(field["key"])
                words.update(str(c) for c in field.get("choices", []))
    words.update(("true", "false"))
    return words


def simulated(game: str, mode: str) -> dict[str, Any]:
    engine = GAMES[game]
    count = PLAYERS.get(mode, PLAYERS.get(game, 3))
    log = engine.simulate(mode=mode, players=count, seed=5)
    log.pop("claimed", None)
    return log


def open_end_screen(page, url, log, lang):
    """The finished draft put where the recorder keeps it, then the end screen."""
    setup = {"game": log["game"], "mode": log["mode"], "players": log["players"],
             "options": log.get("options") or {}, "recordHands": True, "meta": {}}
    state = {"setup": setup, "draft": log, "undo": [], "redo": [], "saved": None,
             "branchOf": None, "checked": False}
    store_locally(page, url, {"popreplay-recorder": json.dumps(state)})
    page.goto(url + "/record?lang=" + lang)
    page.wait_for_selector("#recorder[data-checked='1']")
    page.click("[data-act=finish]")
    page.wait_for_selector(".rp-end")


def form_texts(page) -> list[str]:
    return page.eval_on_selector_all(
        ".rp-end legend, .rp-end label, .rp-end option, .rp-end th, .rp-end h2, .rp-end [aria-label]",
        "nodes => nodes.map(n => [n.textContent.trim(), n.getAttribute('aria-label') || ''])")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game,mode", MODES, ids=[f"{g}-{m}" for g, m in MODES])
def test_the_end_of_game_form_shows_no_code_word(phone, server, game, mode, lang):  # noqa: F811
    log = simulated(game, mode)
    open_end_screen(phone, server.url, log, lang)
    codes = code_words()
    texts = [t for pair in form_texts(phone) for t in pair if t]
    fields = phone.eval_on_selector_all("[data-claim]", "ns => ns.map(n => n.dataset.claim)")
    assert fields, "the form asks something"
    assert "notes" not in fields  # Bloops' meaningless tick group is gone
    for text in texts:
        assert text not in codes, f"{game} {mode} {lang}: the code {text!r} is shown"
        for code in codes:
            if "-" in code or "_" in code:
                assert code not in text, f"{game} {mode} {lang}: {code!r} in {text!r}"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if lang == "fr":
        assert not re.search(r"\b(Who|Points per|How did|Total points)\b", " ".join(texts))
    if screenshots_wanted() and (game, mode, lang) in (("pop", "battle", "en"), ("bloops", "classic", "fr")):
        phone.screenshot(path=str(SCREENSHOTS / f"recorder-end-{game}-{lang}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_pop_battle_takes_each_rounds_scores_and_they_are_compared_round_by_round(
        phone, server, lang):  # noqa: F811
    log = simulated("pop", "battle")
    outcome = check_log(log)["outcome"]
    players = log["players"]
    open_end_screen(phone, server.url, log, lang)
    rounds = outcome["rounds"]
    assert phone.locator("[data-claim=rounds]").count() == len(rounds) * len(players)
    wrong = players[1]
    delta = {"en": 5, "fr": 7}[lang]  # two different logs: the store refuses the same one twice
    for r, data in enumerate(rounds):
        for name in players:
            value = data["scores"][name] + (delta if (r == 1 and name == wrong) else 0)
            phone.fill(f"[data-claim=rounds][data-round='{r}'][data-player='{name}']", str(value))
    # the total row follows the rounds, as on the sheet
    for name in players:
        expected = outcome["totals"][name] + (delta if name == wrong else 0)
        assert phone.input_value(f"[data-claim=totals][data-player='{name}']") == str(expected)
    phone.check(f"[data-claim=winners][data-player='{outcome['winners'][0]}']")
    phone.click("[data-act=store]")
    try:
        phone.wait_for_selector("#result-panel")
    except Exception:
        raise AssertionError(phone.text_content("#rec-status") or "not stored")
    slug = phone.url.split("/r/", 1)[1].split("?", 1)[0]
    status, game = server.request("GET", f"/api/v1/games/{slug}")
    assert status == 200
    stored = server.request("GET", f"/api/v1/games/{slug}/log")[1]
    assert [r["scores"] for r in stored["claimed"]["rounds"]] == [
        {n: d["scores"][n] + (delta if (i == 1 and n == wrong) else 0) for n in players}
        for i, d in enumerate(rounds)]
    differences = game["result"]["claims"]["differences"]
    assert [d["field"] for d in differences] == [f"/rounds/1/scores/{wrong}", f"/totals/{wrong}"]
    assert differences[0]["claimed"] == rounds[1]["scores"][wrong] + delta
    assert differences[0]["computed"] == rounds[1]["scores"][wrong]


# --- errors in words ---------------------------------------------------------------------------

POINTER = re.compile(r"/(rounds|turns|events|players|pending)/\d|\(see /|\(voir /")


def illegal_battle() -> tuple[dict[str, Any], dict[str, Any]]:
    """A battle whose round 2, turn 3 has Bruno play a card of the layout."""
    log = simulated("pop", "battle")
    bruno = log["players"][1]
    log["rounds"][1]["turns"][2]["plays"][bruno] = [log["rounds"][1]["layout"][0][0]]
    log["rounds"] = log["rounds"][:2]
    log["rounds"][1]["turns"] = log["rounds"][1]["turns"][:3]
    return log, check_log(log)


WORDS = {"en": "Round 2, turn 3 — {name}: {name} does not hold {card}",
         "fr": "Manche 2, tour 3 — {name}\u00a0: {name} n'a pas le {card} en main"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_recorder_says_a_broken_draft_once_in_words_with_undo_beside_it(phone, server, lang):  # noqa: F811
    log, result = illegal_battle()
    assert result["errors"][0]["round"] == 2
    name, card = log["players"][1], log["rounds"][1]["layout"][0][0]
    setup = {"game": "pop", "mode": "battle", "players": log["players"], "options": {},
             "recordHands": True, "meta": {}}
    undo = [{"draft": {**log, "rounds": []}, "label": "x"}]
    state = {"setup": setup, "draft": log, "undo": undo, "redo": [], "saved": None,
             "branchOf": None, "checked": False}
    store_locally(phone, server.url, {"popreplay-recorder": json.dumps(state)})
    phone.goto(server.url + "/record?lang=" + lang)
    phone.wait_for_selector(".rp-error-box")
    expected = WORDS[lang].format(name=name, card=card)
    text = phone.inner_text("#recorder")
    assert text.count(expected) == 1, text
    assert not POINTER.search(text), text
    assert phone.locator(".rp-error-box [data-act=undo-error]").is_visible()
    phone.click(".rp-error-box summary")
    assert "/rounds/1/turns/2/plays/" in phone.inner_text(".rp-error-box details")
    if screenshots_wanted() and lang == "en":
        phone.screenshot(path=str(SCREENSHOTS / "recorder-error.png"))
    phone.click(".rp-error-box [data-act=undo-error]")
    phone.wait_for_selector("#recorder[data-entries='0'][data-checked='1']")
    assert phone.locator(".rp-error-box").count() == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_replay_and_the_home_check_say_the_violation_in_words(phone, server, lang):  # noqa: F811
    log, result = illegal_battle()
    log = {**log, "meta": {"title": f"words {lang}"}}
    name, card = log["players"][1], log["rounds"][1]["layout"][0][0]
    expected = WORDS[lang].format(name=name, card=card)
    slug = server.store(log)["slug"]
    phone.goto(f"{server.url}/r/{slug}?lang={lang}")
    phone.wait_for_selector("#violation")
    banner = phone.inner_text("#violation")
    assert expected in banner and not POINTER.search(banner), banner
    panel = phone.inner_text("#result-panel")
    assert expected in panel and not POINTER.search(panel), panel
    phone.goto(f"{server.url}/?lang={lang}")
    phone.fill("#log-text", json.dumps(log))
    phone.click("#validate-button")
    phone.wait_for_selector("#check-errors li")
    item = phone.inner_text("#check-errors li")
    assert expected in item and not POINTER.search(item), item


# --- offline: still narrowed -------------------------------------------------------------------

@pytest.mark.parametrize("hands", [True, False], ids=["hands", "face-up-only"])
def test_offline_after_two_entries_the_offered_cards_are_still_narrowed(phone, server, hands):  # noqa: F811
    from tests.games.pop.test_choices import without_hands
    from tests.web.test_recorder import record_first, start, turn_taps

    log = simulated("pop", "battle")
    if not hands:
        log = without_hands(log)
    players = log["players"]
    start(phone, server.url, mode="battle", players=players, hands=hands)
    record_first(phone, log, 1, hands=hands)  # the deal and turn 1, checked
    phone.context.set_offline(True)
    turns = log["rounds"][0]["turns"]
    for entries, turn in enumerate(turns[1:3], start=3):
        for card in turn_taps(turn, players, variant=False, solo=False):
            phone.click(f".pr-entry [data-card='{card}']:not([disabled])")
        phone.wait_for_selector(f"#recorder[data-entries='{entries}'][data-checked='0']")
    assert "2 entries are waiting to be checked" in phone.inner_text(".rp-facts")
    assert phone.locator(".rp-stale").count() == 0  # POP! narrows: no "from before" line
    assert "Round 1, turn 4" in phone.inner_text(".pr-entry h3")
    offered = phone.eval_on_selector_all(".pr-entry [data-card]:not([disabled])",
                                         "ns => ns.map(n => Number(n.dataset.card))")
    played = {c for turn in turns[:3] for cards in turn["plays"].values() for c in cards}
    played |= {c for turn in turns[:3] for c in turn.get("chief", [])}
    if hands:
        assert phone.locator(".pr-hand").count() == 1  # the player's hand, not the 1-50 grid
        assert sorted(offered) == sorted(set(log["rounds"][0]["hands"][players[0]]) - played)
    else:
        seen = {c for row in log["rounds"][0]["layout"] for c in row} | played
        assert sorted(offered) == [c for c in range(1, 51) if c not in seen]
    assert not set(offered) & played
    if screenshots_wanted() and hands:
        phone.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(path=str(SCREENSHOTS / "recorder-offline.png"))
    phone.context.set_offline(False)
    phone.wait_for_selector("#recorder[data-entries='4'][data-checked='1']")


@pytest.mark.parametrize("game", ["slap", "cube", "bloops"])
def test_offline_a_panel_says_what_its_offers_leave_out(phone, server, game):  # noqa: F811
    """Offline (docs/recorder.md, "Offline"): after an entry made offline the page says that the
    cards and values offered leave out those entered since (the answer's ``spent``), and that who
    plays next is as before; an answer without ``spent`` (slap's known top card) says the offers are
    the ones from before the entries, rather than showing them as current."""
    log = simulated(game, GAMES[game].modes[0])
    key = "turns" if game == "cube" else "events"
    log[key] = log[key][:6]
    setup = {"game": game, "mode": log["mode"], "players": log["players"],
             "options": log.get("options") or {}, "recordHands": True, "meta": {}}
    state = {"setup": setup, "draft": log, "undo": [], "redo": [], "saved": None,
             "branchOf": None, "checked": False}
    store_locally(phone, server.url, {"popreplay-recorder": json.dumps(state)})
    phone.goto(server.url + "/record")
    phone.wait_for_selector("#recorder[data-checked='1']")
    assert phone.locator(".rp-stale").count() == 0
    phone.context.set_offline(True)
    phone.evaluate("""async () => (await import('/assets/record.js')).recorder.commit(
        log => { const list = log.events || log.turns; list.push(JSON.parse(JSON.stringify(list[list.length - 1]))); },
        "again")""")  # any entry: offline it is kept unchecked (the check comes back later)
    phone.wait_for_selector("#recorder[data-entries='1'][data-checked='0']")
    assert "1 entry is waiting to be checked" in phone.inner_text(".rp-facts")
    if "spent" in GAMES[game].choices(log):
        assert phone.locator(".rp-stale").count() == 0
        assert "leave out those entered since" in phone.inner_text(".rp-narrowed")
    else:
        assert "from before these entries" in phone.inner_text(".rp-stale")
    phone.context.set_offline(False)
    phone.wait_for_selector("#recorder[data-checked='1']")
    assert phone.locator(".rp-stale, .rp-narrowed").count() == 0


def test_offline_the_two_player_variant_still_offers_a_card_drawn_before_the_plays(phone, server):  # noqa: F811
    """The variant: each player draws, then plays 2, and may play the card just drawn. Offline,
    after two turns entered, the panel offers the engine's last sets narrowed: the draw from the
    cards not seen this round, then a hand that holds what was drawn since (the engine says which
    draw joins which play slot: ``joins``) and not what was played."""
    from tests.web.test_recorder import start, tap, turn_taps

    options = {"two_player_variant": True}
    log = GAMES["pop"].simulate(mode="battle", players=2, seed=12, options=options)
    players = log["players"]
    first, turns = log["rounds"][0], log["rounds"][0]["turns"]
    start(phone, server.url, mode="battle", players=players, options=options)
    tap(phone, [c for row in first["layout"] for c in row]
        + [c for name in players for c in first["hands"][name]], entries=1)
    tap(phone, turn_taps(turns[0], players, variant=True, solo=False), entries=2)
    phone.context.set_offline(True)
    for entries, turn in enumerate(turns[1:3], start=3):
        for card in turn_taps(turn, players, variant=True, solo=False):
            phone.click(f".pr-entry [data-card='{card}']:not([disabled])")
        phone.wait_for_selector(f"#recorder[data-entries='{entries}'][data-checked='0']")
    assert "Round 1, turn 4" in phone.inner_text(".pr-entry h3")

    def offered():
        return phone.eval_on_selector_all(".pr-entry [data-card]:not([disabled])",
                                          "ns => ns.map(n => Number(n.dataset.card))")

    seen = ({c for row in first["layout"] for c in row}
            | {c for name in players for c in first["hands"][name]}
            | {c for turn in turns[:3] for key in ("plays", "draws")
               for cards in turn[key].values() for c in cards}
            | {c for turn in turns[:3] for c in turn.get("chief", [])})
    draw = offered()  # Alice draws: a card not seen this round
    assert turns[3]["draws"][players[0]][0] in draw and not set(draw) & seen
    fourth = turns[3]
    for name in players:
        phone.click(f".pr-entry [data-card='{fourth['draws'][name][0]}']:not([disabled])")
    hand = set(first["hands"][players[0]])
    for turn in turns[:3]:
        hand |= set(turn["draws"][players[0]])
        hand -= set(turn["plays"][players[0]])
    hand.add(fourth["draws"][players[0]][0])
    assert phone.locator(".pr-hand").count() == 1  # Alice's hand, not the 1-50 grid
    assert sorted(offered()) == sorted(hand)
    assert fourth["plays"][players[0]][0] in hand
    phone.context.set_offline(False)
    phone.wait_for_selector("#recorder[data-entries='4'][data-checked='1']")


# --- findability --------------------------------------------------------------------------------

def test_a_saved_draft_continues_on_another_phone_from_its_link_without_typing(phone, server, browser):  # noqa: F811
    from tests.web.test_recorder import record_first, start

    log = POP_SIM(seed=21)
    start(phone, server.url, mode="battle", players=log["players"])
    record_first(phone, log, 1)
    phone.click("[data-act=save]")
    phone.wait_for_selector(".rp-token")
    link = phone.get_attribute("[data-act=handoff]", "href")
    token = phone.inner_text(".rp-token")
    assert "#token=" + token in link and "/record?continue=" in link
    phone.wait_for_function("() => { const i = document.querySelector('.rp-qr'); return i && i.complete && i.naturalWidth > 0; }")
    assert phone.get_attribute(".rp-qr", "src").startswith("data:image/svg+xml;base64,")
    assert "Record a game" in phone.inner_text("#header-record")
    with watched_page(browser, viewport=PHONE, timeout=20000) as other:
        other.goto(link)
        other.wait_for_selector("#recorder[data-entries='0'][data-checked='1']")
        assert "Round 1, turn 2" in other.inner_text(".pr-entry h3")
        assert "token" not in other.url


def POP_SIM(seed):  # noqa: N802
    log = GAMES["pop"].simulate(mode="battle", players=3, seed=seed)
    log.pop("claimed", None)
    return log


def test_the_qr_code_is_an_svg_of_a_recorder_address_only(server):  # noqa: F811
    import urllib.error
    import urllib.request

    def post(text):
        request = urllib.request.Request(server.url + "/record/qr", method="POST",
                                         data=json.dumps({"text": text}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, answer.headers["Content-Type"], answer.read()
        except urllib.error.HTTPError as error:
            return error.code, None, b""
    status, kind, body = post(server.url + "/record?continue=abc#token=xyz")
    assert status == 200 and kind.startswith("image/svg+xml") and body.startswith(b"<svg")
    assert post("https://elsewhere.example/record?continue=abc")[0] == 400
    assert post("x" * 700)[0] == 400


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_what_if_button_is_in_view_at_step_10_on_a_phone(phone, server, lang):  # noqa: F811
    slug = server.store(POP_SIM(seed=22))["slug"]
    phone.goto(f"{server.url}/r/{slug}?lang={lang}#step=10")
    phone.wait_for_selector("#viewer[data-step='10']")
    link = phone.locator("[data-act=whatif]")
    link.wait_for()
    box = link.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert phone.evaluate("window.scrollY") == 0
    assert "step=10" in link.get_attribute("href")
    words = {"en": "Try another move", "fr": "Essayer"}[lang]
    assert words in link.inner_text(), link.inner_text()
    if screenshots_wanted() and lang == "en":
        phone.screenshot(path=str(SCREENSHOTS / "replay-phone-whatif.png"))


# --- the toolbar fits a phone -------------------------------------------------------------------

def toolbar_boxes(page) -> list[tuple[str, dict[str, float] | None]]:
    buttons = page.locator(".rp-toolbar button")
    return [(buttons.nth(k).get_attribute("data-act") or "", buttons.nth(k).bounding_box())
            for k in range(buttons.count())]


def assert_toolbar_in_view(page, where: str) -> None:
    boxes = toolbar_boxes(page)
    assert [act for act, _ in boxes] == ["undo", "redo", "save", "finish", "new"], where
    for act, box in boxes:
        assert box is not None, f"{where}: {act} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (where, act, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (where, act, box)
        assert box["height"] >= 44, (where, act, box)  # still a finger's target
    # each button shows its whole label (no ellipsis: the text is not wider than the button)
    cut = page.eval_on_selector_all(".rp-toolbar button",
                                    "ns => ns.filter(n => n.scrollWidth > n.clientWidth).map(n => n.dataset.act)")
    assert cut == [], f"{where}: labels cut off: {cut}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", ["pop", "cube", "slap", "bloops"])
def test_every_toolbar_button_is_inside_the_phone_screen(phone, server, game, lang):  # noqa: F811
    mode = {"pop": "battle"}.get(game, GAMES[game].modes[0])
    log = simulated(game, mode)  # a whole game: the longest label, "Finish and store"
    setup = {"game": log["game"], "mode": log["mode"], "players": log["players"],
             "options": log.get("options") or {}, "recordHands": True, "meta": {}}
    state = {"setup": setup, "draft": log, "undo": [{"label": "x"}], "redo": [{"label": "y"}],
             "saved": None, "branchOf": None, "checked": False}
    store_locally(phone, server.url, {"popreplay-recorder": json.dumps(state)})
    phone.goto(server.url + "/record?lang=" + lang)
    phone.wait_for_selector("#recorder[data-checked='1']")
    finish = {"en": "Finish and store", "fr": "Terminer et enregistrer"}[lang]
    # the label follows the engine's answer (choices.over): wait for the render that drew it
    expect(phone.locator("[data-act=finish]")).to_have_text(finish)
    assert_toolbar_in_view(phone, f"{game} {lang}, the game over")
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # sticky: still in view below
    assert_toolbar_in_view(phone, f"{game} {lang}, scrolled down")
    if screenshots_wanted() and (game, lang) == ("pop", "fr"):
        phone.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(path=str(SCREENSHOTS / "recorder-toolbar-fr.png"))


def test_on_a_desktop_the_recorder_shows_the_panel_beside_the_table(browser, server):  # noqa: F811
    log = GAMES["pop"].simulate(mode="battle", players=3, seed=12)
    log.pop("claimed")
    log["rounds"] = log["rounds"][:2]
    log["rounds"][1]["turns"] = log["rounds"][1]["turns"][:3]  # round 2, turn 4 comes next
    setup = {"game": "pop", "mode": "battle", "players": log["players"], "options": {},
             "recordHands": True, "meta": {}}
    state = {"setup": setup, "draft": log, "undo": [{"label": "x"}], "redo": [],
             "saved": None, "branchOf": None, "checked": False}
    with watched_page(browser, viewport={"width": 1280, "height": 900}, timeout=20000) as page:
        store_locally(page, server.url, {"popreplay-recorder": json.dumps(state)})
        page.goto(server.url + "/record")
        page.wait_for_selector("#recorder[data-checked='1'] .pr-entry[data-ready='1']")
        assert "Round 2, turn 4" in page.inner_text(".pr-entry h3")
        panel, table = page.locator(".rp-panel").bounding_box(), page.locator(".rp-table").bounding_box()
        assert panel["x"] + panel["width"] <= table["x"] + 1, (panel, table)  # side by side
        assert table["y"] < 900 and panel["y"] < 900
        boxes = toolbar_boxes(page)
        assert all(b is not None and b["x"] + b["width"] <= 1280 and b["y"] < 200 for _, b in boxes), boxes
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        if screenshots_wanted():
            page.screenshot(path=str(SCREENSHOTS / "recorder-desktop.png"))

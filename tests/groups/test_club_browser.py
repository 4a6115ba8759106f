"""Issue 32's "Done when", in Chromium at 390×844: a group of 5 members records 20 POP! battles —
through the recorder opened from the group page (its members as one-tap chips; in English, and
in French with a guest whose seat is then answered on the group page), a table started with
"Record together" (its seats are members; the entries sent by its phones through the API), the
score-sheet form (in English and in French) and uploads with the invite key. The group page's
leaderboard, each member's page and the API (leaderboard and rating histories) agree with
``openskill`` called directly on the same games in the same order, to the last digit. Then an
early game is corrected: the ratings before it stay as they were, the ones from it on change —
and agree with ``openskill`` again.

Screenshots (docs/img/group-*.png) with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest
from openskill.models import PlackettLuce

from popreplay.engine import get_game
from tests.conftest import simulated
from tests.groups.test_browser import PHONE as GROUP_PHONE
from tests.tables.helpers import Table
from tests.web.conftest import SCREENSHOTS, screenshots_wanted, watched_page
from tests.web.test_recorder import record_log, wait_checked

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {**GROUP_PHONE, "timezone_id": "UTC"}
NAMES = ["Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji"]
BOARD = "pop/battle"


# --- HTTP, as a data user and as the table's phones ------------------------------------------------

class Answer:
    def __init__(self, status: int, body: Any) -> None:
        self.status_code, self.body = status, body

    def get_json(self) -> Any:
        return self.body


class Http:
    """The live server through urllib, with the Flask test client's calls (tests/tables)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def call(self, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> Answer:
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return Answer(answer.status, json.loads(answer.read() or b"null"))
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, json.loads(error.read() or b"null"))

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:
        return self.call("POST", path, json, headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.call("GET", path, None, headers)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- the games ----------------------------------------------------------------------------------------

def renamed(log: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The simulated log with its seats named ``names`` (in seat order)."""
    text = json.dumps(log, ensure_ascii=False)
    for i, old in enumerate(log["players"]):
        text = text.replace(f'"{old}"', f'"@{i}@"')
    for i, new in enumerate(names):
        text = text.replace(f'"@{i}@"', f'"{new}"')
    out = json.loads(text)
    out["meta"] = {k: v for k, v in (out.get("meta") or {}).items() if k != "title"}
    return out


def battle(names: list[str], seed: int, day: int) -> dict[str, Any]:
    log = renamed(simulated("battle", len(names), seed), names)
    log["meta"]["played_at"] = f"2026-05-{day:02d}T20:00:00Z"
    log["meta"]["title"] = f"Thursday {day} May · {', '.join(names)}"
    return log


def ranks(players: list[str], totals: dict[str, int], winners: list[str]) -> list[int]:
    """Winners first, then the lower total (POP!), ties sharing a rank (docs/groups.md)."""
    key = {p: (p not in winners, totals[p]) for p in players}
    return [1 + sum(key[o] < key[p] for o in players) for p in players]


def of_log(log: dict[str, Any]) -> tuple[list[str], list[int]]:
    outcome = get_game("pop").replay(log).outcome
    return log["players"], ranks(log["players"], outcome["totals"], outcome["winners"])


def expected(games: list[tuple[str, list[str], list[int]]]) -> dict[str, list[tuple[str, Any]]]:
    """``openskill`` called directly: each member's rating after each game (slug, rating)."""
    model, now, history = PlackettLuce(), {}, {name: [] for name in NAMES}
    for slug, players, game_ranks in games:
        teams = [[now.get(p) or model.rating()] for p in players]
        for p, [rating] in zip(players, model.rate(teams, ranks=game_ranks)):
            now[p] = rating
            history[p].append((slug, rating))
    return history


# --- the pages ----------------------------------------------------------------------------------------

def shot(tab: Any, name: str) -> None:
    if screenshots_wanted():
        tab.evaluate("window.scrollTo(0, 0)")
        tab.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def no_sideways_scroll(tab: Any) -> None:
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


def open_recorder(tab: Any, server: Any, slug: str, lang: str) -> None:
    """From the group page: "Record a game" opens the group's recorder."""
    tab.goto(server.url + f"/g/{slug}?lang={lang}")
    tab.click("#record-game")
    tab.wait_for_url(re.compile(rf"/g/{slug}/record"))
    tab.wait_for_selector("[data-act=member]")
    assert tab.get_attribute("html", "lang") == lang


def seat_members(tab: Any, ids: dict[str, int], names: list[str], day: int) -> None:
    """The setup: POP! battle, the members tapped in seat order, the day it was played."""
    tab.select_option("#rec-game", "pop")
    tab.select_option("#rec-mode", "battle")
    for name in names:
        tab.click(f"[data-act=member][data-member='{ids[name]}']")
    for seat, name in enumerate(names, start=1):
        assert tab.input_value(f"#rec-player-{seat}") == name
        chip = tab.locator(f"[data-act=member][data-member='{ids[name]}']")
        assert chip.get_attribute("aria-pressed") == "true" and str(seat) in chip.inner_text()
    tab.fill("#rec-when", f"2026-05-{day:02d}T20:00")


def store_recorded(tab: Any) -> str:
    tab.click("[data-act=finish]")
    tab.click("[data-act=store]")
    tab.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+(\?lang=fr)?$"))
    return re.search(r"/r/([A-Za-z0-9_-]+)", tab.url).group(1)


def sheet(tab: Any, server: Any, slug: str, ids: dict[str, int], scores: dict[str, int],
          lang: str) -> None:
    """The score-sheet form of the group page: POP! battle, the players, round 1's points and
    the winner (the lowest total)."""
    tab.goto(server.url + f"/g/{slug}?lang={lang}")
    tab.click("#new-sheet")
    assert tab.get_attribute("html", "lang") == lang
    tab.select_option("#sheet-board", "pop/battle")
    for name in scores:
        tab.check(f"input[name=m][value='{ids[name]}']")
    tab.click("#sheet-start button[type=submit]")
    players = [n for n in NAMES if n in scores]  # the form lists them in the members' order
    for i, name in enumerate(players):
        tab.fill(f"input[name='rounds-0-{i}']", str(scores[name]))
    winner = min(players, key=lambda p: scores[p])
    tab.check(f"input[name='winners-{players.index(winner)}']")
    tab.click("#sheet-save")
    tab.wait_for_url(re.compile(rf"/g/{slug}(\?[^#]*)?#games$"))
    no_sideways_scroll(tab)


def test_a_club_records_20_games_and_every_rating_agrees_with_openskill(browser, server):
    http = Http(server.url)
    with watched_page(browser, http_errors=True, timeout=30000, **PHONE) as tab:
        # the group, from the home page; its members, on its page
        tab.goto(server.url + "/?lang=en")
        tab.fill("#group-name", "Club du Jeudi")
        tab.click("#create-group")
        invite = tab.get_attribute("#invite-link", "href")
        key = re.search(r"key=([^&]+)", invite).group(1)
        slug = re.search(r"/g/([^/]+)/join", invite).group(1)
        auth = bearer(key)
        tab.click("#open-group")
        for name in NAMES:
            tab.fill("#member-name", name)
            tab.click("#members button[type=submit]")
        people = http.get(f"/api/v1/groups/{slug}/members", auth).get_json()["members"]
        ids = {m["name"]: m["id"] for m in people}
        assert sorted(ids) == sorted(NAMES)

        played: list[tuple[str, str, list[str], list[int]]] = []  # (order key, slug, players, ranks)

        # 15 uploads with the invite key: battles of 2 to 5 members, each on its own day
        upload_days = [1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18]
        for k, day in enumerate(upload_days):
            names = [NAMES[(k + j) % 5] for j in range(2 + k % 4)]
            log = battle(names, 600 + k, day)
            answer = http.post(f"/api/v1/groups/{slug}/games", {"log": log}, auth)
            assert answer.status_code == 201 and answer.get_json()["unmapped"] == []
            played.append((f"05-{day:02d}", answer.get_json()["game"]["slug"], *of_log(log)))

        # the recorder, from the group page, in English: two members tapped (day 3)
        open_recorder(tab, server, slug, "en")
        early = battle(["Dmitri", "Alice"], 41, 3)
        seat_members(tab, ids, early["players"], 3)
        tab.locator("#rec-when").blur()
        shot(tab, "group-recorder-phone.png")
        no_sideways_scroll(tab)
        tab.click("[data-act=start]")
        wait_checked(tab, 0)
        assert "Club du Jeudi" in tab.inner_text(".rp-facts")
        record_log(tab, early)
        early_slug = store_recorded(tab)
        owner = tab.evaluate(f"localStorage.getItem('popreplay-owner:{early_slug}')")
        played.append(("05-03", early_slug, *of_log(early)))

        # "Record together" from the group's recorder: a table whose seats are members (day 6)
        open_recorder(tab, server, slug, "en")
        together = battle(["Eun-ji", "Chloé", "Bruno"], 42, 6)
        seat_members(tab, ids, together["players"], 6)
        tab.click("[data-act=together]")
        tab.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+"))
        table_id = re.search(r"/t/([A-Za-z0-9_-]+)", tab.url).group(1)
        kept = json.loads(tab.evaluate(f"localStorage.getItem('popreplay-table:{table_id}')"))
        table = Table.__new__(Table)  # the phones at the table, through the API
        table.client, table.log, table.created = http, together, {}
        table.id, table.host, table.key, table.seats, table.seen = (
            table_id, kept["host"], kept["key"], {}, {})
        for name in together["players"]:
            assert table.join(name).status_code == 201
        for r, rnd in enumerate(together["rounds"]):
            assert {a.status_code for a in table.deal(r)} == {201}
            for t in range(len(rnd["turns"])):
                assert {a.status_code for a in table.turn(r, t)} == {201}
        stored = http.post(f"/api/v1/tables/{table_id}/store", {"visibility": "public"},
                           bearer(kept["host"]))
        assert stored.status_code == 201, stored.get_json()
        assert stored.get_json()["status"] == "complete"
        assert stored.get_json()["visibility"] == "unlisted"  # a private group's game
        played.append(("05-06", stored.get_json()["slug"], *of_log(together)))

        # the recorder in French: two members and a guest (day 9), answered on the group page
        open_recorder(tab, server, slug, "fr")
        guest = battle(["Bruno", "Dmitri", "Zoé"], 43, 9)
        seat_members(tab, ids, ["Bruno", "Dmitri"], 9)
        tab.click("[data-act=add-player]")
        tab.fill("#rec-player-3", "Zoé")
        assert "Qui joue" in tab.inner_text(".rp-members")
        tab.click("[data-act=start]")
        wait_checked(tab, 0)
        record_log(tab, guest)
        guest_slug = store_recorded(tab)
        tab.goto(server.url + f"/g/{slug}?lang=fr")
        form = tab.locator(f"#asked form[data-game='{guest_slug}']")
        form.locator("select").select_option(label="Chloé")
        form.locator("button[type=submit]").click()
        tab.wait_for_url(re.compile(r"#asked$"))
        assert tab.locator(f"#asked form[data-game='{guest_slug}']").count() == 0
        answered = renamed(guest, ["Bruno", "Dmitri", "Chloé"])
        played.append(("05-09", guest_slug, *of_log(answered)))

        # two score sheets, in English then in French (played "now": after every dated game)
        sheet(tab, server, slug, ids, {"Alice": 7, "Chloé": 12, "Eun-ji": 9}, "en")
        sheet(tab, server, slug, ids, {"Bruno": 15, "Dmitri": 6}, "fr")
        everything = http.get(f"/api/v1/groups/{slug}/games?order=played&limit=100",
                              auth).get_json()["items"]
        assert len(everything) == 20
        sheets = [g for g in everything if g["status"] == "sheet"]
        assert [[s["name"] for s in g["seats"]] for g in sheets] == [
            ["Alice", "Chloé", "Eun-ji"], ["Bruno", "Dmitri"]]
        played.append(("12-1", sheets[0]["slug"], ["Alice", "Chloé", "Eun-ji"],
                       ranks(["Alice", "Chloé", "Eun-ji"], {"Alice": 7, "Chloé": 12,
                                                            "Eun-ji": 9}, ["Alice"])))
        played.append(("12-2", sheets[1]["slug"], ["Bruno", "Dmitri"],
                       ranks(["Bruno", "Dmitri"], {"Bruno": 15, "Dmitri": 6}, ["Dmitri"])))
        played.sort(key=lambda g: g[0])
        assert [g["slug"] for g in everything] == [g[1] for g in played]  # the played order
        for g in everything:  # every seat is its member: the chips, the table, the answer
            assert all(s["member"] == ids.get(s["name"], ids["Chloé"]) for s in g["seats"])

        want = expected([(s, p, r) for _, s, p, r in played])
        before = agree(tab, http, server, slug, auth, ids, want, screenshots=True)

        # a correction of an early game (day 3, the recorder's): another result, same day
        corrected = battle(["Dmitri", "Alice"], 44, 3)
        assert of_log(corrected)[1] != of_log(early)[1]
        answer = http.call("PUT", f"/api/v1/record/games/{early_slug}", {"log": corrected},
                           bearer(owner))
        assert answer.status_code == 200, answer.get_json()
        played = [(o, s, *of_log(corrected)) if s == early_slug else (o, s, p, r)
                  for o, s, p, r in played]
        want = expected([(s, p, r) for _, s, p, r in played])
        after = agree(tab, http, server, slug, auth, ids, want, screenshots=False)
        order = [s for _, s, _, _ in played]
        first_changed = order.index(early_slug)
        for name in NAMES:
            old, new = before[name], after[name]
            assert [p["game"] for p in old] == [p["game"] for p in new]
            for p, q in zip(old, new):
                if order.index(p["game"]) < first_changed:
                    assert p == q  # before the corrected game: not touched
        for name in ("Dmitri", "Alice"):  # its own players' ratings from it on changed
            old = {p["game"]: p for p in before[name]}
            new = {p["game"]: p for p in after[name]}
            assert old[early_slug]["mu"] != new[early_slug]["mu"]
        no_sideways_scroll(tab)


def agree(tab: Any, http: Http, server: Any, slug: str, auth: dict[str, str],
          ids: dict[str, int], want: dict[str, list[tuple[str, Any]]], *,
          screenshots: bool) -> dict[str, list[dict[str, Any]]]:
    """The API's leaderboard and histories, the group page's leaderboard and each member's page
    agree with ``want`` to the last digit; the API's histories, by member name."""
    final = {name: history[-1][1] for name, history in want.items() if history}
    boards = http.get(f"/api/v1/groups/{slug}/leaderboards", auth).get_json()
    assert boards["ratings"]["up_to_date"] is True
    [board] = [b for b in boards["boards"] if b["board"] == BOARD]
    assert {s["name"]: (s["mu"], s["sigma"], s["ordinal"]) for s in board["standings"]} == {
        name: (r.mu, r.sigma, r.mu - 3 * r.sigma) for name, r in final.items()}
    histories = {}
    for name, history in want.items():
        got = http.get(f"/api/v1/groups/{slug}/members/{ids[name]}/ratings?board={BOARD}",
                       auth).get_json()["history"]
        assert [(p["game"], p["mu"], p["sigma"]) for p in got] == [
            (game, r.mu, r.sigma) for game, r in history]
        histories[name] = got
    for lang in ("en", "fr"):
        tab.goto(server.url + f"/g/{slug}?lang={lang}")
        rows = tab.locator(f"table.leaderboard[data-board='{BOARD}'] tbody tr")
        shown = {row.locator("a").inner_text(): float(
            row.locator("[data-ordinal]").get_attribute("data-ordinal")) for row in rows.all()}
        assert shown == {name: r.mu - 3 * r.sigma for name, r in final.items()}
        no_sideways_scroll(tab)
        if screenshots and lang == "en":
            shot(tab, "group-phone.png")
    for name, rating in final.items():
        tab.goto(server.url + f"/g/{slug}/p/{ids[name]}?lang=en")
        now = tab.locator(f"[data-board='{BOARD}'] [data-ordinal]").get_attribute("data-ordinal")
        assert float(now) == rating.mu - 3 * rating.sigma
        assert tab.locator("svg.rating-chart").count() == 1
        no_sideways_scroll(tab)
        if screenshots and name == "Chloé":
            shot(tab, "group-member-phone.png")
    return histories

"""The viewer's pages as HTML (Flask test client): security headers, no inline script, the data
block the browser reads, 404s, the shipped examples and the words for a place in the log."""

from __future__ import annotations

import json
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from popreplay.checking import check_text
from popreplay.games import KITS
from popreplay.web.places import offending_move, place_in_log
from popreplay.web.views import EXAMPLES, HERE, example_path, game_script
from popreplay.replayformat import in_format
from tests.conftest import gzip_negotiated


class Scripts(HTMLParser):
    """Every <script> of a page: its attributes and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._open: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open, self._text = dict(attrs), []
        for name, _ in attrs:
            assert not name.startswith("on"), f"inline event handler {name} on <{tag}>"

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._open is not None:
            self.scripts.append((self._open, "".join(self._text)))
            self._open = None


def scripts_of(html: str) -> list[tuple[dict[str, str | None], str]]:
    parser = Scripts()
    parser.feed(html)
    return parser.scripts


def replay_data(html: str) -> dict[str, Any]:
    blocks = [text for attrs, text in scripts_of(html) if attrs.get("id") == "replay-data"]
    assert len(blocks) == 1
    return json.loads(blocks[0])


def store_log(client: Any, raw: bytes, visibility: str = "public") -> dict[str, Any]:
    response = client.post(f"/api/v1/games?visibility={visibility}", data=raw,
                           content_type="application/json")
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def example_bytes(mode: str) -> bytes:
    return example_path(mode).read_bytes()


def assert_secure(response: Any) -> None:
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_home_lists_public_games_only_and_links_every_example(client: Any) -> None:
    public = store_log(client, example_bytes("coop"))
    hidden = store_log(client, example_bytes("solo"), visibility="unlisted")
    response = client.get("/")
    assert response.status_code == 200
    assert_secure(response)
    html = response.get_data(as_text=True)
    assert f'href="/r/{public["slug"]}"' in html
    assert "Example coop: nine quiet turns" in html
    assert hidden["slug"] not in html
    for mode in ("battle", "coop", "solo", "puzzle"):
        assert f'href="/examples/{mode}"' in html
        assert f'data-load-example="/examples/{mode}.json"' in html
    assert all(attrs.get("src") for attrs, _ in scripts_of(html))


def test_replay_page_carries_the_replay_and_loads_only_files(client: Any) -> None:
    stored = store_log(client, example_bytes("battle"))
    response = client.get(f"/r/{stored['slug']}")
    assert response.status_code == 200
    assert_secure(response)
    html = response.get_data(as_text=True)
    for attrs, text in scripts_of(html):
        assert attrs.get("src") or attrs.get("type") == "application/json", attrs
        if attrs.get("src"):
            assert text.strip() == ""
            assert attrs["src"].startswith("/assets/")
    assert '/assets/games/pop.js' in html
    data = replay_data(html)
    expected = in_format(dict(check_text(example_bytes("battle"), with_steps=True)), 2)
    assert data["result"] == json.loads(json.dumps(expected))  # as stored: replay format 2
    assert data["players"] == ["Alice", "Bruno", "Chloé"]
    assert data["log"]["claimed"]["totals"]["Alice"] == 40
    assert data["slug"] == stored["slug"]
    assert "Example battle: a disputed score" in html
    assert "played 27 Nov 2026, 20:15 (UTC+01:00)" in html


def test_unlisted_games_open_by_their_link(client: Any) -> None:
    stored = store_log(client, example_bytes("puzzle"), visibility="unlisted")
    response = client.get(f"/r/{stored['slug']}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "only people with the link" in html
    assert '<meta name="robots" content="noindex, nofollow">' in html


def test_unknown_links_answer_404_pages(client: Any) -> None:
    for url in ("/r/no-such-game", "/examples/chess"):
        response = client.get(url)
        assert response.status_code == 404
        assert_secure(response)
        assert "No game here" in response.get_data(as_text=True)
    assert client.get("/examples/chess.json").status_code == 404


def test_illegal_game_page_states_the_violation_and_the_offending_turn(client: Any) -> None:
    log = json.loads(example_bytes("battle"))
    log["rounds"][0]["turns"][2]["plays"]["Alice"] = [50]
    stored = store_log(client, json.dumps(log).encode())
    html = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
    assert 'id="violation"' in html
    assert "Illegal move in round 1, turn 3" in html
    assert "Alice does not hold 50" in html
    assert "round 1 › turn 3 › plays › Alice › card 1" in html
    assert "<code>/rounds/0/turns/2/plays/Alice/0</code> = <code>50</code>" in html
    data = replay_data(html)
    last = data["result"]["steps"][-1]
    assert last["kind"] == "violation"
    assert f'data-jump="{last["index"]}"' in html


@pytest.mark.parametrize("mode", sorted(EXAMPLES))
def test_example_pages_and_logs(client: Any, mode: str) -> None:
    page = client.get(f"/examples/{mode}")
    assert page.status_code == 200
    assert_secure(page)
    data = replay_data(page.get_data(as_text=True))
    log = json.loads(example_bytes(mode))
    assert (data["result"]["game"], data["result"]["mode"]) == (log["game"], log["mode"])
    assert log["mode"] == mode or log["game"] == mode
    assert data["result"]["status"] == "complete"
    raw = client.get(f"/examples/{mode}.json")
    assert raw.mimetype == "application/json"
    assert raw.data == example_bytes(mode)


def test_the_examples_show_what_the_home_page_says() -> None:
    results = {mode: check_text(example_bytes(mode), with_steps=True) for mode in EXAMPLES}
    battle = results["battle"]
    assert battle["outcome"]["totals"] == {"Alice": 42, "Bruno": 41, "Chloé": 73}
    assert [d["field"] for d in battle["claims"]["differences"]] == ["/totals/Alice", "/winners"]
    assert results["coop"]["outcome"]["result"] == "won"
    assert results["coop"]["outcome"]["level"] == "legendary"
    assert results["solo"]["outcome"]["title"] == "mean"
    assert results["puzzle"]["outcome"]["solved"] is True
    waves = [s["data"]["wave"] for s in results["puzzle"]["steps"] if s["kind"] == "explode"]
    assert waves == [1, 2, 3, 4, 5]


def test_assets_are_served_with_nosniff(client: Any) -> None:
    for name in ("replay.js", "games/pop.js", "home.js", "style.css"):
        response = client.get(f"/assets/{name}")
        assert response.status_code == 200, name
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        response.close()


def test_viewer_js_documents_the_renderer_contract() -> None:
    text = (HERE / "static" / "viewer.js").read_text("utf-8")
    head = text[:3000]
    for phrase in ("export function renderState(container, step, result, helpers)", "kindWords",
                   "renderOutcome", "#step=N"):
        assert phrase in head


def test_game_script_only_for_existing_files() -> None:
    assert game_script("pop") == "games/pop.js"
    assert game_script("no-such-game") is None
    assert game_script("../replay") is None
    assert game_script(None) is None


@pytest.mark.parametrize(("pointer", "words"), [
    ("", "the whole log"),
    ("/players", "players"),
    ("/rounds/0/layout/1", "round 1 › layout › row 2"),
    ("/rounds/0/layout/1/4", "round 1 › layout › row 2 › queue E"),
    ("/rounds/2/turns/7/chief/1", "round 3 › turn 8 › chief › card 2"),
    ("/rounds/0/hands/Chloé/8", "round 1 › hands › Chloé › card 9"),
    ("/claimed/totals/a~1b", "claimed › totals › a/b"),
])
def test_place_in_log_in_words(pointer: str, words: str) -> None:
    assert place_in_log(pointer, "pop") == words


def test_place_in_log_says_only_rounds_and_turns_without_the_games_words() -> None:
    assert place_in_log("/rounds/0/layout/1", None) == "round 1 › layout › item 2"
    assert place_in_log("/events/3/cards/0", "slap") == "events › item 4 › cards › item 1"


def test_offending_move_points_at_the_value_and_the_turn() -> None:
    log = json.loads(example_bytes("battle"))
    error = {"path": "/rounds/0/turns/2/plays/Alice/0", "round": 1, "turn": 3}
    found = offending_move(log, error)
    assert found["value"] == "18"
    assert json.loads(found["move"]) == log["rounds"][0]["turns"][2]
    missing = offending_move(log, {"path": "/rounds/0/turns/2/plays/Zoé", "round": 1, "turn": 3})
    assert missing["value"] is None
    assert re.search(r"Zoé", missing["place"])


def test_game_style_is_linked_only_when_the_game_ships_one() -> None:
    from popreplay.games import KITS
    from popreplay.web.views import game_style

    assert game_style("pop") is None
    for css in KITS["pop"].folder.parent.glob("*/static/*.css"):
        if (css.parent / f"{css.stem}.js").is_file():
            assert game_style(css.stem) == f"games/{css.stem}.css"


@pytest.mark.parametrize(("meta", "shown"), [
    ({"played_at": "2026-11-27T20:15:00+01:00"}, "27 Nov 2026, 20:15 (UTC+01:00)"),
    ({"played_at": "2026-11-27T20:15:00Z"}, "27 Nov 2026, 20:15 (UTC)"),
    ({"played_at": "2026-11-27 20:15"}, "27 Nov 2026, 20:15"),
    ({"played_at": "last friday"}, None),
    ({}, None),
])
def test_played_as_logged(meta: dict[str, Any], shown: str | None) -> None:
    from popreplay.web.views import played_as_logged

    assert played_as_logged({"meta": meta}) == shown


HOSTILE = "</script><script>alert('x')</script> & <!--"


def test_the_data_block_cannot_close_its_script_whatever_the_names(client: Any) -> None:
    log = json.loads(example_bytes("battle"))
    log["meta"]["title"] = HOSTILE
    renamed = {"Alice": HOSTILE}
    raw = json.dumps(log)
    for old, new in renamed.items():
        raw = raw.replace(f'"{old}"', json.dumps(new))
    stored = store_log(client, raw.encode())
    html = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
    assert "<script>alert" not in html and "<!--" not in html
    data = replay_data(html)
    assert data["players"][0] == HOSTILE and data["log"]["meta"]["title"] == HOSTILE
    assert data["result"]["outcome"]["totals"][HOSTILE] == check_text(
        raw.encode())["outcome"]["totals"][HOSTILE]


def test_the_page_embeds_the_replay_the_api_serves(client: Any, app: Any) -> None:
    """A legal game's page embeds the stored replay text as it is, and takes what it shows from
    the stored result; a result stored by another engine version is read from the replay."""
    from popreplay.db.models import GameRecord
    from popreplay.db.session import get_session

    stored = store_log(client, example_bytes("coop"))
    api = client.get(f"/api/v1/games/{stored['slug']}/replay").get_json()
    html = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
    assert replay_data(html)["result"] == api
    assert f'status-{api["status"]}' in html
    with app.app_context():
        session = get_session()
        record = session.get(GameRecord, stored["id"])
        record.engine_version, record.status = "0.0.0-old", "incomplete"  # what an old one said
        session.commit()
    html = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
    assert replay_data(html)["result"] == api
    assert f'status-{api["status"]}' in html and "status-incomplete" not in html


def test_pages_go_gzip_compressed_to_browsers(client: Any) -> None:
    import gzip

    stored = store_log(client, example_bytes("battle"))
    _, packed = gzip_negotiated(client, f"/r/{stored['slug']}", shrinks=4)
    assert_secure(packed)
    asset = client.get("/assets/replay.js", headers={"Accept-Encoding": "gzip"})
    assert asset.status_code == 200 and "Content-Encoding" not in asset.headers  # files pass as is
    asset.close()
    small = client.get("/r/no-such-game")  # a short page: not worth compressing
    assert small.status_code == 404 and len(small.data) < 1024 * 4
    small_packed = client.get("/r/no-such-game", headers={"Accept-Encoding": "gzip"})
    compressed = small_packed.headers.get("Content-Encoding") == "gzip"
    assert compressed == (len(small.data) >= 1024)
    body = gzip.decompress(small_packed.data) if compressed else small_packed.data
    assert body == small.data


class Metas(HTMLParser):
    """The page's <meta> tags: property or name -> content."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        key = values.get("property") or values.get("name")
        if tag == "meta" and key:
            self.found[key] = values.get("content") or ""


def metas_of(html: str) -> dict[str, str]:
    parser = Metas()
    parser.feed(html)
    return parser.found


def lost_coop_log() -> dict[str, Any]:
    from popreplay.engine import get_game

    for seed in range(200):
        log = get_game("pop").simulate(mode="coop", players=4, seed=seed)
        if check_text(json.dumps(log).encode())["outcome"]["result"] == "lost":
            return log
    raise AssertionError("no lost coop game in 200 seeds")


def test_share_pages_carry_a_link_preview_from_the_stored_result(client: Any) -> None:
    """A share link pasted in a chat shows the title and one line: the kind of game, who won
    with what, how many played, and whether the log is legal (and its score sheet agrees)."""
    battle = store_log(client, example_bytes("battle"))
    metas = metas_of(client.get(f"/r/{battle['slug']}").get_data(as_text=True))
    line = "POP! battle · Bruno wins with 41 · 3 players · legal · score sheet differs"
    assert metas["og:title"] == metas["twitter:title"] == "Example battle: a disputed score"
    assert metas["og:description"] == metas["twitter:description"] == metas["description"] == line
    assert metas["og:url"] == f"http://localhost/r/{battle['slug']}"
    assert metas["og:type"] == "website" and metas["twitter:card"] == "summary_large_image"
    assert metas["og:image"] == metas["twitter:image"] == f"http://localhost/r/{battle['slug']}.png"

    log = json.loads(example_bytes("battle"))
    log["meta"]["title"] = "Chloé's night"
    log["claimed"] = None
    illegal = json.loads(json.dumps(log))
    illegal["rounds"][0]["turns"][2]["plays"]["Alice"] = [50]
    cases = {
        "coop": "POP! coop · the group wins (legendary) · 4 players · legal",
        "puzzle": "POP! puzzle · solved · 1 player · legal",
        "slap": "Slap (Rainbow/Shadow) elimination · Bruno wins · 3 players · legal",
    }
    for mode, expected in cases.items():
        stored = store_log(client, example_bytes(mode))
        page = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
        assert metas_of(page)["og:description"] == expected
    stored = store_log(client, json.dumps(illegal).encode())
    assert metas_of(client.get(f"/r/{stored['slug']}").get_data(as_text=True))[
        "og:description"] == ("POP! battle · stopped at an illegal move in round 1, turn 3 · "
                              "3 players · illegal")
    stored = store_log(client, json.dumps(lost_coop_log()).encode())
    description = metas_of(client.get(f"/r/{stored['slug']}").get_data(as_text=True))[
        "og:description"]
    assert re.fullmatch(r"POP! coop · the group loses \(\w+\) · 4 players · legal", description)


def test_a_shared_win_names_every_winner() -> None:
    from popreplay.web.preview import summary

    result = {"status": "complete", "legal": True, "mode": "battle", "claims": None,
              "outcome": {"winners": ["Ana", "Ben", "Chloé"], "totals": {"Ana": 25, "Ben": 25,
                                                                       "Chloé": 25}}}
    assert summary(result, game_title="POP!", players=["Ana", "Ben", "Chloé"]) == (
        "POP! battle · Ana, Ben and Chloé share the win with 25 · 3 players · legal")


def test_favicon_is_a_real_icon(client: Any) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "image/vnd.microsoft.icon"
    assert response.data[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert int.from_bytes(response.data[4:6], "little") == 3  # 16, 32 and 48 pixels
    response.close()
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="icon" href="/favicon.ico"' in html


def test_a_lost_game_is_not_shown_in_green(client: Any) -> None:
    """"complete" is neutral; the outcome badge says won (green) or lost (red), on the replay
    page and in the home list."""
    lost = store_log(client, json.dumps(lost_coop_log()).encode())
    won = store_log(client, example_bytes("coop"))
    page = client.get(f"/r/{lost['slug']}").get_data(as_text=True)
    assert '<span class="badge bad" id="outcome-badge">lost</span>' in page
    won_page = client.get(f"/r/{won['slug']}").get_data(as_text=True)
    assert '<span class="badge good" id="outcome-badge">won</span>' in won_page
    home = client.get("/").get_data(as_text=True)
    assert '<span class="badge bad">lost</span>' in home
    assert '<span class="badge good">won</span>' in home
    response = client.get("/assets/style.css")
    css = response.get_data(as_text=True)
    response.close()
    complete = re.search(r"\.status-complete \{([^}]*)\}", css).group(1)
    assert "--good" not in complete


def test_the_home_list_shows_when_a_game_was_played_as_its_replay_does(client: Any) -> None:
    """One convention: "Played" is the local time the log records, with its offset, on both
    pages (not 18:00 UTC on one and 19:00 (UTC+01:00) on the other)."""
    log = json.loads(example_bytes("battle"))
    log["meta"]["played_at"] = "2026-11-27T19:00:00+01:00"
    stored = store_log(client, json.dumps(log).encode())
    home = client.get("/").get_data(as_text=True)
    page = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
    assert "27 Nov 2026, 19:00 (UTC+01:00)" in home
    assert "played 27 Nov 2026, 19:00 (UTC+01:00)" in page
    assert "18:00" not in home
    # in French, Babel's words, still in the time zone the game was recorded in
    home = client.get("/?lang=fr").get_data(as_text=True)
    page = client.get(f"/r/{stored['slug']}?lang=fr").get_data(as_text=True)
    assert "27 nov. 2026, 19:00 (UTC+01:00)" in home
    assert "jouée le 27 nov. 2026, 19:00 (UTC+01:00)" in page
    assert "18:00" not in home


# --- the pages' ES modules ----------------------------------------------------------------------

IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _page_modules() -> dict[str, Path]:
    """Every page module by its address: the shared ones and each kit's."""
    modules = {f"/assets/{p.name}": p for p in (HERE / "static").glob("*.js")}
    for kit in KITS.values():
        for name in (kit.script, kit.record_script):
            if name:
                modules[f"/assets/games/{name}"] = kit.static_folder / name
    return modules


def test_every_module_import_names_a_served_module() -> None:
    """A module's static imports are relative addresses of other page modules (no bundler: the
    browser resolves them against the module's own address)."""
    modules = _page_modules()
    broken = []
    for address, path in modules.items():
        for match in IMPORT.finditer(COMMENT.sub("", path.read_text("utf-8"))):
            spec = match.group(1) or match.group(2)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(address), spec))
            if not spec.startswith(".") or target not in modules:
                broken.append(f"{address}: {spec}")
    assert not broken, broken
    assert len(modules) > 30


@pytest.mark.parametrize("path", ["/", "/examples/battle", "/record", "/t/nothing"])
def test_pages_run_modules_only_and_serve_them_as_javascript(client: Any, path: str) -> None:
    response = client.get(path)
    html = response.get_data(as_text=True)
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    scripts = Scripts()
    scripts.feed(html)
    sources = []
    for attrs, text in scripts.scripts:
        if attrs.get("type") == "application/json":
            continue
        assert attrs.get("type") == "module" and attrs.get("src") and not text.strip(), attrs
        sources.append(attrs["src"])
    sources += re.findall(r'<link rel="modulepreload" href="([^"]+)"', html)
    assert sources and "window.PopReplay" not in html
    for source in sources:
        served = client.get(source)
        served.close()
        assert served.status_code == 200 and served.mimetype == "text/javascript", source

"""GET /record as HTML (Flask test client): the security headers, no inline script, every game's
renderer and entry panel loaded, the page data (games, modes, player counts, known names); the
links to it from the home page and to what-if branches from a stored game's replay."""

from __future__ import annotations

import json

from tests.conftest import as_bytes, simulated
from tests.web.test_pages import Scripts


def page_data(html: str) -> dict:
    parser = Scripts()
    parser.feed(html)
    blocks = [text for attrs, text in parser.scripts if attrs.get("type") == "application/json"]
    assert len(blocks) == 1
    for attrs, text in parser.scripts:
        if attrs.get("type") != "application/json":
            assert attrs.get("src") and not text.strip()  # no inline script (the CSP forbids it)
    return json.loads(blocks[0])


def test_the_recorder_page_loads_every_games_panel_and_knows_the_stored_names(client):
    client.post("/api/v1/games", data=as_bytes(simulated()), content_type="application/json")
    response = client.get("/record")
    assert response.status_code == 200
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    html = response.get_data(as_text=True)
    data = page_data(html)
    pop = next(g for g in data["games"] if g["name"] == "pop")
    assert pop["modes"] == ["battle", "coop", "solo", "puzzle"]
    assert pop["players"]["battle"] == [2, 5] and pop["players"]["solo"] == [1, 1]
    assert pop["mode_words"]["battle"] == "battle"
    # each game's renderer and entry panel: modules its kit names, preloaded, imported by the page
    for game in data["games"]:
        for part, file in (("renderer", f"{game['name']}.js"), ("panel", f"{game['name']}.record.js")):
            link = (f'<link rel="modulepreload" href="/assets/games/{file}" data-game="{game["name"]}"'
                    f' data-part="{part}">')
            assert link in html
            response = client.get(f"/assets/games/{file}")
            response.close()
            assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert '<script type="module" src="/assets/record.js">' in html and "/assets/record.css" in html
    assert set(data["known_players"]) >= {"Alice", "Bruno", "Chloé"}
    # the end screen asks what each mode's score sheet holds (Game.claimable), every field and
    # every choice with its words from the catalogue
    fields = {mode: [(f["key"], f["kind"]) for f in form] for mode, form in pop["claims"].items()}
    assert fields["battle"] == [("rounds", "rounds"), ("totals", "per-player"),
                                ("winners", "players")]
    assert fields["puzzle"] == [("solved", "yes-no")]
    coop = dict((f["key"], f) for f in pop["claims"]["coop"])
    assert coop["result"]["label"] == "Did you win?"
    assert [(c["value"], c["label"]) for c in coop["result"]["choices"]] == [
        ("won", "Yes, we won"), ("lost", "No, we lost")]
    slap = next(g for g in data["games"] if g["name"] == "slap")
    ended = next(f for f in slap["claims"]["elimination"] if f["key"] == "ended_by")
    assert [c["value"] for c in ended["choices"]] == ["elimination", "time", "no-cards"]
    assert all(c["label"] != c["value"] for c in ended["choices"])  # words, not codes


def test_the_home_page_links_the_recorder_and_a_stored_replay_loads_the_what_if_links(client):
    assert 'href="/record"' in client.get("/").get_data(as_text=True)
    stored = client.post("/api/v1/games", data=as_bytes(simulated()),
                         content_type="application/json").get_json()
    html = client.get(f"/r/{stored['slug']}").get_data(as_text=True)
    assert "/assets/whatif.js" in html
    example = client.get("/examples/battle").get_data(as_text=True)
    assert "/assets/whatif.js" not in example  # an example is not stored: no branch from it

"""A score sheet is a game like the others everywhere it shows — its status says "score sheet —
not checked move by move" — and survives the paths every stored game goes through: its replay,
its page, revalidation, the export read back by import."""

from __future__ import annotations

import json

from popreplay.checking import check_json
from popreplay.db.session import get_session
from popreplay.groups import access, sheets
from popreplay.api.work import engine_check

SHEET = sheets.sheet_document(
    game="pop", mode="battle", players=["Ana", "Bruno"],
    claimed={"rounds": [{"scores": {"Ana": 5, "Bruno": 9}}], "winners": ["Ana"]})


def stored(app) -> str:
    with app.test_request_context():
        session = get_session()
        group = access.create_group(session, name="Sheets", private=False).group
        joined = sheets.record_sheet(session, group, SHEET, checker=engine_check)
        return _slug(session, joined.link.game_id)


def _slug(session, game_id):
    from popreplay.db.models import GameRecord

    return session.get(GameRecord, game_id).slug


def test_its_status_shows_on_the_replay_page_the_list_and_the_api(app, client):
    slug = stored(app)
    page = client.get(f"/r/{slug}")
    assert page.status_code == 200
    assert client.get(f"/r/{slug}?lang=fr").status_code == 200
    home = client.get("/?lang=en").get_data(as_text=True)
    assert "score sheet — not checked move by move" in home
    french = client.get("/?lang=fr").get_data(as_text=True)
    assert "feuille de score — non vérifiée coup par coup" in french
    assert client.get("/api/v1/games?status=sheet").get_json()["items"][0]["slug"] == slug
    replay = client.get(f"/api/v1/games/{slug}/replay").get_json()
    assert replay["status"] == "sheet" and replay["steps"] == []


def test_revalidation_and_an_export_read_back_keep_it(app, client, runner, tmp_path):
    slug = stored(app)
    assert runner.invoke(["revalidate"]).exit_code == 0
    assert client.get(f"/api/v1/games/{slug}").get_json()["status"] == "sheet"
    lines = client.get("/api/v1/games/export").get_data(as_text=True)
    entry = json.loads(lines.splitlines()[0])
    assert check_json(entry["log"])["status"] == "sheet"  # the log as an object (issue 33)


def test_a_sheet_of_each_game_gives_standings():
    from popreplay.engine import GAMES

    sheets_of = {
        ("pop", "battle"): {"rounds": [{"scores": {"A": 3, "B": 5}}], "winners": ["A"]},
        ("pop", "coop"): {"result": "won"},
        ("pop", "puzzle"): {"solved": True},
        ("cube", "standard"): {"winners": ["B"], "completed": {"A": 1, "B": 3}},
        ("slap", "timed"): {"winners": ["A"], "cards": {"A": 60, "B": 42}},
        ("bloops", "classic"): {"scores": {"A": 12, "B": 20}, "stars": {"A": 1, "B": 0},
                                "winners": ["B"]},
    }
    for (game, mode), claimed in sheets_of.items():
        players = ["A"] if mode == "puzzle" else ["A", "B"]
        result = check_json({"format": "popreplay-sheet/1", "game": game, "mode": mode,
                             "players": players, "claimed": claimed})
        assert result["status"] == "sheet", (game, mode, result["errors"])
        standings = GAMES[game].standings(result["outcome"], players)
        assert set(standings) == set(players)
        assert all(s["won"] in (True, False) for s in standings.values()), (game, mode)
    missing = check_json({"format": "popreplay-sheet/1", "game": "cube", "mode": "standard",
                          "players": ["A", "B"], "claimed": {"winners": ["A"]}})
    assert [e["path"] for e in missing["errors"]] == ["/claimed/completed"]

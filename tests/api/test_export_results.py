"""The exports carry results: an NDJSON export alone answers "wins per player per game" over
mixed games (no engine, no second request), and the CSV's cells have explicit types."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from datetime import datetime
from pathlib import Path

from tests.conftest import as_bytes, simulated

API = "/api/v1/games"
KITS = Path(__file__).resolve().parents[2] / "popreplay" / "games"


def store_mixed(client) -> list[dict]:
    logs = [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(KITS.glob("*/examples/*.json"))]
    logs += [simulated("battle", 3, seed=s) for s in (31, 32, 33)]
    stored = []
    for log in logs:
        response = client.post(API, data=as_bytes(log), content_type="application/json")
        assert response.status_code == 201, response.get_json()
        stored.append(response.get_json())
    return stored


def test_an_ndjson_export_alone_counts_wins_per_player_per_game(client):
    stored = store_mixed(client)
    lines = [json.loads(line) for line in client.get(f"{API}/export").data.splitlines()]
    assert {line["game"] for line in lines} == {"pop", "cube", "slap", "bloops"}

    wins: Counter[tuple[str, str]] = Counter()  # what a data engineer writes over the file
    for line in lines:
        for player in line["result"]["players"]:
            wins[line["game"], player["name"]] += player["won"] is True
        assert line["result"]["winners"] == [p["name"] for p in line["result"]["players"]
                                             if p["won"]]
        assert line["log"]["players"] == line["players"]  # the log as an object, parsed once
        assert json.loads(line["raw_log"]) == line["log"]

    # the same counts from the service's own statistics (complete games)
    for (game, name), count in wins.items():
        stats = client.get(f"/api/v1/players/{name}").get_json()["stats"]
        assert sum(s["wins"] for s in stats if s["game"] == game) == count, (game, name)
    assert sum(wins.values()) >= len(stored) - 2  # puzzles and co-op games may have no winner

    by_slug = {line["slug"]: line for line in lines}
    for game in stored:
        result = by_slug[game["slug"]]["result"]
        assert result["status"] == game["status"] and result["engine"] == game["result"]["engine"]
        assert result["outcome"] == game["result"]["outcome"]
        assert result["claims_differ"] in (True, False, None)
        ranks = [p["rank"] for p in result["players"] if p["score"] is not None]
        assert all(isinstance(r, int) and r >= 1 for r in ranks)


def test_the_csv_cells_have_explicit_types(client):
    store_mixed(client)
    response = client.get(f"{API}/export.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8; header=present"
    rows = list(csv.DictReader(io.StringIO(response.data.decode("utf-8"))))
    assert rows
    for row in rows:
        for column in ("won", "legal", "claims_differ"):
            assert row[column] in ("true", "false", ""), (column, row)
        assert row["legal"] in ("true", "false")
        assert row["score"] == "" or row["score"].lstrip("-").isdigit()
        assert row["rank"] == "" or int(row["rank"]) >= 1
        if row["date"]:
            assert datetime.fromisoformat(row["date"]).utcoffset() is not None

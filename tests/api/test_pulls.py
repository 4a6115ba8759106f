"""Incremental pulls (``since``/``until``, ``updated_since``, ``with_deleted``, the list's polling
cursor) and the results table (``/games/export.csv``): a mirror kept in step by ``popreplay
import`` equals its source; the CSV matches the NDJSON export row for row."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from popreplay.cli import main
from popreplay.db.models import GameRecord
from popreplay.db.session import make_engine
from popreplay.engine import get_game
from tests.conftest import as_bytes, simulated
from tests.databases import upgraded

API = "/api/v1/games"


def store(client, log):
    response = client.post(API, data=as_bytes(log), content_type="application/json")
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def pull(client, **query):
    response = client.get(f"{API}/export", query_string=query)
    assert response.status_code == 200, response.get_json()
    return [json.loads(line) for line in response.data.decode().splitlines()]


def watermark(entries):
    """Where the next pull starts: the newest change seen (bounds are inclusive, and applying a
    line twice changes nothing)."""
    return max(e.get("updated_at") or e["deleted_at"] for e in entries)


class Mirror:
    """Another database kept in step with ``popreplay import``."""

    def __init__(self, tmp_path):
        self.url = f"sqlite:///{tmp_path / 'mirror.sqlite'}"
        self.folder = tmp_path
        upgraded(self.url)
        self.cli = CliRunner(env={"POPREPLAY_DATABASE_URL": self.url})

    def apply(self, entries, name):
        path = self.folder / f"{name}.ndjson"
        path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries),
                        "utf-8")
        result = self.cli.invoke(main, ["import", str(path)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.stdout.strip()

    def export(self, *args):
        result = self.cli.invoke(main, ["export", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_mirror_pulled_with_since_updated_since_and_with_deleted_equals_its_source(
        app, client, runner, db_url, tmp_path):
    from popreplay.store.edits import update_log
    from popreplay.store.lookups import find_by_slug
    from popreplay.db.session import get_session

    made = [store(client, simulated("battle", 3, seed=seed)) for seed in (31, 32, 33)]
    mirror = Mirror(tmp_path)
    first = pull(client, with_deleted="true")
    assert [e["slug"] for e in first] == [g["slug"] for g in made]
    assert mirror.apply(first, "first") == (
        "stored 3, illegal 0 (stored too), duplicate 0, invalid 0")
    since = watermark(first)

    # At the source: a new game, a deletion, a re-check that changes a result, a correction.
    new = store(client, simulated("coop", 3, seed=34))
    gone, checked, corrected = made
    deleted = client.delete(f"{API}/{gone['slug']}",
                            headers={"Authorization": f"Bearer {gone['owner_token']}"})
    assert deleted.status_code == 204
    engine = make_engine(db_url, pooled=False)
    with engine.begin() as connection:
        connection.execute(GameRecord.__table__.update().where(GameRecord.id == checked["id"])
                           .values(status="incomplete"))
    engine.dispose()
    assert runner.invoke(["revalidate"]).exit_code == 0
    fixed = simulated("battle", 3, seed=33, meta={"title": "corrigée"})
    with app.app_context():
        session = get_session()
        record = find_by_slug(session, corrected["slug"])
        update_log(session, record, raw=as_bytes(fixed))

    # What changed since the first pull, deletions first.
    changes = pull(client, updated_since=since, with_deleted="true")
    assert [(e["slug"], e.get("deleted", False)) for e in changes] == [
        (gone["slug"], True), (checked["slug"], False), (corrected["slug"], False),
        (new["slug"], False)]
    assert changes[2]["title"] == "corrigée" and changes[1]["status"] == "complete"
    # by stored time (inclusive: the first pull's last game is stored at the watermark)
    assert [e["slug"] for e in pull(client, since=since, with_deleted="true")
            if not e.get("deleted")] == [corrected["slug"], new["slug"]]
    assert [e["slug"] for e in pull(client, until=since)] == [checked["slug"]]
    assert pull(client, updated_since=since) == changes[1:]  # no tombstone unless asked

    summary = mirror.apply(changes, "changes")
    assert summary == ("stored 1, illegal 0 (stored too), duplicate 1, invalid 0, "
                       "updated 1, deleted 1")
    assert mirror.export() == pull(client)  # the same games, every field (numbers are given in the same order here)
    assert mirror.apply(changes, "again") == (  # applying the same stream twice changes nothing
        "stored 0, illegal 0 (stored too), duplicate 4, invalid 0")
    assert mirror.export() == pull(client)
    # the mirror's own tombstone, for a mirror of the mirror
    assert [e["slug"] for e in mirror.export("--with-deleted") if e.get("deleted")] == [
        gone["slug"]]


def test_the_stored_order_lists_pages_and_its_last_page_still_carries_a_cursor(client):
    made = [store(client, simulated("battle", 2, seed=seed))["id"] for seed in (41, 42, 43)]
    first = client.get(API, query_string={"sort": "stored", "limit": 2}).get_json()
    assert [g["id"] for g in first["items"]] == made[:2] and first["has_more"] is True
    last = client.get(API, query_string={"sort": "stored", "limit": 2,
                                         "cursor": first["next_cursor"]}).get_json()
    assert [g["id"] for g in last["items"]] == made[2:] and last["has_more"] is False
    assert last["next_cursor"] is not None
    empty = client.get(API, query_string={"sort": "stored", "cursor": last["next_cursor"]})
    assert empty.get_json() == {"items": [], "next_cursor": last["next_cursor"],
                                "has_more": False}
    later = store(client, simulated("battle", 2, seed=44))
    polled = client.get(API, query_string={"sort": "stored", "cursor": last["next_cursor"]})
    assert [g["id"] for g in polled.get_json()["items"]] == [later["id"]]
    newest = client.get(API, query_string={"limit": 2}).get_json()  # other orders: unchanged
    end = client.get(API, query_string={"limit": 2, "cursor": newest["next_cursor"]}).get_json()
    assert end["next_cursor"] is None and end["has_more"] is False


def test_since_and_until_are_checked_like_the_other_dates(client):
    for query in ({"since": "yesterday"}, {"updated_since": "2026-13-01"}):
        response = client.get(f"{API}/export", query_string=query)
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["path"] == "/" + next(iter(query))


def test_the_csv_matches_the_ndjson_export_row_for_row(client):
    tricky = simulated("battle", 3, seed=51, meta={"title": 'Soirée "chez Cléo", 2\nmanches',
                                                   "played_at": "2026-03-01T20:00:00+01:00"})
    renamed = json.dumps(tricky, ensure_ascii=False).replace('"Alice"', '"Cléo"').replace(
        '"Chloé"', '"=HYPERLINK(1)"')
    for game in (json.loads(renamed), simulated("coop", 3, seed=52),
                 simulated("battle", 2, seed=53)):
        body = store(client, game)
        assert body["status"] == "complete", body
    response = client.get(f"{API}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    text = response.data.decode("utf-8")
    assert "\r\n" in text and text.endswith("\r\n")
    header, *rows = list(csv.reader(io.StringIO(text, newline="")))
    assert header == ["game", "mode", "date", "title", "player", "score", "rank", "won", "status",
                      "legal", "claims_differ", "share_link", "slug"]
    expected = []
    for entry in pull(client):
        game = client.get(f"{API}/{entry['slug']}").get_json()
        standings = get_game("pop").standings(game["result"]["outcome"], entry["players"])
        scores = [standings[p]["score"] for p in entry["players"]]
        for player, score in zip(entry["players"], scores):
            rank = "" if score is None else str(1 + sum(s < score for s in scores))
            won = standings[player]["won"]
            expected.append([
                entry["game"], entry["mode"], entry["played_at"] or "", entry["title"] or "",
                ("'" + player) if player.startswith("=") else player,
                "" if score is None else str(score), rank,
                "" if won is None else str(won).lower(), entry["status"],
                str(entry["legal"]).lower(), str(not game["claims_match"]).lower(),
                game["share_url"], entry["slug"]])
    assert rows == expected
    assert rows[0][3] == 'Soirée "chez Cléo", 2\nmanches'
    assert {r[4] for r in rows[:3]} == {"Cléo", "'=HYPERLINK(1)", "Bruno"}
    assert {row[6] for row in rows[:3]} <= {"1", "2", "3"} and "1" in {r[6] for r in rows[:3]}
    assert rows[3][1] == "coop" and rows[3][5] == "" and rows[3][7] in ("true", "false")
    only = client.get(f"{API}/export.csv", query_string={"mode": "coop"}).data.decode()
    assert len(list(csv.reader(io.StringIO(only, newline="")))) == 1 + 3


def test_popreplay_export_csv_is_the_same_table(client, runner):
    store(client, simulated("battle", 3, seed=61))
    result = runner.invoke(["export", "--csv"])
    assert result.exit_code == 0
    http = client.get(f"{API}/export.csv", base_url="http://127.0.0.1:8000").data
    assert result.stdout_bytes == http

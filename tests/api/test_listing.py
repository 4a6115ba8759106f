"""GET /api/v1/games filters and cursor pagination, and the NDJSON export."""

from __future__ import annotations

import json

import pytest

from tests.conftest import as_bytes, simulated
from tests.databases import upgraded

API = "/api/v1/games"


def store(client, log, **query):
    response = client.post(API, data=as_bytes(log), content_type="application/json",
                           query_string=query)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def ids(client, **query):
    response = client.get(API, query_string=query)
    assert response.status_code == 200, response.get_json()
    return [g["id"] for g in response.get_json()["items"]]


@pytest.fixture
def games(client):
    """Six games: modes, players, statuses, claims and dates differ."""
    made = {}
    made["battle1"] = store(client, simulated("battle", 3, seed=21,
                                              meta={"played_at": "2026-01-10T20:00:00Z"}))
    wrong = simulated("battle", 3, seed=22, meta={"played_at": "2026-02-10T20:00:00Z"})
    wrong["claimed"] = {"totals": {"Alice": 999}}
    made["claims_differ"] = store(client, wrong)
    made["coop"] = store(client, simulated("coop", 4, seed=23,
                                           meta={"played_at": "2026-03-10"}))
    partial = simulated("battle", 2, seed=24)
    partial["rounds"] = partial["rounds"][:1]
    partial.pop("claimed")
    made["incomplete"] = store(client, partial)
    illegal = simulated("battle", 3, seed=25, meta={"played_at": "2026-01-01T00:00:00Z"})
    illegal["rounds"][0]["turns"][0]["chief"] = [0]
    made["illegal"] = store(client, illegal)
    made["solo"] = store(client, simulated("solo", 1, seed=26,
                                           meta={"played_at": "2026-01-10T20:00:00Z"}))
    return {name: game["id"] for name, game in made.items()}


def test_default_order_is_newest_first(client, games):
    assert ids(client) == sorted(games.values(), reverse=True)


def test_filters(client, games):
    assert sorted(ids(client, mode="coop")) == [games["coop"]]
    assert sorted(ids(client, game="pop", mode="solo")) == [games["solo"]]
    assert ids(client, game="cube") == []
    assert ids(client, status="illegal") == [games["illegal"]]
    assert ids(client, status="incomplete") == [games["incomplete"]]
    assert ids(client, legal="false") == [games["illegal"]]
    assert ids(client, claims_differ="true") == [games["claims_differ"]]
    assert games["claims_differ"] not in ids(client, claims_differ="false")
    assert len(ids(client, claims_differ="false")) == 5
    assert sorted(ids(client, player="Bruno")) == sorted(
        [games["battle1"], games["claims_differ"], games["coop"], games["incomplete"],
         games["illegal"]])
    assert ids(client, player="Bruno", mode="battle", status="complete") == sorted(
        [games["battle1"], games["claims_differ"]], reverse=True)


def test_played_at_range(client, games):
    january = ids(client, played_after="2026-01-01T00:00:00Z", played_before="2026-02-01")
    assert sorted(january) == sorted([games["battle1"], games["illegal"], games["solo"]])
    # the bound is inclusive below, exclusive above; offsets are honoured
    assert ids(client, played_after="2026-01-10T21:00:00+01:00",
               played_before="2026-01-10T20:00:01Z") == sorted(
        [games["battle1"], games["solo"]], reverse=True)
    assert ids(client, played_after="2026-03-10T00:00:00Z") == [games["coop"]]


def walk(client, **query):
    seen, cursor = [], None
    for _ in range(20):
        params = dict(query, limit=2)
        if cursor:
            params["cursor"] = cursor
        body = client.get(API, query_string=params).get_json()
        assert len(body["items"]) <= 2
        seen += [g["id"] for g in body["items"]]
        cursor = body["next_cursor"]
        if cursor is None:
            return seen
    raise AssertionError("pagination did not end")


def test_cursor_pagination_by_created(client, games):
    everything = sorted(games.values())
    assert walk(client, sort="created") == everything
    assert walk(client, sort="-created") == everything[::-1]


def test_cursor_pagination_by_played_at_puts_undated_games_last(client, games):
    dated = [games["illegal"], games["battle1"], games["solo"], games["claims_differ"],
             games["coop"]]
    assert walk(client, sort="played_at") == dated + [games["incomplete"]]
    newest = [games["coop"], games["claims_differ"], games["solo"], games["battle1"],
              games["illegal"]]
    assert walk(client, sort="-played_at") == newest + [games["incomplete"]]


def test_cursor_with_filters(client, games):
    assert walk(client, sort="played_at", player="Alice", legal="true") == [
        games["battle1"], games["claims_differ"], games["coop"], games["incomplete"]]
    assert walk(client, sort="-played_at", player="Solo") == [games["solo"]]


@pytest.mark.parametrize("query", [
    {"cursor": "not-a-cursor"},
    {"limit": "0"},
    {"limit": "101"},
    {"sort": "name"},
    {"status": "invalid"},
    {"legal": "perhaps"},
    {"played_after": "yesterday"},
    {"plyer": "Alice"},
])
def test_bad_parameters_are_422_in_the_error_shape(client, games, query):
    response = client.get(API, query_string=query)
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == 422 and body["status"] == "Unprocessable Entity"
    assert body["errors"] and body["errors"][0]["path"] == "/" + next(iter(query))


def test_a_cursor_from_another_sort_is_refused(client, games):
    cursor = client.get(API, query_string={"sort": "created", "limit": 1}).get_json()["next_cursor"]
    response = client.get(API, query_string={"sort": "played_at", "cursor": cursor})
    assert response.status_code == 422


def test_export_streams_ndjson_with_the_same_filters(client, games):
    response = client.get(f"{API}/export", query_string={"mode": "battle"})
    assert response.status_code == 200
    assert response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.data.decode().splitlines()]
    assert [line["id"] for line in lines] == sorted(
        [games["battle1"], games["claims_differ"], games["incomplete"], games["illegal"]])
    first = lines[0]
    raw = client.get(f"{API}/{first['slug']}/log").data
    assert first["raw_log"].encode("utf-8") == raw
    assert first["log"] == json.loads(raw)
    assert "owner_token_hash" not in first


def test_http_export_imported_into_an_empty_database_gives_the_same_games(client, runner,
                                                                            db_url, games,
                                                                            tmp_path):
    from popreplay.db import migrate

    before = client.get(f"{API}/export").data
    assert len(before.splitlines()) == 6
    migrate.downgrade(db_url, "base")
    upgraded(db_url)
    assert client.get(f"{API}/export").data == b""
    (tmp_path / "games.ndjson").write_bytes(before)
    result = runner.invoke(["import", str(tmp_path / "games.ndjson")])
    assert result.exit_code == 0, result.output
    assert client.get(f"{API}/export").data == before
    for line in before.splitlines():
        entry = json.loads(line)
        game = client.get(f"{API}/{entry['slug']}").get_json()
        assert game["result"]["status"] == entry["status"]
        assert client.get(f"{API}/{entry['slug']}/log").data == entry["raw_log"].encode()

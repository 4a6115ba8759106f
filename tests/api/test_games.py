"""POST/GET/DELETE /api/v1/games through the Flask test client (SQLite and PostgreSQL)."""

from __future__ import annotations

import gzip
import hashlib
import json
import unicodedata

from popreplay.checking import check_text
from popreplay.replayformat import in_format
from tests.conftest import as_bytes, gzip_negotiated, simulated

API = "/api/v1/games"


def post(client, raw: bytes, **query):
    return client.post(API, data=raw, content_type="application/json", query_string=query)


def assert_error_shape(body, code):
    assert set(body) >= {"code", "status", "message", "errors"}
    assert body["code"] == code
    assert isinstance(body["status"], str) and body["status"]
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["errors"], list)


def test_post_stores_a_legal_log_and_shows_the_token_once(client, make_log):
    raw = make_log("battle", 3, seed=1)
    response = post(client, raw)
    assert response.status_code == 201
    body = response.get_json()
    assert body["share_url"] == f"http://localhost/r/{body['slug']}"
    assert response.headers["Location"] == f"http://localhost/api/v1/games/{body['slug']}"
    assert len(body["owner_token"]) >= 40
    assert len(body["slug"]) == 12
    assert body["result"] == check_text(raw)
    assert body["status"] == "complete" and body["legal"] is True
    assert body["players"] == ["Alice", "Bruno", "Chloé"]
    assert body["visibility"] == "public"
    again = client.get(f"{API}/{body['id']}").get_json()
    assert "owner_token" not in again
    assert again["result"] == body["result"]


def test_the_same_log_twice_is_one_game(client, make_log):
    raw = make_log("coop", 4, seed=3)
    first = post(client, raw)
    second = post(client, raw, visibility="unlisted")
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.get_json()["id"] == first.get_json()["id"]
    assert "owner_token" not in second.get_json()
    assert second.get_json()["visibility"] == "public"  # the first upload decides
    assert len(client.get(API).get_json()["items"]) == 1


def test_an_invalid_log_lists_every_shape_error_and_stores_nothing(client, make_log):
    log = simulated("battle", 3, seed=2)
    log["mode"] = "melee"
    log["rounds"][0]["layout"][0] = [1, 2, 3]
    log["colour"] = "red"
    raw = as_bytes(log)
    response = post(client, raw)
    assert response.status_code == 422
    body = response.get_json()
    assert_error_shape(body, 422)
    spec_keys = ("code", "message", "round", "turn", "path")  # + message_id, params (the API's)
    assert [{k: e[k] for k in spec_keys} for e in body["errors"]] == check_text(raw)["errors"]
    paths = {e["path"] for e in body["errors"]}
    assert {"/mode", "/rounds/0/layout/0", "/colour"} <= paths
    assert client.get(API).get_json()["items"] == []


def test_not_json_is_422_with_code_json(client):
    for raw in (b"", b"{", b"\xff\xfe", b"[1, 2]"):
        response = post(client, raw)
        assert response.status_code == 422, raw
        body = response.get_json()
        assert_error_shape(body, 422)
        assert body["errors"][0]["code"] in ("json", "schema")
        assert body["errors"][0]["path"] == ""


def test_an_illegal_log_is_stored_with_its_first_violation(client):
    log = simulated("battle", 3, seed=4)
    log["rounds"][0]["turns"][0]["plays"]["Alice"] = [99]
    raw = as_bytes(log)
    response = post(client, raw)
    assert response.status_code == 201
    body = response.get_json()
    assert body["status"] == "illegal" and body["legal"] is False
    assert body["result"]["outcome"] is None
    assert len(body["result"]["errors"]) == 1
    spec_keys = ("code", "message", "round", "turn", "path")  # + message_id, params (the API's)
    assert [{k: e[k] for k in spec_keys} for e in body["result"]["errors"]] == \
        check_text(raw)["errors"]
    assert body["result"]["errors"][0]["message_id"] == "pop.unknown-card"
    listed = client.get(API, query_string={"legal": "false"}).get_json()["items"]
    assert [g["id"] for g in listed] == [body["id"]]


def test_the_log_comes_back_byte_for_byte(client):
    log = json.dumps(simulated("solo", 1, seed=5), indent=3, ensure_ascii=True)
    raw = b"\xef\xbb\xbf" + log.replace("\n", "\r\n").encode() + b"\n\n  "
    created = post(client, raw).get_json()
    assert created["status"] in ("complete", "incomplete")
    response = client.get(f"{API}/{created['slug']}/log")
    assert response.status_code == 200
    assert response.data == raw
    assert response.mimetype == "application/json"
    assert created["sha256"] == hashlib.sha256(raw).hexdigest()
    assert response.headers["ETag"] == f'"{created["sha256"]}"'
    cached = client.get(f"{API}/{created['slug']}/log",
                        headers={"If-None-Match": response.headers["ETag"]})
    assert cached.status_code == 304


def test_the_replay_has_steps_and_an_etag(client, make_log):
    raw = make_log("puzzle", 1, seed=6)
    slug = post(client, raw).get_json()["slug"]
    response = client.get(f"{API}/{slug}/replay")
    assert response.status_code == 200
    body = response.get_json()
    assert body == json.loads(json.dumps(in_format(dict(check_text(raw, with_steps=True)), 2)))
    assert len(body["steps"]) > 3
    etag = response.headers["ETag"]
    cached = client.get(f"{API}/{slug}/replay", headers={"If-None-Match": etag})
    assert cached.status_code == 304
    assert cached.data == b""
    other = client.get(f"{API}/{slug}/replay", headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200


def test_unlisted_games_are_reachable_by_their_link_only(client, make_log):
    public = post(client, make_log("battle", 3, seed=7)).get_json()
    hidden = post(client, make_log("battle", 3, seed=8), visibility="unlisted").get_json()
    assert hidden["visibility"] == "unlisted"
    assert client.get(f"{API}/{hidden['slug']}").status_code == 200
    assert client.get(f"{API}/{hidden['slug']}/replay").status_code == 200
    assert client.get(f"{API}/{hidden['id']}").status_code == 404  # not by its number
    assert client.get(f"{API}/{public['id']}").status_code == 200
    assert [g["id"] for g in client.get(API).get_json()["items"]] == [public["id"]]
    exported = client.get(f"{API}/export").data.decode().splitlines()
    assert [json.loads(line)["slug"] for line in exported] == [public["slug"]]
    stats = client.get("/api/v1/players/Alice").get_json()["stats"]
    assert stats[0]["games"] == 1


def test_bad_visibility_is_422(client, make_log):
    response = post(client, make_log(), visibility="secret")
    assert response.status_code == 422
    body = response.get_json()
    assert_error_shape(body, 422)
    assert body["errors"][0]["path"] == "/visibility"


def test_delete_needs_the_owner_token(client, make_log):
    created = post(client, make_log("battle", 4, seed=9)).get_json()
    url = f"{API}/{created['id']}"
    missing = client.delete(url)
    assert missing.status_code == 401
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    assert_error_shape(missing.get_json(), 401)
    wrong = client.delete(url, headers={"Authorization": "Bearer " + "x" * 43})
    assert wrong.status_code == 403
    assert_error_shape(wrong.get_json(), 403)
    assert client.get(url).status_code == 200
    done = client.delete(url, headers={"Authorization": f"Bearer {created['owner_token']}"})
    assert done.status_code == 204
    assert client.get(url).status_code == 404
    assert client.get(f"{API}/{created['slug']}/log").status_code == 404
    assert client.get("/api/v1/players/Alice").status_code == 404


def test_the_owner_token_is_stored_hashed(app, client, make_log):
    from popreplay.db.models import GameRecord
    from popreplay.db.session import get_database

    created = post(client, make_log("battle", 2, seed=10)).get_json()
    with get_database(app).session() as session:
        record = session.get(GameRecord, created["id"])
        assert record.owner_token_hash != created["owner_token"]
        assert created["owner_token"] not in record.owner_token_hash
        assert len(record.owner_token_hash) == 64


def test_an_unlisted_game_is_deleted_by_its_slug(client, make_log):
    created = post(client, make_log("coop", 3, seed=11), visibility="unlisted").get_json()
    auth = {"Authorization": f"Bearer {created['owner_token']}"}
    assert client.delete(f"{API}/{created['id']}", headers=auth).status_code == 404
    assert client.delete(f"{API}/{created['slug']}", headers=auth).status_code == 204


def test_played_at_and_title_come_from_meta(client):
    log = simulated("battle", 3, seed=12)
    log["meta"] = {"title": "Friday night", "played_at": "2026-11-27T20:15:00+01:00"}
    body = post(client, as_bytes(log)).get_json()
    assert body["title"] == "Friday night"
    assert body["played_at"] == "2026-11-27T19:15:00+00:00"


def test_player_names_are_stored_nfc(client):
    decomposed = unicodedata.normalize("NFD", "Chloé")
    log = simulated("battle", 3, seed=13)
    raw = as_bytes(log).replace("Chloé".encode(), decomposed.encode())
    assert decomposed.encode() in raw
    created = post(client, raw).get_json()
    assert created["legal"] is True
    found = client.get(API, query_string={"player": "Chloé"}).get_json()["items"]
    assert [g["id"] for g in found] == [created["id"]]
    assert client.get(f"/api/v1/players/{decomposed}").status_code == 200


def test_a_replay_is_computed_once_and_kept_per_engine_version(client, app, make_log):
    from sqlalchemy import select

    from popreplay.store import replays
    from popreplay.db.models import StoredReplay
    from popreplay.db.session import get_session
    from popreplay.engine import ENGINE_VERSION

    replays._replay_gzip.clear()  # this process may have served the same log from another database
    created = client.post("/api/v1/games", data=make_log(seed=11),
                          content_type="application/json").get_json()
    first = client.get(f"/api/v1/games/{created['slug']}/replay")
    assert first.status_code == 200 and first.get_json()["steps"]
    with app.app_context():
        session = get_session()
        rows = session.execute(select(StoredReplay.game_id, StoredReplay.engine_version,
                                      StoredReplay.body)).all()
        assert [(r.game_id, r.engine_version) for r in rows] == [(created["id"], ENGINE_VERSION)]
        assert gzip.decompress(rows[0].body) == first.data  # stored compressed
        replays._replay_gzip.clear()  # a new process: the stored bytes are served as they are
    again = client.get(f"/api/v1/games/{created['slug']}/replay")
    assert again.data == first.data
    token = created["owner_token"]
    assert client.delete(f"/api/v1/games/{created['slug']}",
                         headers={"Authorization": f"Bearer {token}"}).status_code == 204
    with app.app_context():
        assert get_session().scalars(select(StoredReplay.game_id)).all() == []


def test_a_replay_goes_gzip_compressed_to_a_client_that_accepts_it(client, make_log):
    created = client.post("/api/v1/games", data=make_log(seed=12),
                          content_type="application/json").get_json()
    url = f"/api/v1/games/{created['slug']}/replay"
    plain, packed = gzip_negotiated(client, url, shrinks=5)
    assert plain.headers["ETag"] != packed.headers["ETag"]  # two representations, two tags
    assert client.get(url, headers={"Accept-Encoding": "gzip",
                                    "If-None-Match": packed.headers["ETag"]}).status_code == 304
    assert client.get(url, headers={"If-None-Match": packed.headers["ETag"]}).status_code == 200
    refused = client.get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers and refused.data == plain.data


def test_the_player_page_folds_names_as_the_list_filter_does(client):
    log = simulated("battle", 3, seed=61)
    assert "Chloé" in log["players"]
    created = post(client, json.dumps(log, ensure_ascii=False).encode()).get_json()
    listed = client.get("/api/v1/games", query_string={"player": "chloe"}).get_json()["items"]
    assert [g["slug"] for g in listed] == [created["slug"]]
    for asked in ("chloe", "CHLOÉ", " chloé ", "Ｃｈｌｏé", "Chl\u200boé"):
        found = client.get(f"/api/v1/players/{asked}")
        assert found.status_code == 200, asked
        assert found.get_json()["name"] == "Chloé"
        assert found.get_json()["stats"][0]["games"] == 1
    assert client.get("/api/v1/players/chloe?exact=true").status_code == 404
    assert client.get("/api/v1/players/Chloé?exact=true").status_code == 200
    assert client.get("/api/v1/players/chloe?other=1").status_code == 422

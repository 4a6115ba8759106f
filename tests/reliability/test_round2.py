"""Hardening round 2 (issue 15): one regression test per finding, on SQLite and PostgreSQL where
the finding depends on the database. The live-server findings (slow clients, two servers) are in
``test_slow_clients.py`` and ``test_two_servers.py``; docs/reliability.md lists them all."""

from __future__ import annotations

import io
import json
import unicodedata
from typing import Any

import pytest
import sqlalchemy as sa

from popreplay.store import ingestion
from popreplay.store.tokens import canonical_hash, content_hash
from popreplay.checking import check_json
from popreplay.db import migrate
from popreplay.db.models import GameRecord
from popreplay.db.session import get_database, make_engine
from popreplay.logformat import parse_json
from tests.conftest import as_bytes, migrated_app, simulated
from tests.databases import upgraded

MiB = 1024 * 1024


def post(client: Any, raw: bytes, **kwargs: Any) -> Any:
    return client.post("/api/v1/games", data=raw, content_type="application/json", **kwargs)


def count_games(app: Any) -> int:
    with get_database(app).session() as session:
        return session.scalar(sa.select(sa.func.count()).select_from(GameRecord))


# --- 1. lone surrogates --------------------------------------------------------------------------


def test_1_a_lone_surrogate_is_refused_with_its_pointer(app, client):
    text = json.dumps(simulated("battle", 3, seed=81), ensure_ascii=True)
    raw = text.replace('"Alice"', '"A\\ud800"', 1).encode()  # the first one: players/0
    response = post(client, raw)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["path"]) == ("json", "/players/0")
    assert "lone surrogate" in error["message"]
    assert count_games(app) == 0
    checked = client.post("/api/v1/validate", data=raw, content_type="application/json")
    assert checked.get_json()["errors"][0]["path"] == "/players/0"
    # a pair is one character, and fine
    paired = text.replace('"Alice"', '"A\\ud83d\\ude00"').encode()
    assert post(client, paired).status_code == 201


def test_1_every_page_renders_a_lone_surrogate_stored_before(tmp_path):
    """A game stored before the refusal (SQLite kept it; PostgreSQL's JSON refuses the escape):
    the home page, its share page and the API answer 200, with U+FFFD where it cannot be sent."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    for app in migrated_app(url):
        text = json.dumps(simulated("battle", 3, seed=83, meta={"title": "T\ud800"}),
                          ensure_ascii=True)
        raw = text.replace('"Alice"', '"A\\udc00"').encode()
        data = json.loads(raw)
        with app.app_context():
            session = get_database(app).session()
            record = ingestion._new_record(raw, digest=content_hash(raw), result=check_json(data),
                                           visibility="public", owner_token_hash=None,
                                           data=data, identity=canonical_hash(data))
            ingestion._commit_new(session, record)
            slug = record.slug
            session.close()
        client = app.test_client()
        home = client.get("/")
        assert home.status_code == 200
        assert "A\ufffd" in home.get_data(as_text=True)
        page = client.get(f"/r/{slug}")
        assert page.status_code == 200
        assert "A\ufffd" in page.get_data(as_text=True)
        for path in ("", "/log", "/replay"):
            assert client.get(f"/api/v1/games/{slug}{path}").status_code == 200


# --- 4. chunked bodies over the limit ------------------------------------------------------------


def chunked(client: Any, path: str, body: bytes) -> Any:
    """A body without Content-Length, ended by the server (as gunicorn does for chunked)."""
    return client.post(path, input_stream=io.BytesIO(body), content_type="application/json",
                       environ_overrides={"wsgi.input_terminated": True})


def test_4_a_chunked_body_over_the_limit_is_413_and_nothing_is_stored(app, client):
    log = simulated("battle", 3, seed=84)
    raw = as_bytes(log)
    created = chunked(client, "/api/v1/games", raw)
    assert created.status_code == 201
    assert client.get(f"/api/v1/games/{created.get_json()['slug']}/log").data == raw

    big = as_bytes(simulated("battle", 3, seed=85, meta={"note": "x" * MiB}))  # over the limit
    assert len(big) > MiB
    refused = chunked(client, "/api/v1/games", big)
    assert refused.status_code == 413
    assert refused.get_json()["code"] == 413
    assert count_games(app) == 1
    assert chunked(client, "/api/v1/validate", big).status_code == 413


def test_4_a_chunked_body_of_exactly_the_limit_is_read_whole(app, client):
    raw = as_bytes(simulated("battle", 3, seed=86))
    padded = raw[:-1] + b" " * (MiB - len(raw)) + b"}"
    assert len(padded) == MiB
    response = chunked(client, "/api/v1/games", padded)
    assert response.status_code == 201, response.get_json()
    assert client.get(f"/api/v1/games/{response.get_json()['slug']}/log").data == padded


# --- 6. the same game in other bytes -------------------------------------------------------------


def respellings(log: dict[str, Any]) -> list[bytes]:
    """The same game six ways: as sent, pretty, keys reversed, ASCII escapes, NFD, and a BOM."""
    def reverse(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: reverse(v) for k, v in reversed(list(value.items()))}
        if isinstance(value, list):
            return [reverse(v) for v in value]
        return value

    nfd = json.loads(json.dumps(log), object_hook=lambda d: {
        unicodedata.normalize("NFD", k): v for k, v in d.items()})
    nfd = json.loads(unicodedata.normalize("NFD", json.dumps(nfd, ensure_ascii=False)))
    return [
        json.dumps(log, ensure_ascii=False).encode(),
        json.dumps(log, ensure_ascii=False, indent=2).encode(),
        json.dumps(reverse(log), ensure_ascii=False).encode(),
        json.dumps(log, ensure_ascii=True).encode(),
        json.dumps(nfd, ensure_ascii=False).encode(),
        b"\xef\xbb\xbf" + json.dumps(log, separators=(",", ":")).encode(),
    ]


def test_6_the_same_game_in_other_bytes_is_the_game_already_stored(app, client):
    log = simulated("battle", 3, seed=87)
    log["players"] = ["Zoé", "Cléo", "Bob"]
    text = json.dumps(log, ensure_ascii=False)
    text = text.replace('"Alice"', '"Zoé"').replace('"Carol"', '"Cléo"')
    log = json.loads(text)
    variants = respellings(log)
    assert len(set(variants)) == 6
    first = post(client, variants[0])
    assert first.status_code == 201, first.get_json()
    game_id = first.get_json()["id"]
    for raw in variants[1:]:
        again = post(client, raw)
        assert again.status_code == 200, again.get_json()
        assert again.get_json()["id"] == game_id
        assert "owner_token" not in again.get_json()
    assert count_games(app) == 1
    assert client.get(f"/api/v1/games/{game_id}/log").data == variants[0]  # as first sent
    stats = client.get("/api/v1/players/Zoé").get_json()["stats"]
    assert stats[0]["games"] == 1
    # another game is another game
    assert post(client, as_bytes(simulated("battle", 3, seed=88))).status_code == 201


def test_6_canonical_hash_reads_numbers_as_the_parser_does():
    assert (canonical_hash(parse_json(b'{"a":3.0,"b":"\\u00e9"}'))
            == canonical_hash(parse_json('{"b":"e\u0301",  "a":3}'.encode())))
    assert (canonical_hash(parse_json(b'{"a":3.5}'))
            != canonical_hash(parse_json(b'{"a":3}')))


GAMES_0003 = sa.table(
    "games", *(sa.column(name) for name in (
        "slug", "content_hash", "log", "game", "mode", "players", "title", "played_at", "status",
        "legal", "claims_match", "errors", "outcome", "claims", "engine_version", "visibility",
        "owner_token_hash", "created_at")))


def insert_0003(connection: Any, raw: bytes, slug: str) -> int:
    """A game as revision 0003 stored it (before the canonical hash), with its seats."""
    result = check_json(parse_json(raw))
    data = json.loads(raw)
    connection.execute(GAMES_0003.insert().values(
        slug=slug, content_hash=content_hash(raw), log=raw, game=result["game"],
        mode=result["mode"], players=json.dumps(data["players"]), title=None, played_at=None,
        status=result["status"], legal=result["legal"], claims_match=None,
        errors=json.dumps(result["errors"]), outcome=json.dumps(result["outcome"]),
        claims=json.dumps(result["claims"]), engine_version=result["engine"],
        visibility="public", owner_token_hash=None, created_at=sa.func.now()))
    game_id = connection.execute(sa.text("SELECT id FROM games WHERE slug = :s"),
                                 {"s": slug}).scalar()
    for position, name in enumerate(data["players"]):
        connection.execute(sa.text("INSERT INTO game_players (game_id, position, name) "
                                   "VALUES (:g, :p, :n)"), {"g": game_id, "p": position, "n": name})
    return game_id


def test_6_migration_0004_fills_the_hash_and_reports_duplicates(db_url, capsys):
    migrate.upgrade(db_url, "0003")
    log = simulated("battle", 3, seed=89)
    same = [json.dumps(log).encode(), json.dumps(log, indent=1).encode()]
    other = as_bytes(simulated("battle", 3, seed=90))
    engine = make_engine(db_url, pooled=False)
    try:
        with engine.begin() as connection:
            ids = [insert_0003(connection, raw, f"slug-{i}x")
                   for i, raw in enumerate([same[0], other, same[1]])]
        capsys.readouterr()
        migrate.upgrade(db_url, "0004")
        report = capsys.readouterr().err
        assert "3 games hashed, 1 duplicates found" in report
        assert f'{{"id": {ids[2]}, "slug": "slug-2x", "same_as": {ids[0]}}}' in report
        with engine.connect() as connection:
            rows = dict(connection.execute(sa.text("SELECT id, canonical_hash FROM games")).all())
            seats = connection.execute(sa.text("SELECT count(*) FROM game_players")).scalar()
        assert rows[ids[0]] == canonical_hash(json.loads(same[0]))
        assert rows[ids[1]] == canonical_hash(json.loads(other))
        assert rows[ids[2]] is None
        assert seats == 9  # the SQLite rebuild kept every seat (no cascade on the old table)
    finally:
        engine.dispose()
    for app in migrated_app(db_url):
        client = app.test_client()
        assert client.get("/api/v1/games/slug-2x").status_code == 200  # still at its link
        again = post(client, json.dumps(log, indent=4).encode())
        assert (again.status_code, again.get_json()["id"]) == (200, ids[0])


# --- 11. ids are never given again ---------------------------------------------------------------


def test_11_the_id_of_a_deleted_game_is_never_given_again(client):
    first = post(client, as_bytes(simulated("battle", 3, seed=91))).get_json()
    newest = post(client, as_bytes(simulated("battle", 3, seed=92))).get_json()
    deleted = client.delete(f"/api/v1/games/{newest['id']}",
                            headers={"Authorization": f"Bearer {newest['owner_token']}"})
    assert deleted.status_code == 204
    third = post(client, as_bytes(simulated("battle", 3, seed=93))).get_json()
    assert third["id"] > newest["id"] > first["id"]
    assert client.get(f"/api/v1/games/{newest['id']}").status_code == 404
    assert client.get(f"/r/{newest['slug']}").status_code == 404


# --- 3 (part). NDJSON validation refuses steps ---------------------------------------------------


def test_3_ndjson_validation_refuses_steps(client):
    body = as_bytes(simulated("battle", 3, seed=94)) + b"\n"
    refused = client.post("/api/v1/validate?steps=true", data=body,
                          content_type="application/x-ndjson")
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["path"] == "/steps"
    lines = client.post("/api/v1/validate", data=body * 3, content_type="application/x-ndjson")
    results = [json.loads(line) for line in lines.data.splitlines()]
    assert [r["status"] for r in results] == ["complete"] * 3
    assert all("steps" not in r for r in results)


# --- 5. bounded free text; lists never load logs -------------------------------------------------


@pytest.mark.parametrize("meta, path", [
    ({"title": "t" * 201}, "/meta/title"),
    ({"note": "n" * 2001}, "/meta/note"),
    ({"where": {"deep": ["x", "y" * 2001]}}, "/meta/where/deep/1"),
    ({"many": list(range(300))}, "/meta"),
])
def test_5_meta_past_its_limits_is_422_with_a_pointer(app, client, meta, path):
    response = post(client, as_bytes(simulated("battle", 3, seed=95, meta=meta)))
    assert response.status_code == 422
    assert [(e["code"], e["path"]) for e in response.get_json()["errors"]] == [("schema", path)]
    assert count_games(app) == 0


def test_5_meta_at_its_limits_is_stored(client):
    meta = {"title": "t" * 200, "note": "n" * 2000}
    response = post(client, as_bytes(simulated("battle", 3, seed=96, meta=meta)))
    assert response.status_code == 201
    assert response.get_json()["title"] == "t" * 200


def statements(app: Any) -> list[str]:
    seen: list[str] = []
    sa.event.listen(get_database(app).engine, "before_cursor_execute",
                    lambda _c, _cur, statement, *_: seen.append(statement))
    return seen


def test_5_lists_and_pages_of_lists_never_read_the_log_column(app, client):
    for seed in (97, 98):
        post(client, as_bytes(simulated("battle", 3, seed=seed)))
    seen = statements(app)
    assert len(client.get("/api/v1/games").get_json()["items"]) == 2
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/players/Alice").status_code == 200
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert reads and not [s for s in reads if "games.log" in s]


# --- 7. ids out of range -------------------------------------------------------------------------


@pytest.mark.parametrize("ref", ["1099511627776", "2147483648", "9223372036854775808", "0"])
def test_7_numbers_past_the_id_range_are_404(client, ref):
    for suffix in ("", "/log", "/replay"):
        response = client.get(f"/api/v1/games/{ref}{suffix}")
        assert response.status_code == 404, (ref, suffix)
        assert response.get_json()["code"] == 404


@pytest.mark.parametrize("last_id", [2**63 + 5, 2**31, -1])
def test_7_a_cursor_past_the_id_range_is_422(client, last_id):
    import base64

    raw = json.dumps(["-created", "2026-11-30T00:00:00+00:00", last_id]).encode()
    cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    response = client.get("/api/v1/games", query_string={"cursor": cursor})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["path"] == "/cursor"


# --- 8. Host header ------------------------------------------------------------------------------


def test_8_an_unknown_host_is_refused_and_never_reflected(app, client):
    raw = as_bytes(simulated("battle", 3, seed=99))
    for method, path in (("GET", "/"), ("GET", "/api/v1/games"), ("POST", "/api/v1/games")):
        response = client.open(path, method=method, data=raw, content_type="application/json",
                               headers={"Host": "evil.example"})
        assert response.status_code == 400, (method, path)
        assert b"evil.example" not in response.data
    assert count_games(app) == 0
    created = client.post("/api/v1/games", data=raw, content_type="application/json",
                          headers={"Host": "127.0.0.1:8000"})
    assert created.get_json()["share_url"].startswith("http://127.0.0.1:8000/r/")


def test_8_allowed_hosts_and_the_public_url(db_url):
    for app in migrated_app(db_url):
        pass
    from popreplay import create_app

    app = create_app({"DATABASE_URL": db_url, "ALLOWED_HOSTS": ("games.example", ".lan"),
                      "PUBLIC_BASE_URL": "https://replays.example"})
    try:
        client = app.test_client()
        for host in ("games.example", "box.lan", "replays.example"):
            assert client.get("/healthz", headers={"Host": host}).status_code == 200, host
        for host in ("localhost", "evil.example"):
            assert client.get("/healthz", headers={"Host": host}).status_code == 400, host
        created = client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=100)),
                              content_type="application/json", headers={"Host": "box.lan"})
        assert created.get_json()["share_url"].startswith("https://replays.example/r/")
        assert created.headers["Location"].startswith("https://replays.example/")
    finally:
        get_database(app).dispose()


# --- 9. cross-site writes ------------------------------------------------------------------------


def test_9_cross_site_and_non_json_writes_are_refused(app, client):
    raw = as_bytes(simulated("battle", 3, seed=101))
    cases = [
        ({"Content-Type": "text/plain", "Origin": "https://evil.example"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({}, 415),
        ({"Content-Type": "application/json", "Origin": "https://evil.example"}, 403),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
    ]
    for headers, status in cases:
        response = client.post("/api/v1/games", data=raw, headers=headers)
        assert response.status_code == status, headers
        assert response.get_json()["code"] == status
    assert count_games(app) == 0
    same = client.post("/api/v1/games", data=raw, headers={
        "Content-Type": "application/json", "Origin": "http://localhost",
        "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 201
    token = same.get_json()["owner_token"]
    gone = client.delete(f"/api/v1/games/{same.get_json()['slug']}", headers={
        "Authorization": f"Bearer {token}", "Origin": "https://evil.example"})
    assert gone.status_code == 403


def test_9_a_listed_cors_origin_may_write(db_url):
    for _ in migrated_app(db_url):
        pass
    from popreplay import create_app

    app = create_app({"DATABASE_URL": db_url, "CORS_ORIGINS": ("https://club.example",)})
    try:
        response = app.test_client().post(
            "/api/v1/games", data=as_bytes(simulated("battle", 3, seed=102)),
            headers={"Content-Type": "application/json", "Origin": "https://club.example",
                     "Sec-Fetch-Site": "cross-site"})
        assert response.status_code == 403  # a browser says cross-site: refused all the same
        response = app.test_client().post(
            "/api/v1/games", data=as_bytes(simulated("battle", 3, seed=102)),
            headers={"Content-Type": "application/json", "Origin": "https://club.example"})
        assert response.status_code == 201
    finally:
        get_database(app).dispose()


# --- 10. unlisted ids cost what missing ones cost ------------------------------------------------


def test_10_an_unlisted_number_loads_no_row(app, client):
    unlisted = client.post("/api/v1/games?visibility=unlisted",
                           data=as_bytes(simulated("battle", 3, seed=103)),
                           content_type="application/json").get_json()
    loaded: list[Any] = []
    listener = lambda target, _context: loaded.append(target)  # noqa: E731
    sa.event.listen(GameRecord, "load", listener)
    try:
        assert client.get(f"/api/v1/games/{unlisted['id']}").status_code == 404
        assert loaded == []
        assert client.get(f"/api/v1/games/{unlisted['slug']}").status_code == 200
        assert len(loaded) == 1
    finally:
        sa.event.remove(GameRecord, "load", listener)


# --- 12. an export read slowly holds no transaction ----------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_12_an_export_read_slowly_leaves_no_transaction_open(app, client, db_url):
    for seed in range(104, 110):
        post(client, as_bytes(simulated("battle", 3, seed=seed)))
    dbname = db_url.rsplit("/", 1)[-1]

    def idle_in_transaction() -> int:
        engine = make_engine(db_url, pooled=False)
        try:
            with engine.connect() as connection:
                return connection.execute(sa.text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = :d "
                    "AND state LIKE 'idle in transaction%'"), {"d": dbname}).scalar()
        finally:
            engine.dispose()

    response = client.get("/api/v1/games/export", buffered=False)
    stream = iter(response.response)
    first = next(stream)  # the client has read one line and stops reading
    assert json.loads(first)["log"]
    assert idle_in_transaction() == 0
    response.close()
    with get_database(app).engine.connect() as connection:
        assert connection.execute(
            sa.text("SHOW idle_in_transaction_session_timeout")).scalar() == "30s"


# --- 3. long replays: computed once, never parsed by a page, not embedded when large -------------


def long_slap(events: int, *, illegal: bool) -> bytes:
    log = {"format": "popreplay/1", "game": "slap", "mode": "elimination",
           "players": ["Alice", "Bruno"],
           "events": [{"flip": "Alice", "card": "red-7"}, {"flip": "Bruno", "card": "blue-9"}]
           + [{"slap": "Alice"}] * events}
    if illegal:
        log["events"].append({"flip": "Nobody", "card": "red-1"})
    return json.dumps(log).encode()


def test_3_overlapping_fetches_compute_a_replay_once(app, client, monkeypatch):
    import threading

    from popreplay.store import replays

    slug = post(client, long_slap(300, illegal=False)).get_json()["slug"]
    replays._replay_gzip.clear()
    calls: list[int] = []
    real = replays.check_text

    def counted(raw: bytes, **kwargs: Any) -> Any:
        if kwargs.get("with_steps"):
            calls.append(1)
        return real(raw, **kwargs)

    monkeypatch.setattr(replays, "check_text", counted)
    statuses: list[int] = []

    def fetch() -> None:
        with app.test_client() as own:
            statuses.append(own.get(f"/api/v1/games/{slug}/replay").status_code)

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 8
    assert len(calls) == 1


def test_3_an_illegal_page_never_parses_its_replay(app, client, monkeypatch):
    from popreplay.web import views

    raw = long_slap(200, illegal=True)
    created = post(client, raw).get_json()
    assert created["status"] == "illegal"
    steps = client.get(f"/api/v1/games/{created['slug']}/replay").get_json()["steps"]
    parsed: list[int] = []
    real = views.json.loads
    monkeypatch.setattr(views.json, "loads", lambda text, *a, **k: (
        parsed.append(len(text)), real(text, *a, **k))[1])
    page = client.get(f"/r/{created['slug']}").get_data(as_text=True)
    assert f'data-jump="{len(steps) - 1}"' in page
    assert steps[-1]["kind"] == "violation"
    assert [n for n in parsed if n > 10_000] == []  # the log (small) may be read; never the replay


def test_3_a_large_replay_is_fetched_by_the_page_not_embedded(app, client, monkeypatch):
    from popreplay.web import views

    monkeypatch.setattr(views, "EMBED_MAX_GZIP", 1024)
    raw = long_slap(2000, illegal=True)
    created = post(client, raw).get_json()
    page = client.get(f"/r/{created['slug']}").get_data(as_text=True)
    replay_url = f"/api/v1/games/{created['slug']}/replay"
    assert f'"replay_url":"{replay_url}"' in page
    assert '"kind":"violation"' not in page  # no steps in the page
    assert len(page) < len(raw) + 15_000  # the log (for its claims) and the page: no replay
    assert client.get(replay_url).get_json()["steps"][-1]["kind"] == "violation"


# --- import and revalidate with --jobs -----------------------------------------------------------


@pytest.mark.slow
def test_import_and_revalidate_with_jobs_report_the_same_and_a_rate(runner, db_url, tmp_path):
    from tests.db.test_cli import write_logs

    upgraded(db_url)
    write_logs(tmp_path / "logs")
    many = tmp_path / "logs" / "many.ndjson"
    many.write_bytes(b"".join(as_bytes(simulated("battle", 3, seed=400 + i)) + b"\n"
                              for i in range(30)))
    result = runner.invoke(["import", "--jobs", "2", str(tmp_path / "logs")])
    assert result.exit_code == 2
    assert result.stdout.strip().splitlines()[-1] == (
        "stored 33, illegal 1 (stored too), duplicate 1, invalid 1")
    assert "bad.json: invalid: /" in result.stderr
    assert "36 logs in " in result.stderr and "/s) with 2 processes" in result.stderr

    engine = make_engine(db_url, pooled=False)
    with engine.begin() as connection:
        connection.execute(GameRecord.__table__.update().where(GameRecord.id.in_([2, 7]))
                           .values(status="incomplete", engine_version="0.0.0"))
    engine.dispose()
    dry = runner.invoke(["revalidate", "--dry-run", "--jobs", "2"])
    assert [line.split()[0] for line in dry.stdout.splitlines()] == ["2", "7"]
    assert "34 games checked, 2 would change" in dry.stderr
    assert "34 games in " in dry.stderr
    done = runner.invoke(["revalidate", "--jobs", "3", "--json"])
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [2, 7]
    assert runner.invoke(["revalidate", "--jobs", "2"]).stdout == ""


# --- issue 16: serve on a taken port -------------------------------------------------------------


def test_serve_on_a_taken_port_is_one_clear_error(runner, db_url):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.cli.invoke(__import__("popreplay.cli", fromlist=["main"]).main,
                                   ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is already in use" in result.output
    assert "serving on" not in result.output
    assert "Traceback" not in result.output


# --- issue 16: player= as people type it; unknown game= / mode= ----------------------------------


def test_player_filter_folds_case_and_accents_and_exact_is_still_there(client):
    created = post(client, as_bytes(simulated("battle", 3, seed=130))).get_json()
    assert "Chloé" in created["players"]

    def found(**query: Any) -> list[int]:
        response = client.get("/api/v1/games", query_string=query)
        assert response.status_code == 200, response.get_json()
        return [g["id"] for g in response.get_json()["items"]]

    for typed in ("Chloé", "chloe", "CHLOE", " chloe\u0301 ", "Chloe"):
        assert found(player=typed) == [created["id"]], typed
    assert found(player="Chloé", player_exact="true") == [created["id"]]
    assert found(player="chloe", player_exact="true") == []
    assert found(player="Chlo") == []


@pytest.mark.parametrize("query, path", [("game=chess", "/game"), ("mode=batle", "/mode")])
def test_an_unknown_game_or_mode_is_422_like_a_bad_sort(client, query, path):
    response = client.get(f"/api/v1/games?{query}")
    assert response.status_code == 422
    assert [e["path"] for e in response.get_json()["errors"]] == [path]
    assert client.get("/api/v1/games?game=slap&mode=timed").status_code == 200


# --- issue 16: ETags on a game and on lists ------------------------------------------------------


def test_a_game_and_a_list_page_carry_etags(client):
    created = post(client, as_bytes(simulated("battle", 3, seed=131))).get_json()
    for path in (f"/api/v1/games/{created['slug']}", "/api/v1/games?limit=5"):
        first = client.get(path)
        etag = first.headers["ETag"]
        assert first.headers["Cache-Control"] == "no-cache"
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
    listed = client.get("/api/v1/games").headers["ETag"]
    post(client, as_bytes(simulated("battle", 3, seed=132)))
    changed = client.get("/api/v1/games", headers={"If-None-Match": listed})
    assert changed.status_code == 200 and changed.headers["ETag"] != listed


# --- issue 16: import writes the share links of the games it stored ------------------------------


def test_import_writes_the_share_link_of_each_stored_game(runner, db_url, tmp_path):
    upgraded(db_url)
    folder = tmp_path / "logs"
    folder.mkdir()
    for seed in (140, 141):
        (folder / f"g{seed}.json").write_bytes(as_bytes(simulated("battle", 3, seed=seed)))
    (folder / "again.json").write_bytes(as_bytes(simulated("battle", 3, seed=140)))
    result = runner.invoke(["import", "--links", str(tmp_path / "links.tsv"), str(folder)])
    assert result.exit_code == 0
    lines = (tmp_path / "links.tsv").read_text().splitlines()
    engine = make_engine(db_url, pooled=False)
    with engine.connect() as connection:
        slugs = set(connection.execute(sa.text("SELECT slug FROM games")).scalars())
    engine.dispose()
    assert len(lines) == 2 and len(slugs) == 2  # the duplicate stored nothing, has no link
    for line in lines:
        url, source = line.split("\t")
        assert url.startswith("http://127.0.0.1:8000/r/") and url.rsplit("/", 1)[1] in slugs
        assert source.endswith((".json"))

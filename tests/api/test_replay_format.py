"""``GET /games/<id>/replay`` in replay format 2 (the default: each step after the first carries
``state_patch``) and, for old clients, ``?format=1`` (every step its whole ``state``)."""

from __future__ import annotations

import gzip
import json

from popreplay.checking import check_text
from popreplay.jsonout import compact
from popreplay.replayformat import with_states

API = "/api/v1/games"


def stored(client, raw: bytes) -> str:
    answer = client.post(API, data=raw, content_type="application/json")
    assert answer.status_code == 201
    return answer.get_json()["slug"]


def test_format_2_by_default_and_format_1_on_request(client, make_log):
    raw = make_log("battle", 3, seed=12)
    slug = stored(client, raw)
    expected = json.loads(compact(check_text(raw, with_steps=True)))
    latest = client.get(f"{API}/{slug}/replay")
    body = latest.get_json()
    assert body["replay_format"] == 2
    assert "state" in body["steps"][0] and "state_patch" in body["steps"][1]
    assert len(latest.data) < len(compact(expected).encode())
    body.pop("replay_format")
    with_states(body["steps"])
    assert compact(body) == compact(expected)
    old = client.get(f"{API}/{slug}/replay?format=1")
    assert old.status_code == 200 and compact(old.get_json()) == compact(expected)
    assert old.headers["ETag"] != latest.headers["ETag"]
    assert client.get(f"{API}/{slug}/replay?format=1", headers={
        "If-None-Match": old.headers["ETag"]}).status_code == 304
    french = client.get(f"{API}/{slug}/replay?format=1&lang=fr").get_json()
    assert "state_patch" not in json.dumps(french) and french["steps"][1]["state"]


def test_an_unknown_format_is_a_clear_error(client, make_log):
    slug = stored(client, make_log("battle", 3, seed=13))
    for bad in ("3", "0", "two", "2.0"):
        answer = client.get(f"{API}/{slug}/replay?format={bad}")
        assert answer.status_code == 422, bad
        assert answer.get_json()["errors"][0]["path"] == "/format"


def test_a_replay_stored_in_format_1_is_replaced(app, client, make_log):
    from popreplay.db.models import GameRecord, StoredReplay
    from popreplay.db.session import get_session
    from popreplay.engine import ENGINE_VERSION
    from popreplay.store.replays import forget_replay

    raw = make_log("battle", 3, seed=14)
    slug = stored(client, raw)
    old_body = gzip.compress(compact(check_text(raw, with_steps=True)).encode(), mtime=0)
    with app.app_context():
        session = get_session()
        record = session.query(GameRecord).filter_by(slug=slug).one()
        session.add(StoredReplay(game_id=record.id, engine_version=ENGINE_VERSION,
                                 body=old_body, step_count=1))
        session.commit()
        forget_replay(record)
    assert client.get(f"{API}/{slug}/replay").get_json()["replay_format"] == 2
    with app.app_context():
        session = get_session()
        rows = session.query(StoredReplay).all()
        assert len(rows) == 1
        assert gzip.decompress(rows[0].body).startswith(b'{"replay_format":2,')

"""popreplay.store (its modules by use case): the functions the API, the CLI and the viewer
share."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from popreplay.budget import cyclic_gc_paused
from popreplay.checking import check_text
from popreplay.replayformat import LATEST, in_format
from popreplay.db.models import GamePlayer, GameRecord
from popreplay.db.session import get_database
from popreplay.store import ingestion, replays
from popreplay.store.export import export_entry
from popreplay.store.ingestion import ingest, restore
from popreplay.store.lookups import find_by_ref, find_by_slug, recent_public
from popreplay.store.records import InvalidLog
from popreplay.store.replays import replay_gzip, replay_text
from popreplay.store.revalidation import revalidate
from popreplay.store.tokens import content_hash, owner_token_matches
from tests.conftest import as_bytes, simulated


@pytest.fixture
def session(app):
    with get_database(app).session() as session:
        yield session


def test_ingest_stores_bytes_hash_result_and_seats(session, make_log):
    raw = make_log("battle", 3, seed=61)
    done = ingest(session, raw)
    assert done.created and done.owner_token
    record = done.record
    assert record.log == raw
    assert record.content_hash == content_hash(raw)
    assert record.result == check_text(raw)
    assert record.engine_version == check_text(raw)["engine"]
    seats = session.scalars(select(GamePlayer).where(GamePlayer.game_id == record.id)
                            .order_by(GamePlayer.position)).all()
    totals = done.result["outcome"]["totals"]
    winners = done.result["outcome"]["winners"]
    assert [(s.position, s.name, s.score, s.won) for s in seats] == [
        (i, name, totals[name], name in winners) for i, name in enumerate(record.players)]
    assert owner_token_matches(record, token=done.owner_token)
    assert not owner_token_matches(record, token=done.owner_token + "x")
    assert not owner_token_matches(record, token=None)


def test_ingest_raises_invalid_log_and_stores_nothing(session):
    with pytest.raises(InvalidLog) as caught:
        ingest(session, b'{"format": "popreplay/1"}')
    assert caught.value.result["status"] == "invalid"
    assert {e["path"] for e in caught.value.result["errors"]} >= {"/game", "/players"}
    assert session.query(GameRecord).count() == 0


def test_a_concurrent_duplicate_returns_the_existing_game(session, app, make_log, monkeypatch):
    raw = make_log("coop", 3, seed=62)
    first = ingest(session, raw)
    with get_database(app).session() as other:
        # the other request looked before the first one committed: it does not see the game
        monkeypatch.setattr(ingestion, "find_by_hash", _blind_once(ingestion.find_by_hash))
        second = ingest(other, raw)
        assert second.created is False
        assert second.owner_token is None
        assert second.record.id == first.record.id
    assert session.query(GameRecord).count() == 1


def _blind_once(real):
    calls = []

    def find(session, digest):
        calls.append(digest)
        return None if len(calls) == 1 else real(session, digest)

    return find


def test_lookups_for_the_viewer(session, make_log):
    public = ingest(session, make_log("battle", 3, seed=63)).record
    hidden = ingest(session, make_log("battle", 3, seed=64), visibility="unlisted").record
    assert find_by_slug(session, hidden.slug).id == hidden.id
    assert find_by_slug(session, "nope") is None
    assert [r.id for r in recent_public(session)] == [public.id]
    assert find_by_ref(session, str(public.id)).id == public.id
    assert find_by_ref(session, str(hidden.id)) is None
    for attribute in ("id", "slug", "game", "mode", "players", "status", "legal", "visibility",
                      "created_at", "played_at", "title"):
        assert hasattr(public, attribute)
    assert public.created_at.tzinfo is not None
    assert public.title.startswith("Simulated battle")


def test_a_replay_is_computed_once_per_engine_version(session, make_log, monkeypatch):
    record = ingest(session, make_log("puzzle", 1, seed=65)).record
    replays._replay_gzip.clear()
    replay = json.loads(replay_text(session, record))
    assert replay == json.loads(json.dumps(in_format(dict(check_text(record.log, with_steps=True)),
                                                     LATEST)))
    monkeypatch.setattr(replays, "check_text", lambda *a, **k: pytest.fail("recomputed"))
    assert json.loads(replay_text(session, record)) == replay  # this process's cache
    replays._replay_gzip.clear()  # another process: the stored row
    assert json.loads(replay_text(session, record)) == replay


def test_replays_are_cached_as_bytes_not_as_objects(session, make_log):
    """A cache of parsed replays made full garbage collections walk every cached step."""
    record = ingest(session, make_log("battle", 5, seed=67)).record
    replay_text(session, record)
    assert all(isinstance(kept.body, bytes) for kept in replays._replay_gzip.values())
    for module in (replays, ingestion):
        assert not [name for name, value in vars(module).items() if isinstance(value, dict)
                    and any(isinstance(v, dict) for v in value.values())]


def test_restore_keeps_slug_visibility_and_creation_time(session, make_log):
    original = ingest(session, make_log("battle", 3, seed=66), visibility="unlisted")
    entry = export_entry(original.record, backup=True)
    session.delete(original.record)
    session.commit()
    restored = restore(session, entry)
    assert restored.created
    record = restored.record
    assert (record.slug, record.visibility, record.created_at, record.log) == (
        entry["slug"], "unlisted", original.record.created_at, original.record.log)
    assert owner_token_matches(record, token=original.owner_token)
    entry["sha256"] = "0" * 64
    with pytest.raises(ValueError):
        restore(session, entry)


def test_revalidate_reports_changed_results_and_stores_the_new_one(session):
    raw = as_bytes(simulated("battle", 3, seed=67))
    record = ingest(session, raw).record
    record.status = "incomplete"
    record.outcome = {"tampered": True}
    record.engine_version = "0.0.1"
    session.commit()
    dry = list(revalidate(session, dry_run=True))
    assert [item.changed for item in dry] == [True]
    session.expire_all()
    assert session.get(GameRecord, record.id).status == "incomplete"
    done = list(revalidate(session))
    assert [item.changed for item in done] == [True]
    assert done[0].before["status"] == "incomplete"
    assert done[0].after == check_text(raw)
    session.expire_all()
    fixed = session.get(GameRecord, record.id)
    assert fixed.result == check_text(raw)
    assert [item.changed for item in revalidate(session)] == [False]


@pytest.mark.parametrize(("change", "message"), [
    ({"slug": "../../x"}, "not a slug"),
    ({"slug": 12}, "not a slug"),
    ({"owner_token_hash": "secret"}, "not a SHA-256"),
    ({"visibility": "private"}, "visibility"),
    ({"raw_log": "\ud800"}, "not UTF-8"),
    ({"raw_log": "{}"}, "does not match its sha256"),
])
def test_restore_refuses_damaged_export_lines(session, make_log, change, message):
    entry = export_entry(ingest(session, make_log("coop", 3, seed=68)).record)
    session.query(GameRecord).delete()
    session.commit()
    damaged = {**entry, **change}
    with pytest.raises(ValueError, match=message):
        restore(session, damaged)
    assert session.query(GameRecord).count() == 0


def test_restore_refuses_a_slug_another_game_uses(session, make_log):
    first = ingest(session, make_log("coop", 3, seed=69)).record
    other = export_entry(ingest(session, make_log("coop", 3, seed=70)).record)
    session.delete(session.get(GameRecord, other["id"]))
    session.commit()
    with pytest.raises(ValueError, match="already used"):
        restore(session, {**other, "slug": first.slug})


def test_the_cyclic_collector_is_off_while_a_replay_is_built(session, make_log, monkeypatch):
    import gc

    record = ingest(session, make_log("battle", 3, seed=68)).record
    replays._replay_gzip.clear()
    seen = []
    real = replays.check_text
    monkeypatch.setattr(replays, "check_text",
                        lambda *a, **k: (seen.append(gc.isenabled()), real(*a, **k))[1])
    assert gc.isenabled()
    replay_gzip(session, record)
    assert seen == [False] and gc.isenabled()


def test_the_collector_comes_back_when_the_last_builder_is_done():
    import gc

    assert gc.isenabled()
    with cyclic_gc_paused():
        with cyclic_gc_paused():  # a second thread builds one meanwhile
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError), cyclic_gc_paused():
        1 / 0
    assert gc.isenabled()
    gc.disable()  # switched off by someone else: left off
    try:
        with cyclic_gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()

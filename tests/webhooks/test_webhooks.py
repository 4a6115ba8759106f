"""Webhooks against a real receiver (an http.server on 127.0.0.1), without a broker: events of a
group's games are posted signed, retried after a failure, logged; bad URLs are refused; a slow
receiver never holds the request that caused the event. The broker leg: test_queue.py."""

from __future__ import annotations

import json
import threading

import pytest

from popreplay.db.session import get_session
from popreplay.db.tables import TableRecord
from popreplay.store.edits import update_log
from popreplay.store.lookups import find_by_slug
from popreplay.tables import signoff
from popreplay.webhooks import signing
from popreplay.webhooks.delivery import MAX_ATTEMPTS
from popreplay.webhooks.hooks import MAX_HOOKS
from tests.conftest import as_bytes, simulated
from tests.webhooks.helpers import deliveries, hooked, settled
from tests.webhooks.receiver import wait_until


def store(client, made, seed=4):
    answer = client.post(f"/api/v1/groups/{made['slug']}/games", headers=made["headers"],
                         json={"log": simulated("battle", 2, seed)})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["game"]["slug"]


def test_a_stored_game_is_posted_signed_and_logged(app, client, receiver):
    made = hooked(app, client, receiver.url)
    slug = store(client, made)
    [got] = receiver.wait_for(1)
    event = json.loads(got.body)
    assert event["type"] == "game.stored" and event["group"] == made["slug"]
    assert event["game"]["slug"] == slug and event["game"]["game"] == "pop"
    assert event["id"].startswith("evt_") and got.headers["Popreplay-Event"] == "game.stored"
    header = got.headers[signing.HEADER]
    assert signing.verify(made["secret"], header, got.body)
    assert not signing.verify(made["secret"], header, got.body + b" ")  # the body is signed
    assert not signing.verify("whsec_other", header, got.body)
    stamp = int(header.split(",")[0].removeprefix("t="))
    assert not signing.verify(made["secret"], header, got.body, now=stamp + 301)  # a replay
    [logged] = settled(client, made)
    assert logged["event"] == "game.stored" and logged["state"] == "delivered"
    assert logged["attempts"] == 1 and logged["response_code"] == 200
    assert logged["last_error"] is None and logged["event_id"] == event["id"]


def test_a_failed_delivery_is_retried_with_the_same_event_then_delivered(app, client, receiver):
    made = hooked(app, client, receiver.url)
    receiver.statuses[:] = [500, 503]
    sent = client.post(f"/api/v1/groups/{made['slug']}/webhooks/{made['hook']}/test",
                       headers=made["headers"], json={})
    assert sent.status_code == 202 and sent.get_json()["event"] == "ping"
    got = receiver.wait_for(3)
    assert [json.loads(r.body)["type"] for r in got] == ["ping"] * 3
    assert len({r.body for r in got}) == 1  # the same event at every attempt
    assert len({r.headers["Popreplay-Delivery"] for r in got}) == 1
    assert all(signing.verify(made["secret"], r.headers[signing.HEADER], r.body) for r in got)
    [logged] = settled(client, made)
    assert logged["state"] == "delivered" and logged["attempts"] == 3
    assert logged["response_code"] == 200 and logged["next_at"] is None


def test_a_receiver_that_keeps_failing_is_given_up_with_its_last_error(app, client, receiver):
    made = hooked(app, client, receiver.url)
    app.config["WEBHOOK_RETRY"] = 0.01
    receiver.statuses[:] = [500] * MAX_ATTEMPTS
    client.post(f"/api/v1/groups/{made['slug']}/webhooks/{made['hook']}/test",
                headers=made["headers"], json={})
    [logged] = settled(client, made)
    assert logged["state"] == "failed" and logged["attempts"] == MAX_ATTEMPTS
    assert logged["response_code"] == 500 and logged["last_error"] == "HTTP 500"
    listed = client.get(f"/api/v1/groups/{made['slug']}/webhooks", headers=made["headers"])
    assert listed.get_json()["webhooks"][0]["last_delivery"] == "failed"
    assert "secret" not in listed.get_json()["webhooks"][0]


def test_a_slow_receiver_never_holds_the_request(app, client, receiver):
    made = hooked(app, client, receiver.url)
    app.config.update(WEBHOOK_TIMEOUT=3.0, WEBHOOK_RETRY=0.3)
    receiver.hold = threading.Event()  # the receiver answers nothing until the test says so
    store(client, made)  # answered while the receiver holds the delivery
    # had the request waited for the receiver, the attempt would be over (timed out: logged)
    [pending] = deliveries(client, made)
    assert pending["state"] == "pending" and pending["attempts"] == 0
    receiver.wait_for(1)
    # the attempt gave up waiting after WEBHOOK_TIMEOUT, was logged, and will be tried again
    wait_until(lambda: "timed out" in (deliveries(client, made)[0]["last_error"] or ""),
               timeout=15, what="the timed-out attempt in the log")
    assert deliveries(client, made)[0]["next_at"] is not None
    receiver.hold.set()
    [logged] = settled(client, made)
    assert logged["state"] == "delivered" and logged["attempts"] >= 2


@pytest.mark.parametrize("url", [
    "http://example.org/hook",  # plain http to a public host
    "ftp://example.org/hook",
    "https://10.1.2.3/hook",  # a private address
    "https://169.254.169.254/latest",  # link-local (cloud metadata)
    "https://user:secret@example.org/hook",
    "https://example.org/hook#part",
    "https:///hook",
    "https://example.org:99999/hook",
    "not a url",
    "https://example.org/" + "a" * 2000,
])
def test_a_bad_url_is_refused(app, client, receiver, url):
    made = hooked(app, client, receiver.url)
    answer = client.post(f"/api/v1/groups/{made['slug']}/webhooks", json={"url": url},
                         headers=made["headers"])
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["errors"][0]["path"] == "/url"


def test_loopback_is_refused_unless_allowed(app, client, receiver):
    made = hooked(app, client, receiver.url)
    app.config["WEBHOOK_LOOPBACK"] = False
    for url in (receiver.url, "https://localhost/hook", "https://[::1]/hook"):
        answer = client.post(f"/api/v1/groups/{made['slug']}/webhooks", json={"url": url},
                             headers=made["headers"])
        assert answer.status_code == 422 and "POPREPLAY_WEBHOOK_LOOPBACK" in \
            answer.get_json()["message"], url


def test_a_group_has_a_bounded_number_of_hooks(app, client, receiver):
    made = hooked(app, client, receiver.url)
    for _ in range(MAX_HOOKS - 1):
        assert client.post(f"/api/v1/groups/{made['slug']}/webhooks", json={"url": receiver.url},
                           headers=made["headers"]).status_code == 201
    answer = client.post(f"/api/v1/groups/{made['slug']}/webhooks", json={"url": receiver.url},
                         headers=made["headers"])
    assert answer.status_code == 409
    assert answer.get_json()["errors"][0]["code"] == "too-many-webhooks"


def test_who_may_manage_the_hooks(app, client, receiver):
    made = hooked(app, client, receiver.url)
    base = f"/api/v1/groups/{made['slug']}/webhooks"
    tokens = {scope: client.post(f"/api/v1/groups/{made['slug']}/tokens", headers=made["headers"],
                                 json={"name": scope, "scopes": [scope]}).get_json()["token"]
              for scope in ("read", "write")}
    as_ = {"invite": made["invite"], **tokens}
    assert client.get(base, headers={"Authorization": f"Bearer {as_['invite']}"}).status_code \
        == 403
    assert client.get(base, headers={"Authorization": f"Bearer {as_['read']}"}).status_code \
        == 403
    writer = {"Authorization": f"Bearer {as_['write']}"}
    assert client.get(base, headers=writer).status_code == 200
    other = hooked(app, client, receiver.url, name="Other Club")
    assert client.get(f"{base}/{other['hook']}/deliveries",
                      headers=made["headers"]).status_code == 404
    assert client.delete(f"{base}/{made['hook']}", headers=writer).status_code == 204
    assert client.get(base, headers=writer).get_json() == {"webhooks": []}
    store(client, made)  # no hook left: nothing is posted
    assert client.post(f"{base}/{made['hook']}/test", headers=writer, json={}).status_code == 404


def test_corrected_signed_off_disputed_and_removed_games_are_posted(app, client, receiver):
    made = hooked(app, client, receiver.url)
    slug = store(client, made)
    receiver.wait_for(1)
    with app.test_request_context():
        session = get_session()
        record = find_by_slug(session, slug)
        update_log(session, record, raw=as_bytes(simulated("battle", 2, 9)))
        table = TableRecord(id="tbl-hooks", game="pop", mode="battle", status="stored", start={},
                            seat_tokens={},
                            host_token_hash="0" * 64, join_key_hash="1" * 64,
                            stored_slug=slug)
        session.add(table)
        session.commit()
        for player, verdict in (("Alice", "confirm"), ("Bruno", "dispute")):
            signoff.give(session, table, player=player, verdict=verdict, step=3,
                         sentence="Not my card" if verdict == "dispute" else None, claims=None,
                         seq=1)
    assert client.delete(f"/api/v1/groups/{made['slug']}/games/{slug}",
                         headers=made["headers"]).status_code == 204
    got = receiver.wait_for(5)
    events = [json.loads(r.body) for r in got]
    assert sorted(e["type"] for e in events) == sorted(
        ["game.stored", "game.corrected", "game.signed_off", "game.disputed", "game.removed"])
    disputed = next(e for e in events if e["type"] == "game.disputed")
    assert disputed["data"] == {"table": "tbl-hooks", "player": "Bruno", "step": 3,
                                "sentence": "Not my card"}
    assert all(e["game"]["slug"] == slug for e in events)
    settled(client, made, 5)


def test_a_deleted_hook_is_not_tried_again(app, client, receiver):
    made = hooked(app, client, receiver.url)
    app.config["WEBHOOK_RETRY"] = 0.5
    receiver.statuses[:] = [500] * MAX_ATTEMPTS
    client.post(f"/api/v1/groups/{made['slug']}/webhooks/{made['hook']}/test",
                headers=made["headers"], json={})
    receiver.wait_for(1)
    assert client.delete(f"/api/v1/groups/{made['slug']}/webhooks/{made['hook']}",
                         headers=made["headers"]).status_code == 204
    later = client.post(f"/api/v1/groups/{made['slug']}/webhooks", json={"url": receiver.url},
                        headers=made["headers"]).get_json()["id"]
    client.post(f"/api/v1/groups/{made['slug']}/webhooks/{later}/test", headers=made["headers"],
                json={})  # its deliveries come after the deleted hook's retry was due
    # its first three attempts (at once, 0.5 s and 1.5 s after) end a second past the time the
    # deleted hook's retry was due (0.5 s after its first attempt): that retry, had it been
    # made, would be among these four requests (waiting for all six took 7.5 s more)
    got = receiver.wait_for(4)[:4]
    by_event = [json.loads(r.body)["id"] for r in got]
    assert len(set(by_event)) == 2 and by_event.count(by_event[0]) == 1  # tried once, not again
    assert len({r.headers["Popreplay-Delivery"] for r in got}) == 2  # ids never reused

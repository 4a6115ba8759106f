"""Other games at a table: whole entries (`place`) checked by the engine as they are appended.
Slap: one phone records (flips come too fast to share), the others watch."""

from __future__ import annotations

from popreplay.engine import get_game
from tests.tables.helpers import API, bearer


def test_slap_one_phone_records_the_others_watch(client):
    log = get_game("slap").simulate(mode="timed", players=3, seed=1)
    start = {k: log[k] for k in ("format", "game", "mode", "players") if k in log}
    start.update({k: log[k] for k in ("options",) if k in log}, events=[])
    made = client.post(API, json={"log": start}).get_json()
    table, key = made["table"], made["join_key"]
    alice = client.post(f"{API}/{table}/seats", json={"player": "Alice"},
                        headers=bearer(key)).get_json()["seat_token"]
    refused = client.post(f"{API}/{table}/entries", headers=bearer(alice), json={
        "id": "early", "seen": 0, "entry": {"type": "place", "at": "/events", "how": "append",
                                            "value": log["events"][0]}})
    assert refused.status_code == 403  # the recording phone is the host's until it names one
    named = client.post(f"{API}/{table}/keeper", json={"player": "Alice"},
                        headers=bearer(made["host_token"]))
    assert named.status_code == 200 and named.get_json() == {"player": "Alice"}
    seen = 0
    for k, event in enumerate(log["events"]):
        answer = client.post(f"{API}/{table}/entries", headers=bearer(alice), json={
            "id": f"a{k}", "seen": seen, "entry": {"type": "place", "at": "/events",
                                                   "how": "append", "value": event}})
        assert answer.status_code == 201, (k, answer.get_json())
        seen = answer.get_json()["seqs"][-1]
    watched = client.get(f"{API}/{table}", headers=bearer(key)).get_json()
    assert watched["seq"] == len(log["events"])
    assert watched["log"]["events"] == log["events"]
    assert watched["over"] is True and watched["result"]["legal"] is True
    # an illegal flip (a card already seen) is refused with the engine's rule
    wrong = client.post(f"{API}/{table}/entries", headers=bearer(alice), json={
        "id": "late", "seen": seen, "entry": {"type": "place", "at": "/events", "how": "append",
                                              "value": log["events"][0]}})
    assert wrong.status_code == 422 and wrong.get_json()["errors"][0]["code"] != "bad-request"

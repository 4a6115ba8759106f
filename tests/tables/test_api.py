"""/api/v1/tables: seats, one order with sequence numbers, retries counted once, stale entries
answered with what they missed, the engine's refusals to the sender only, hidden hands (Flask
test client, SQLite and PostgreSQL)."""

from __future__ import annotations

import json

from popreplay.checking import check_log
from tests.tables.helpers import API, Table, bearer, game_log


def seated(client, **kw):
    table = Table(client, game_log(), **kw)
    for name in table.log["players"]:
        assert table.join(name).status_code == 201
    return table


def test_create_answers_host_token_join_link_and_a_qr_code_drawn_here(client):
    table = Table(client, game_log())
    made = table.created
    assert made["join_url"].endswith(f"/t/{table.id}#key={table.key}")
    assert made["qr_svg"].startswith("<svg") and "<path" in made["qr_svg"]
    assert made["host_token"] != made["join_key"]
    assert made["view"]["you"] == {"role": "host", "player": None}
    assert list(made["view"]["gathering"]) == ["round"]


def test_a_seat_token_is_never_the_host_token_and_a_taken_seat_needs_the_host(client):
    table = seated(client)
    assert table.host not in table.seats.values()
    again = client.post(f"{API}/{table.id}/seats", json={"player": "Alice"},
                        headers=bearer(table.key))
    assert again.status_code == 409
    old = table.seats["Alice"]
    handed = client.post(f"{API}/{table.id}/seats", json={"player": "Alice"},
                         headers=bearer(table.host))
    assert handed.status_code == 201
    assert client.get(f"{API}/{table.id}", headers=bearer(old)).status_code == 403
    new = handed.get_json()["seat_token"]
    assert client.get(f"{API}/{table.id}", headers=bearer(new)).get_json()["you"] == {
        "role": "seat", "player": "Alice"}


def test_a_whole_round_entered_by_each_seat_is_the_simulated_round(client):
    table = seated(client)
    assert [a.status_code for a in table.deal(0)] == [201] * 4
    for k in range(len(table.log["rounds"][0]["turns"])):
        assert [a.status_code for a in table.turn(0, k)] == [201] * 4
    whole = client.get(f"{API}/{table.id}/log", headers=bearer(table.host)).get_json()["log"]
    assert whole["rounds"][0] == table.log["rounds"][0]
    partial = dict(table.log, rounds=table.log["rounds"][:1])
    partial.pop("claimed", None)
    assert table.view("watch")["result"]["outcome"] == check_log(partial)["outcome"]


def test_a_retry_is_counted_once(client):
    table = seated(client)
    first = table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]},
                       entry_id="same", seen=0)
    again = table.part("host", "round", {0: table.log["rounds"][0]["layout"][0]},
                       entry_id="same", seen=0)
    assert first.status_code == 201 and again.status_code == 200
    assert again.get_json()["status"] == "duplicate"
    assert again.get_json()["seqs"] == first.get_json()["seqs"] == [1]
    entries = client.get(f"{API}/{table.id}/entries", headers=bearer(table.host)).get_json()
    assert [e["seq"] for e in entries["entries"]] == [1]


def test_a_stale_entry_gets_409_with_the_entries_it_missed(client):
    table = seated(client)
    table.deal(0)  # seq 1-4 parts, 5 the round itself
    stale = table.part("Alice", "turn", {0: table.log["rounds"][0]["turns"][0]["plays"]["Alice"]},
                       seen=2)
    assert stale.status_code == 409
    body = stale.get_json()
    assert body["errors"][0]["code"] == "stale"
    assert [e["seq"] for e in body["missed"]] == [3, 4, 5]
    assert body["missed"][-1]["kind"] == "place" and body["view"]["seq"] == 5
    # parts of other seats in between do not make an entry stale: only a change of the draft
    ok = table.part("Alice", "turn", {0: table.log["rounds"][0]["turns"][0]["plays"]["Alice"]},
                    seen=5)
    assert ok.status_code == 201
    late = table.part("Bruno", "turn", {1: table.log["rounds"][0]["turns"][0]["plays"]["Bruno"]},
                      seen=5)
    assert late.status_code == 201 and late.get_json()["seqs"] == [7]


def test_an_illegal_entry_is_refused_only_to_its_sender_with_the_rule(client):
    table = seated(client)
    table.deal(0)
    bruno = table.log["rounds"][0]["hands"]["Bruno"]
    before = table.view("Chloé")
    refused = table.part("Alice", "turn", {0: [bruno[0]]})  # a card of Bruno's hand
    assert refused.status_code == 422
    error = refused.get_json()["errors"][0]
    assert error["path"] == "/entry/slots/0/0" and error["code"] == "pending"
    assert str(bruno[0]) in error["message"]
    french = client.post(f"{API}/{table.id}/entries?lang=fr", headers=bearer(table.seats["Alice"]),
                         json={"id": "fr1", "seen": 5, "entry": {
                             "type": "part", "entry": "turn", "slots": {"0": [bruno[0]]}}})
    assert french.status_code == 422 and french.get_json()["errors"][0]["message"] != \
        error["message"]
    after = table.view("Chloé")
    assert after["seq"] == before["seq"] == 5  # nothing appended: nobody else disturbed
    assert after["gathering"] == before["gathering"]


def test_another_seat_cannot_fill_my_slot(client):
    table = seated(client)
    table.deal(0)
    answer = table.part("Bruno", "turn", {0: [table.log["rounds"][0]["hands"]["Alice"][0]]})
    assert answer.status_code == 403


def test_hands_and_chosen_cards_are_hidden_from_other_seats_and_spectators(client):
    table = seated(client)
    table.deal(0)
    hands = table.log["rounds"][0]["hands"]
    alice_card = table.log["rounds"][0]["turns"][0]["plays"]["Alice"][0]
    chief_offers = table.view("host")["gathering"]["turn"]["slots"][3]["offers"]
    assert client.post(f"{API}/{table.id}/keeper", json={"player": "Bruno"},
                       headers=bearer(table.host)).get_json() == {"player": "Bruno"}
    assert table.part("Alice", "turn", {0: [alice_card]}).status_code == 201
    for who in ("Bruno", "Chloé", "watch", "host"):
        view = table.view(who)
        text = json.dumps(view)
        assert "hands" not in view["log"]["rounds"][0]
        slot = view["gathering"]["turn"]["slots"][0]
        assert slot["filled"] is True and slot["cards"] is None
        for item in view["gathering"]["turn"]["slots"]:
            if item["player"] not in (None, who):  # another seat's slot: no offers at all
                assert "offers" not in item
            if item["role"] == "chief" and who in ("host", "Bruno"):  # the host and the keeper:
                # what this phone knows, the public draft less its own hand (never another's)
                assert item["offers"] == [c for c in chief_offers
                                          if c not in hands.get(who, [])] and item["offers"]
            elif item["role"] == "chief":  # nobody else enters the Chief's cards
                assert "offers" not in item
        if who in hands:
            assert view["hand"] == sorted(hands[who])
        entries = client.get(f"{API}/{table.id}/entries",
                             headers=bearer(table.key if who == "watch" else table.token(who)))
        assert all(e["by"] == who for e in entries.get_json()["entries"] if "cards" in e)
        assert str(sorted(hands["Alice"])) not in text
    mine = table.view("Alice")
    assert mine["gathering"]["turn"]["slots"][0]["cards"] == [alice_card]
    assert mine["hand"] == sorted(hands["Alice"])


def test_the_hands_are_shown_once_the_round_is_over(client):
    table = seated(client)
    table.deal(0)
    for k in range(len(table.log["rounds"][0]["turns"])):
        table.turn(0, k)
    view = table.view("watch")
    assert view["log"]["rounds"][0]["hands"] == table.log["rounds"][0]["hands"]


def test_the_host_stores_the_game_as_the_recorder_does(client):
    table = seated(client)
    table.deal(0)
    assert client.post(f"{API}/{table.id}/store", json={},
                       headers=bearer(table.seats["Alice"])).status_code == 403
    stored = client.post(f"{API}/{table.id}/store", json={}, headers=bearer(table.host))
    assert stored.status_code == 201
    body = stored.get_json()
    assert body["status"] == "incomplete" and body["owner_token"]
    assert table.view("watch")["stored"] == body["slug"]
    assert table.part("Alice", "turn", {0: [1]}).status_code == 409


def test_bad_requests_are_answered_with_pointers(client):
    table = seated(client)
    assert client.get(f"{API}/{table.id}").status_code == 401
    assert client.get(f"{API}/nope", headers=bearer("x")).status_code == 404
    wrong = table.send("Alice", {"type": "nonsense"})
    assert wrong.status_code == 422 and wrong.get_json()["errors"][0]["path"] == "/entry/type"
    bad = client.post(API, json={"log": {"game": "chess"}})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["path"] == "/log/game"
    watcher = client.post(f"{API}/{table.id}/entries", headers=bearer(table.key),
                          json={"id": "w", "seen": 0, "entry": {"type": "part"}})
    assert watcher.status_code == 403

"""Who may make which entry (tables/authority.py, docs/table.md "Who may make which entry"): the
review's probes of issue 36, each refused with nothing appended, and the honest paths beside them."""

from __future__ import annotations

from typing import Any

from popreplay.engine import get_game
from tests.tables.helpers import API, Table, bearer, game_log


def seated(client: Any) -> Table:
    """A POP! table: the host's phone takes Alice's seat (the keeper), Bruno and Chloé join."""
    table = Table(client, game_log(seed=4))
    answer = client.post(f"{API}/{table.id}/seats", json={"player": "Alice"},
                         headers=bearer(table.host))
    assert answer.status_code == 201
    table.seats["Alice"] = answer.get_json()["seat_token"]
    for name in ("Bruno", "Chloé"):
        assert table.join(name).status_code == 201
    return table


def one_turn(table: Table) -> int:
    """Round 1 dealt (the layout by the keeper) and its first turn whole: the last seq."""
    rnd = table.log["rounds"][0]
    rows = len(rnd["layout"])
    assert table.part("Alice", "round", dict(enumerate(rnd["layout"]))).status_code == 201
    for k, name in enumerate(table.log["players"]):
        assert table.part(name, "round", {rows + k: rnd["hands"][name]}).status_code == 201
    turn = rnd["turns"][0]
    for k, name in enumerate(table.log["players"]):
        answer = table.part(name, "turn", {k: turn["plays"][name]})
        assert answer.status_code == 201, answer.get_json()
    if "chief" in turn:
        answer = table.part("Alice", "turn", {3: turn["chief"]})
        assert answer.status_code == 201, answer.get_json()
    return table.view("host")["seq"]


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.get_json()
    body = answer.get_json()
    assert body["errors"][0]["code"] == code, body
    return body


def test_a_seat_cannot_rewrite_another_seats_past_card_with_a_place(client):
    table = seated(client)
    seq = one_turn(table)
    bruno_card = table.log["rounds"][0]["turns"][0]["plays"]["Bruno"]
    other = [c for c in range(1, 51) if c not in bruno_card][:len(bruno_card)]
    for at, value in (("/rounds/0/turns/0/plays/Bruno", other),
                      ("/rounds/0/turns/0/plays/Bruno/0", other[0])):
        answer = table.send("Alice", {"type": "place", "at": at, "how": "set", "value": value})
        body = refused(answer, 403, "correction")
        assert "correction" in body["message"]
    # the same change as a correction: Bruno's, not Alice's; nothing recorded
    corrected = client.post(f"{API}/{table.id}/corrections", headers=bearer(table.seats["Alice"]),
                            json={"id": "alice-fix", "seen": seq, "seq": seq,
                                  "set": {"/plays/Bruno": other}})
    assert corrected.status_code == 403
    assert table.view("host")["seq"] == seq
    assert table.view("host")["corrections"] == []


def test_renaming_a_player_or_emptying_the_rounds_is_no_entry(client):
    table = seated(client)
    seq = one_turn(table)
    for at, value in (("/players/1", "Mallory"), ("/players", ["Alice", "Mallory", "Chloé"]),
                      ("/rounds", []), ("/rounds/0", {"layout": []})):
        for who in ("Alice", "host"):  # the host too: the past changes by a correction only
            answer = table.send(who, {"type": "place", "at": at, "how": "set", "value": value})
            refused(answer, 403, "correction")
    view = table.view("host")
    assert view["seq"] == seq and view["players"] == ["Alice", "Bruno", "Chloé"]
    assert len(view["log"]["rounds"]) == 1


def test_a_seat_cannot_enter_a_whole_turn_with_the_others_cards(client):
    table = seated(client)
    seq = one_turn(table)
    turn = table.log["rounds"][0]["turns"][1]
    for at, how in (("/rounds/0/turns", "append"), ("/rounds/0/turns/1", "set")):
        answer = table.send("Alice", {"type": "place", "at": at, "how": how, "value": turn})
        body = refused(answer, 403, "forbidden")
        assert "Bruno" in body["message"] or "Chloé" in body["message"]
    assert table.view("host")["seq"] == seq


def test_the_chiefs_cards_are_the_keepers_and_a_filled_slot_is_not_replaced(client):
    table = seated(client)
    rnd = table.log["rounds"][0]
    rows = len(rnd["layout"])
    # the layout: the keeper's (Alice, the host's phone) or the host's, not Bruno's
    refused(table.part("Bruno", "round", {0: rnd["layout"][0]}), 403, "forbidden")
    assert table.part("Alice", "round", dict(enumerate(rnd["layout"]))).status_code == 201
    for k, name in enumerate(table.log["players"]):
        assert table.part(name, "round", {rows + k: rnd["hands"][name]}).status_code == 201
    turn = next(t for t in rnd["turns"] if "chief" in t)
    index = rnd["turns"].index(turn)
    for earlier in rnd["turns"][:index]:
        for k, name in enumerate(table.log["players"]):
            assert table.part(name, "turn", {k: earlier["plays"][name]}).status_code == 201
        if "chief" in earlier:
            assert table.part("Alice", "turn", {3: earlier["chief"]}).status_code == 201
    chief = turn["chief"]
    refused(table.part("Bruno", "turn", {3: chief}), 403, "forbidden")  # not the keeper
    assert table.part("Alice", "turn", {3: chief}).status_code == 201
    other = [c for c in range(1, 51) if c not in chief][:len(chief)]
    body = refused(table.part("host", "turn", {3: other}), 409, "filled")
    assert "Alice" in body["message"]  # who filled it
    # the host hands the keeping to Bruno: now his, no longer Alice's
    named = client.post(f"{API}/{table.id}/keeper", json={"player": "Bruno"},
                        headers=bearer(table.host))
    assert named.status_code == 200
    # a seat names only itself (it takes over): another seat, or nobody, is the host's to name
    for other in ("Alice", None):
        assert client.post(f"{API}/{table.id}/keeper", json={"player": other},
                           headers=bearer(table.seats["Bruno"])).status_code == 403
    assert client.post(f"{API}/{table.id}/keeper", json={"player": "Bruno"},
                       headers=bearer(table.key)).status_code == 403  # a spectator: nobody
    view = table.view("Bruno")
    assert "offers" in view["gathering"]["turn"]["slots"][3]
    assert "offers" not in table.view("Alice")["gathering"]["turn"]["slots"][3]


def cube_table(client: Any) -> tuple[dict[str, Any], str, dict[str, str]]:
    log = get_game("cube").simulate(mode="standard", players=3, seed=1)
    start = {k: v for k, v in log.items() if k not in ("turns", "claimed")} | {"turns": []}
    made = client.post(API, json={"log": start}).get_json()
    seats = {}
    for name in log["players"][:2]:  # the third seat nobody holds
        seats[name] = client.post(f"{API}/{made['table']}/seats", json={"player": name},
                                  headers=bearer(made["join_key"])).get_json()["seat_token"]
    seats["host"] = made["host_token"]
    return log, made["table"], seats


def test_cube_a_seat_enters_its_own_moves_another_only_for_a_seat_nobody_holds(client):
    log, table, seats = cube_table(client)
    first, second, third = log["players"]

    def send(who: str, k: int, seen: int) -> Any:
        return client.post(f"{API}/{table}/entries", headers=bearer(seats[who]), json={
            "id": f"{who}-{k}", "seen": seen, "entry": {"type": "place", "at": "/turns",
                                                        "how": "append", "value": log["turns"][k]}})

    assert log["turns"][0]["player"] == first
    refused(send(second, 0, 0), 403, "forbidden")  # the first player's turn, not the second's
    assert send(first, 0, 0).status_code == 201
    seen = 1
    for k in range(1, 6):
        mover = log["turns"][k]["player"]
        if mover == third:  # nobody holds the third seat: any seat may enter its move
            answer = send(first if k % 2 else second, k, seen)
        else:
            other = second if mover == first else first
            refused(send(other, k, seen), 403, "forbidden")
            answer = send("host" if k == 4 else mover, k, seen)  # the host may enter any move
        assert answer.status_code == 201, (k, answer.get_json())
        seen = answer.get_json()["seqs"][-1]


def test_slap_only_the_recording_phone_enters(client):
    log = get_game("slap").simulate(mode="timed", players=3, seed=2)
    start = {k: log[k] for k in ("format", "game", "mode", "players", "options") if k in log}
    made = client.post(API, json={"log": {**start, "events": []}}).get_json()
    table = made["table"]
    bruno = client.post(f"{API}/{table}/seats", json={"player": log["players"][1]},
                        headers=bearer(made["join_key"])).get_json()["seat_token"]

    def send(token: str, k: int, seen: int) -> Any:
        return client.post(f"{API}/{table}/entries", headers=bearer(token), json={
            "id": f"{token[:6]}-{k}", "seen": seen, "entry": {
                "type": "place", "at": "/events", "how": "append", "value": log["events"][k]}})

    refused(send(bruno, 0, 0), 403, "forbidden")
    assert send(made["host_token"], 0, 0).status_code == 201  # the host records by default
    client.post(f"{API}/{table}/keeper", json={"player": log["players"][1]},
                headers=bearer(made["host_token"]))
    assert send(bruno, 1, 1).status_code == 201  # the seat the host gave the recording


def test_a_seat_takes_over_the_keeping_for_itself_only_and_every_view_says_so(client):
    """docs/table.md "Who may make which entry": a seat names itself keeper (the page's "Take
    over"), never another seat; every phone's view names the keeper."""
    table = seated(client)
    rnd = table.log["rounds"][0]
    assert {table.view(w)["keeper"] for w in ("Alice", "Bruno", "watch", "host")} == {"Alice"}
    assert table.view("watch")["shared_by"] == "keeper"
    refused(table.part("Chloé", "round", {0: rnd["layout"][0]}), 403, "forbidden")
    assert client.post(f"{API}/{table.id}/keeper", json={"player": "Bruno"},
                       headers=bearer(table.seats["Chloé"])).status_code == 403  # not for another
    took = client.post(f"{API}/{table.id}/keeper", json={"player": "Chloé"},
                       headers=bearer(table.seats["Chloé"]))
    assert took.status_code == 200 and took.get_json() == {"player": "Chloé"}
    assert {table.view(w)["keeper"] for w in ("Alice", "Bruno", "Chloé", "watch")} == {"Chloé"}
    refused(table.part("Alice", "round", {0: rnd["layout"][0]}), 403, "forbidden")  # no longer
    assert table.part("Chloé", "round", dict(enumerate(rnd["layout"]))).status_code == 201

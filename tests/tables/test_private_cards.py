"""cube and Bloops at a table: each seat enters its own hand, draws and events (``place``
entries); the server shows a seat its own cards only, a spectator none, until the card is shown
(played, laid, discarded: the engine's log names it) or the game is over; the engine checks the
whole game with every card, and the host's log is the simulated one."""

from __future__ import annotations

import json

from popreplay.engine import get_game
from tests.tables.helpers import API, bearer
from tests.tables.private import drive_places, leaks, place_entries


def _start(client, log):
    start = {k: log[k] for k in ("format", "game", "mode", "players", "deck") if k in log}
    if log["game"] == "cube":
        start.update(deal={n: [None] * 5 for n in log["players"]}, turns=[])
    else:
        start.update(events=[])
    made = client.post(API, json={"log": start, "record_hands": True})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def _run(client, game, mode, seed):
    log = get_game(game).simulate(mode=mode, players=3, seed=seed)
    log.pop("claimed", None)
    made = _start(client, log)
    table, key, host = made["table"], made["join_key"], made["host_token"]
    seats = {}
    for name in log["players"]:
        seats[name] = client.post(f"{API}/{table}/seats", json={"player": name},
                                  headers=bearer(key)).get_json()["seat_token"]

    def view(token):
        return client.get(f"{API}/{table}", headers=bearer(token)).get_json()

    def post(by, entry, n):
        seen = view(seats[by])["seq"]
        answer = client.post(f"{API}/{table}/entries", headers=bearer(seats[by]),
                             json={"id": f"{by}-{n}", "seen": seen, "entry": entry})
        assert answer.status_code == 201, (entry, answer.get_json())
        # after every entry: no screen shows a card it may not see yet
        screens = {name: view(tok) for name, tok in seats.items()} | {None: view(key)}
        for name, shown in screens.items():
            if shown["over"]:
                continue
            assert shown["private"] is True
            assert leaks(shown["log"], name) == [], (name, entry)
        return screens

    screens = drive_places(log, post)
    whole = client.get(f"{API}/{table}/log", headers=bearer(host)).get_json()["log"]
    return log, whole, screens


def test_cube_each_seat_enters_its_own_cards(client):
    log, whole, screens = _run(client, "cube", "standard", 1)
    assert whole["deal"] == log["deal"] and whole["turns"] == log["turns"]
    assert screens[None]["over"] is True and screens[None]["result"]["legal"] is True
    assert screens[None]["result"]["outcome"] == get_game("cube").replay(log, with_steps=False).outcome


def test_bloops_each_seat_enters_its_own_cards(client):
    log, whole, screens = _run(client, "bloops", "classic", 1)
    assert whole["deal"] == log["deal"] and whole["events"] == log["events"]
    assert whole["reveal"] == log["reveal"]
    assert screens[None]["result"]["legal"] is True


def test_a_seat_sees_its_own_draw_and_nobody_else_does(client):
    log = get_game("cube").simulate(mode="standard", players=3, seed=1)
    made = _start(client, log)
    table, key = made["table"], made["join_key"]
    seats = {n: client.post(f"{API}/{table}/seats", json={"player": n}, headers=bearer(key))
             .get_json()["seat_token"] for n in log["players"]}
    for k, (by, entry) in enumerate(place_entries(log)[:4]):  # three hands, Ana's first turn
        seen = client.get(f"{API}/{table}", headers=bearer(seats[by])).get_json()["seq"]
        assert client.post(f"{API}/{table}/entries", headers=bearer(seats[by]), json={
            "id": f"x{k}", "seen": seen, "entry": entry}).status_code == 201
    ana, bruno = (client.get(f"{API}/{table}", headers=bearer(seats[n])).get_json()
                  for n in ("Ana", "Bruno"))
    watcher = client.get(f"{API}/{table}", headers=bearer(key)).get_json()
    assert ana["log"]["deal"]["Ana"] == log["deal"]["Ana"]
    assert ana["log"]["deal"]["Bruno"] == [None] * 5
    assert bruno["log"]["deal"]["Bruno"] == log["deal"]["Bruno"]
    assert watcher["log"]["deal"] == {n: [None] * 5 for n in log["players"]}
    assert ana["log"]["turns"][0]["draw"] == log["turns"][0]["draw"]
    assert bruno["log"]["turns"][0]["draw"] == [None, None]
    assert watcher["log"]["turns"][0]["lay"] == log["turns"][0]["lay"]  # laid: shown to all
    for card in log["deal"]["Ana"]:  # (the choices offer every card not known elsewhere)
        if card not in json.dumps(log["turns"][0]):
            for screen in (bruno, watcher):
                assert card not in json.dumps([screen[k] for k in ("log", "hand", "result")])
    # the entries as a spectator's stream sends them: the hands left out
    entries = client.get(f"{API}/{table}/entries?after=0", headers=bearer(key)).get_json()
    assert entries["entries"][0]["value"] == [None] * 5

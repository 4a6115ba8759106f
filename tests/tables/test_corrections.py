"""Corrections of a table's earlier entries (docs/table.md "Corrections"): a seat corrects its own
entry, not another's (403), the host any; a correction that makes a later entry illegal is
refused naming that entry (or taken with its fix); every correction is kept (who, when, old, new)
and shown in the table, the stored game's JSON and its replay page (Flask test client, SQLite and
PostgreSQL)."""

from __future__ import annotations

import itertools

from tests.tables.helpers import API, Table, bearer, game_log

_ids = itertools.count(1)


def played(client, turns=3):
    """A seated table: round 1 dealt and its first ``turns`` turns entered."""
    table = Table(client, game_log())
    for name in table.log["players"]:
        assert table.join(name).status_code == 201
    assert [a.status_code for a in table.deal(0)] == [201] * 4
    for k in range(turns):
        assert [a.status_code for a in table.turn(0, k)] == [201] * 4
    return table


def turn_seqs(client, table):
    """The sequence number of each turn's whole entry (what put the turn in the draft)."""
    entries = client.get(f"{API}/{table.id}/entries", headers=bearer(table.host)).get_json()
    return [e["seq"] for e in entries["entries"]
            if e["kind"] == "place" and e["at"] == "/rounds/0/turns"]


def correct(client, table, who, seq, changes, *, fixes=None, lang=None):
    token = table.token(who)
    seen = client.get(f"{API}/{table.id}", headers=bearer(token)).get_json()["seq"]
    body = {"id": f"c{next(_ids)}", "seen": seen, "seq": seq, "set": changes}
    if fixes is not None:
        body["fixes"] = fixes
    query = f"?lang={lang}" if lang else ""
    return client.post(f"{API}/{table.id}/corrections{query}", headers=bearer(token), json=body)


def whole(client, table):
    return client.get(f"{API}/{table.id}/log", headers=bearer(table.host)).get_json()["log"]


def plays(log, k):
    return log["rounds"][0]["turns"][k]["plays"]


def test_a_seat_corrects_its_own_card_and_the_table_is_checked_again(client):
    table = played(client)
    seqs = turn_seqs(client, table)
    later = table.log["rounds"][0]["turns"][3]["plays"]["Bruno"]  # a card still in Bruno's hand
    before = client.get(f"{API}/{table.id}/entries", headers=bearer(table.host)).get_json()
    answer = correct(client, table, "Bruno", seqs[2], {"/plays/Bruno": later})
    assert answer.status_code == 201, answer.get_json()
    [seq] = answer.get_json()["seqs"]
    assert seq == before["entries"][-1]["seq"] + 1  # its own sequence number, appended
    assert plays(whole(client, table), 2)["Bruno"] == later
    # append-only: the corrected entry itself is unchanged in the list, the correction follows
    after = client.get(f"{API}/{table.id}/entries", headers=bearer(table.host)).get_json()
    def ids(entries):
        return [(e["seq"], e["id"], e["by"], e["kind"]) for e in entries]

    assert ids(after["entries"][:-1]) == ids(before["entries"])
    last = after["entries"][-1]
    assert last["kind"] == "correct" and last["who"] == "Bruno" and last["entries"] == [seqs[2]]
    old = table.log["rounds"][0]["turns"][2]["plays"]["Bruno"]
    assert last["changes"] == [{"entry": seqs[2], "path": "/plays/Bruno",
                                "pointer": "/rounds/0/turns/2/plays/Bruno",
                                "old": old, "new": later}]
    view = table.view("Alice")
    [shown] = view["corrections"]
    assert shown["who"] == "Bruno" and shown["entry"] == seqs[2] and shown["at"]
    assert shown["changes"][0]["old"] == old and shown["changes"][0]["new"] == later


def test_a_seat_cannot_correct_another_seats_card(client):
    table = played(client, turns=1)
    [seq] = turn_seqs(client, table)
    card = table.log["rounds"][0]["turns"][1]["plays"]["Bruno"]
    answer = correct(client, table, "Alice", seq, {"/plays/Bruno": card})
    assert answer.status_code == 403
    assert "another seat's" in answer.get_json()["message"]
    assert not table.view("host")["corrections"]


def test_the_host_corrects_any_entry(client):
    table = played(client)
    seqs = turn_seqs(client, table)
    later = table.log["rounds"][0]["turns"][3]["plays"]["Chloé"]
    answer = correct(client, table, "host", seqs[2], {"/plays/Chloé": later})
    assert answer.status_code == 201, answer.get_json()
    assert plays(whole(client, table), 2)["Chloé"] == later
    assert table.view("Bruno")["corrections"][0]["who"] == "host"


def test_a_correction_breaking_a_later_entry_is_refused_naming_it(client):
    table = played(client)
    seqs = turn_seqs(client, table)
    first = plays(table.log, 0)["Bruno"]
    third = plays(table.log, 2)["Bruno"]
    # Bruno's card of turn 1 becomes the card he played in turn 3: turn 3 is now illegal
    before = client.get(f"{API}/{table.id}", headers=bearer(table.host)).get_json()["seq"]
    answer = correct(client, table, "Bruno", seqs[0], {"/plays/Bruno": third})
    assert answer.status_code == 422
    body = answer.get_json()
    assert f"entry {seqs[2]} illegal" in body["message"]
    [error] = body["errors"]
    assert error["seq"] == seqs[2]
    assert error["entry"] == "/rounds/0/turns/2"
    assert error["path"].startswith("/rounds/0/turns/2")
    assert error["words"]["where"] == "Round 1, turn 3 — Bruno"
    assert error["message"] and error["message_id"]
    # nothing appended, and the others are not told
    assert client.get(f"{API}/{table.id}", headers=bearer(table.host)).get_json()["seq"] == before
    # in French too
    fr = correct(client, table, "Bruno", seqs[0], {"/plays/Bruno": third}, lang="fr")
    assert fr.get_json()["errors"][0]["words"]["where"] == "Manche 1, tour 3 — Bruno"
    assert fr.get_json()["errors"][0]["message"] != error["message"]
    # with the fix of the later entry (the two cards swapped), it is taken
    both = correct(client, table, "Bruno", seqs[0], {"/plays/Bruno": third},
                   fixes=[{"seq": seqs[2], "set": {"/plays/Bruno": first}}])
    assert both.status_code == 201, both.get_json()
    log = whole(client, table)
    assert plays(log, 0)["Bruno"] == third and plays(log, 2)["Bruno"] == first
    [shown] = table.view("Alice")["corrections"][:1]
    assert shown["entry"] == seqs[0]
    assert [c["entry"] for c in table.view("Alice")["corrections"]] == [seqs[0], seqs[2]]


def test_a_correction_of_an_illegal_value_is_refused_by_the_rules(client):
    table = played(client, turns=2)
    seqs = turn_seqs(client, table)
    alice = plays(table.log, 0)["Alice"]  # Alice's card: Bruno never held it
    answer = correct(client, table, "Bruno", seqs[1], {"/plays/Bruno": alice})
    assert answer.status_code == 422
    assert answer.get_json()["message"] == "Refused by the rules."
    assert answer.get_json()["errors"][0]["words"]["where"].startswith("Round 1, turn 2")


def test_corrections_are_kept_and_shown_on_the_stored_game_and_its_replay(client):
    table = played(client)
    seqs = turn_seqs(client, table)
    old = plays(table.log, 2)["Bruno"]
    later = plays(table.log, 3)["Bruno"]
    assert correct(client, table, "Bruno", seqs[2], {"/plays/Bruno": later}).status_code == 201
    stored = client.post(f"{API}/{table.id}/store", json={"visibility": "public"},
                         headers=bearer(table.host))
    assert stored.status_code == 201, stored.get_json()
    slug = stored.get_json()["slug"]
    game = client.get(f"/api/v1/games/{slug}").get_json()
    [fix] = game["corrections"]
    assert fix["who"] == "Bruno" and fix["entry"] == seqs[2] and fix["at"]
    assert fix["changes"] == [{"path": "/plays/Bruno", "pointer": "/rounds/0/turns/2/plays/Bruno",
                               "old": old, "new": later}]
    hhmm = fix["at"][11:16]
    words = " ".join(str(c) for c in old), " ".join(str(c) for c in later)
    assert fix["text"] == (f"corrected by Bruno at {hhmm} UTC: Round 1, turn 3 — Bruno, "
                           f"{words[0]} → {words[1]}")
    page = client.get(f"/r/{slug}?lang=en").get_data(as_text=True)
    assert 'id="corrections"' in page and fix["text"] in page
    fr = client.get(f"/r/{slug}?lang=fr").get_data(as_text=True)
    assert f"corrigé par Bruno à {hhmm} UTC\u00a0: Manche 1, tour 3 — Bruno" in fr
    # the stored game takes no more corrections
    late = correct(client, table, "Bruno", seqs[2], {"/plays/Bruno": old})
    assert late.status_code == 409


def test_a_hand_corrected_while_its_round_is_played_stays_hidden_from_the_others(client):
    table = played(client, turns=0)
    rnd = table.log["rounds"][0]
    dealt = {c for row in rnd["layout"] for c in row} | {
        c for hand in rnd["hands"].values() for c in hand}
    spare = min(set(range(1, 51)) - dealt)
    hand = list(rnd["hands"]["Bruno"])
    new = sorted(hand[1:] + [spare])
    [seq] = [e["seq"] for e in client.get(f"{API}/{table.id}/entries",
                                          headers=bearer(table.host)).get_json()["entries"]
             if e["kind"] == "place" and e["at"] == "/rounds"]
    answer = correct(client, table, "Bruno", seq, {"/hands/Bruno": new})
    assert answer.status_code == 201, answer.get_json()
    assert whole(client, table)["rounds"][0]["hands"]["Bruno"] == new
    assert sorted(table.view("Bruno")["hand"]) == new
    [mine] = table.view("Bruno")["corrections"]
    assert mine["changes"][0]["new"] == new
    for who in ("Alice", "host", "watch"):
        [theirs] = table.view(who)["corrections"]
        assert theirs["changes"][0] == {"path": "/hands/Bruno",
                                        "pointer": "/rounds/0/hands/Bruno", "old": None,
                                        "new": None, "hidden": True}
    listed = client.get(f"{API}/{table.id}/entries", headers=bearer(table.key)).get_json()
    assert listed["entries"][-1]["changes"][0]["new"] is None
    words = client.get(f"{API}/{table.id}/corrections", headers=bearer(table.key)).get_json()
    assert words["corrections"][0]["text"].endswith("Round 1 — Bruno, a hidden card")
    assert all("hands" not in r for r in table.view("Alice")["log"]["rounds"])


def test_a_correction_sent_as_an_entry_and_malformed_ones(client):
    table = played(client, turns=1)
    [seq] = turn_seqs(client, table)
    later = plays(table.log, 1)["Bruno"]
    for bad, status in (({"seq": seq, "set": {"/plays/Bruno": later}, "fixes": 5}, 422),
                        ({"seq": seq, "set": {}}, 422),
                        ({"seq": seq, "set": {"plays": later}}, 422),
                        ({"seq": seq, "set": {"/plays/Bruno/5000": 1}}, 422),
                        ({"seq": 1, "set": {"/0": 1}}, 422),  # a part: it put nothing in
                        ({"seq": "x", "set": {"/plays/Bruno": later}}, 422)):
        answer = table.send("Bruno", {"type": "correct", **bad})
        assert answer.status_code == status, (bad, answer.get_json())
        assert answer.get_json()["errors"][0]["path"].startswith("/entry")
    done = table.send("Bruno", {"type": "correct", "seq": seq, "set": {"/plays/Bruno": later}})
    assert done.status_code == 201, done.get_json()
    assert plays(whole(client, table), 0)["Bruno"] == later
    watcher = client.post(f"{API}/{table.id}/corrections", headers=bearer(table.key), json={
        "id": "w1", "seen": 0, "seq": seq, "set": {"/plays/Bruno": later}})
    assert watcher.status_code == 403

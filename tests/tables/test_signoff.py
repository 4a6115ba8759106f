"""Sign-off (docs/table.md "Sign-off"): at the end each seat sees the result beside its score
sheet and confirms it or disputes it (a step and a sentence); the stored game shows "confirmed
by 3 of 3" or "Bruno disputes Round 1, turn 2: …" in the list, on the replay page and in the API, in
English and French (Flask test client, SQLite and PostgreSQL)."""

from __future__ import annotations

from tests.tables.helpers import API, bearer
from tests.tables.test_corrections import correct, played


def sign(client, table, who, **body):
    return client.post(f"{API}/{table.id}/signoff", headers=bearer(table.token(who)), json=body)


def store(client, table):
    stored = client.post(f"{API}/{table.id}/store", json={"visibility": "public"},
                         headers=bearer(table.host))
    assert stored.status_code == 201, stored.get_json()
    return stored.get_json()["slug"]


def test_sign_off_waits_for_the_end_and_only_seats_sign(client):
    table = played(client, turns=1)
    early = sign(client, table, "Alice", verdict="confirm")
    assert early.status_code == 409
    assert "not over" in early.get_json()["message"]
    answer = client.get(f"{API}/{table.id}/signoff", headers=bearer(table.token("Alice")))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["open"] is False
    assert [f["key"] for f in body["claimable"]] == ["rounds", "totals", "winners"]
    assert body["claimable"][1]["label"] == "Total points"
    store(client, table)
    assert sign(client, table, "host", verdict="confirm").status_code == 403


def test_three_of_three_confirm_shown_in_the_api_the_list_and_the_replay(client):
    table = played(client, turns=2)
    slug = store(client, table)  # stored unfinished: sign-off is open, after storing too
    for name in table.log["players"]:
        answer = sign(client, table, name, verdict="confirm")
        assert answer.status_code == 201, answer.get_json()
    game = client.get(f"/api/v1/games/{slug}").get_json()
    assert game["signoff"] == {"table": table.id, "players": 3, "confirmed": 3,
                               "confirmed_by": ["Alice", "Bruno", "Chloé"], "disputes": [],
                               "waiting": [], "text": "confirmed by 3 of 3"}
    fr = client.get(f"/api/v1/games/{slug}?lang=fr").get_json()
    assert fr["signoff"]["text"] == "confirmé par 3 sur 3"
    listed = client.get("/api/v1/games").get_json()["items"]
    assert next(g for g in listed if g["slug"] == slug)["signoff"]["text"] == \
        "confirmed by 3 of 3"
    home = client.get("/?lang=en").get_data(as_text=True)
    assert "confirmed by 3 of 3" in home
    assert "confirmé par 3 sur 3" in client.get("/?lang=fr").get_data(as_text=True)
    page = client.get(f"/r/{slug}?lang=en").get_data(as_text=True)
    assert 'id="signoff-text"' in page and "confirmed by 3 of 3" in page
    assert "confirmé par 3 sur 3" in client.get(f"/r/{slug}?lang=fr").get_data(as_text=True)


def test_a_dispute_names_a_step_and_a_sentence_and_is_shown_everywhere(client):
    table = played(client, turns=2)
    slug = store(client, table)
    assert sign(client, table, "Bruno", verdict="dispute", sentence="No.").status_code == 422
    assert sign(client, table, "Bruno", verdict="dispute", step=5).status_code == 422
    assert sign(client, table, "Bruno", verdict="dispute", step=9999,
                sentence="No.").status_code == 422
    answer = sign(client, table, "Bruno", verdict="dispute", step=5,
                  sentence="I played 21, not 17.")
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["yours"] == {"verdict": "dispute", "step": 5,
                                          "sentence": "I played 21, not 17.", "claims": None,
                                          "current": True}
    assert sign(client, table, "Alice", verdict="confirm").status_code == 201
    game = client.get(f"/api/v1/games/{slug}").get_json()
    signed = game["signoff"]
    assert signed["text"] == "confirmed by 1 of 3"
    assert signed["waiting"] == ["Chloé"]
    [dispute] = signed["disputes"]
    assert dispute["player"] == "Bruno" and dispute["step"] == 5
    # in words: the round and turn of replay step 5, never the step's number
    step = client.get(f"/api/v1/games/{slug}/replay").get_json()["steps"][5]
    en, fr_words = (f"Round {step['round']}, turn {step['turn']}",
                    f"Manche {step['round']}, tour {step['turn']}")
    assert dispute["text"] == f"Bruno disputes {en}: I played 21, not 17."
    fr = client.get(f"/api/v1/games/{slug}", headers={"Accept-Language": "fr"}).get_json()
    assert fr["signoff"]["disputes"][0]["text"] == \
        f"Bruno conteste {fr_words}\u00a0: I played 21, not 17."
    home = client.get("/?lang=en").get_data(as_text=True)
    assert f"Bruno disputes {en}: I played 21, not 17." in home
    assert f"Bruno conteste {fr_words}" in client.get("/?lang=fr").get_data(as_text=True)
    page = client.get(f"/r/{slug}?lang=en").get_data(as_text=True)
    assert f'<a href="#step=5">Bruno disputes {en}: I played 21, not 17.</a>' in page
    assert "step 5" not in page
    fr_page = client.get(f"/r/{slug}?lang=fr").get_data(as_text=True)
    assert f"Bruno conteste {fr_words}\u00a0: I played 21, not 17." in fr_page
    assert "pas encore signé\u00a0: Chloé" in fr_page


def test_the_seats_claims_are_compared_by_the_engine(client):
    table = played(client, turns=2)
    store(client, table)
    view = client.get(f"{API}/{table.id}/signoff", headers=bearer(table.token("Alice")))
    result = view.get_json()["result"]
    totals = {p: s for p, s in result["outcome"]["totals"].items()}
    right = sign(client, table, "Alice", verdict="confirm", claims={"totals": totals})
    assert right.status_code == 201, right.get_json()
    assert right.get_json()["claims"]["match"] is True
    wrong = dict(totals, Alice=totals["Alice"] + 5)
    other = sign(client, table, "Bruno", verdict="confirm", claims={"totals": wrong})
    assert other.get_json()["claims"]["match"] is False
    assert other.get_json()["claims"]["differences"]
    bad = sign(client, table, "Chloé", verdict="confirm", claims={"totals": "many"})
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["path"].startswith("/claims/totals")


def test_a_sign_off_given_before_the_draft_last_changed_waits_again(app):
    from types import SimpleNamespace

    from popreplay.tables import signoff

    table = SimpleNamespace(id="t1", start={"log": {"players": ["Ana", "Bruno", "Chloé"]}})

    def given(player, seq, verdict="confirm"):
        return SimpleNamespace(player=player, seq=seq, verdict=verdict, step=None,
                               sentence=None, created_at=None)

    with app.test_request_context():
        done = signoff.summary(table, [given("Ana", 40), given("Bruno", 31), given("Chloé", 40)],
                               40, "en")
    assert done["confirmed_by"] == ["Ana", "Chloé"] and done["waiting"] == ["Bruno"]
    assert done["text"] == "confirmed by 2 of 3"


def test_a_live_game_the_engine_says_is_over_is_signed_off_and_a_correction_resets_it(client):
    table = played(client, turns=0)
    rounds = table.log["rounds"]
    for r, rnd in enumerate(rounds):
        if r:
            assert [a.status_code for a in table.deal(r)] == [201] * 4
        for k in range(len(rnd["turns"])):
            assert [a.status_code for a in table.turn(r, k)] == [201] * 4
    assert table.view("Alice")["over"] is True
    for name in table.log["players"]:
        assert sign(client, table, name, verdict="confirm").status_code == 201
    answer = client.get(f"{API}/{table.id}/signoff", headers=bearer(table.token("Alice")))
    assert answer.get_json()["signoff"]["text"] == "confirmed by 3 of 3"
    # the host swaps two of Alice's cards in the last round: every sign-off waits again
    last = len(rounds) - 1
    seqs = [e["seq"] for e in client.get(f"{API}/{table.id}/entries",
                                         headers=bearer(table.host)).get_json()["entries"]
            if e["kind"] == "place" and e["at"] == f"/rounds/{last}/turns"]
    one, two = (rounds[last]["turns"][k]["plays"]["Alice"] for k in (0, 1))
    fixed = correct(client, table, "host", seqs[0], {"/plays/Alice": two},
                    fixes=[{"seq": seqs[1], "set": {"/plays/Alice": one}}])
    assert fixed.status_code == 201, fixed.get_json()
    again = client.get(f"{API}/{table.id}/signoff", headers=bearer(table.token("Alice")))
    body = again.get_json()
    assert body["signoff"]["confirmed"] == 0
    assert body["signoff"]["waiting"] == ["Alice", "Bruno", "Chloé"]
    assert body["yours"]["current"] is False
    slug = store(client, table)
    assert client.get(f"/api/v1/games/{slug}").get_json()["signoff"]["text"] == \
        "confirmed by 0 of 3"

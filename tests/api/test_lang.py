"""The API in French and English: ``?lang=``, then ``Accept-Language``; ids and parameters kept."""

from __future__ import annotations

import json
from pathlib import Path

from popreplay.checking import check_text
from popreplay.i18n import negotiate
from tests.conftest import as_bytes, simulated

API = "/api/v1"
GOLDEN = Path(__file__).resolve().parent.parent / "golden"
SPEC_KEYS = ["code", "message", "round", "turn", "path"]


def illegal_log() -> bytes:
    log = simulated("battle", 3, seed=4)
    log["rounds"][0]["turns"][0]["plays"]["Alice"] = [99]
    return as_bytes(log)


def validate(client, raw: bytes, headers=None, **query):
    return client.post(f"{API}/validate", data=raw, content_type="application/json",
                       query_string=query, headers=headers or {})


def test_negotiate_query_then_accept_language_then_english():
    assert negotiate("fr", "en") == "fr"
    assert negotiate("en", "fr-FR") == "en"
    assert negotiate("FR-be", None) == "fr"
    assert negotiate("de", "fr;q=0.5, de") == "fr"  # unknown ?lang= falls through
    assert negotiate(None, "de-DE, fr-CA;q=0.8, en;q=0.7") == "fr"
    assert negotiate(None, "en-GB, fr;q=0.9") == "en"
    assert negotiate(None, "fr;q=0, en;q=0.1") == "en"
    assert negotiate(None, "it, es") == "en"
    assert negotiate(None, None) == "en"
    assert negotiate("", "") == "en"


def test_validate_in_french_keeps_code_id_and_params(client):
    raw = illegal_log()
    english = validate(client, raw).get_json()
    french = validate(client, raw, lang="fr").get_json()
    assert english["status"] == french["status"] == "illegal"
    [en], [fr] = english["errors"], french["errors"]
    assert en["message"] == "there is no card 99: cards are numbered 1 to 50"
    assert fr["message"] == "il n'y a pas de carte 99\u00a0: les cartes sont numérotées de 1 à 50"
    for entry in (en, fr):
        assert entry["code"] == "unknown-card"
        assert entry["message_id"] == "pop.unknown-card"
        assert entry["params"] == {"card": 99}
    assert {k: en[k] for k in SPEC_KEYS} == check_text(raw)["errors"][0]


def test_validate_accept_language_and_vary(client):
    raw = illegal_log()
    response = validate(client, raw, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert response.get_json()["errors"][0]["message"].startswith("il n'y a pas de carte 99")
    assert "Accept-Language" in response.headers["Vary"]
    query_wins = validate(client, raw, headers={"Accept-Language": "fr"}, lang="en")
    assert query_wins.get_json()["errors"][0]["message"].startswith("there is no card 99")


def test_validate_with_steps_renders_notes_in_french(client):
    raw = (GOLDEN / "pop" / "chief-pile-taken.log.json").read_bytes()
    body = validate(client, raw, steps="true", lang="fr").get_json()
    notes = [s["note"] for s in body["steps"]]
    assert any("récupère aussi les cartes en attente du Chef Multicolore" in n for n in notes)
    english = check_text(raw, with_steps=True)["steps"]
    assert [s["note_id"] for s in body["steps"]] == [s["note_id"] for s in english]
    assert [s["note_params"] for s in body["steps"]] == [s["note_params"] for s in english]
    assert [s["kind"] for s in body["steps"]] == [s["kind"] for s in english]


def test_ndjson_validation_in_french(client):
    lines = illegal_log().replace(b"\n", b"") + b"\n"
    response = client.post(f"{API}/validate?lang=fr", data=lines,
                           content_type="application/x-ndjson")
    [line] = [json.loads(x) for x in response.data.decode().splitlines()]
    assert line["errors"][0]["message"].startswith("il n'y a pas de carte 99")


def test_stored_game_and_replay_in_french_with_their_own_etags(client):
    raw = illegal_log()
    created = client.post(f"{API}/games", data=raw, content_type="application/json").get_json()
    slug = created["slug"]
    en = client.get(f"{API}/games/{slug}")
    fr = client.get(f"{API}/games/{slug}", headers={"Accept-Language": "fr"})
    assert en.get_json()["result"]["errors"][0]["message"].startswith("there is no card 99")
    [error] = fr.get_json()["result"]["errors"]
    assert error["message"].startswith("il n'y a pas de carte 99")
    assert error["message_id"] == "pop.unknown-card" and error["code"] == "unknown-card"
    assert en.headers["ETag"] != fr.headers["ETag"]
    assert "Accept-Language" in fr.headers["Vary"]

    replay_en = client.get(f"{API}/games/{slug}/replay")
    replay_fr = client.get(f"{API}/games/{slug}/replay", query_string={"lang": "fr"})
    assert replay_en.headers["ETag"] != replay_fr.headers["ETag"]
    assert "Accept-Language" in replay_fr.headers["Vary"]
    body_en, body_fr = replay_en.get_json(), replay_fr.get_json()
    assert body_en["steps"][-1]["note"].startswith("Illegal: there is no card 99")
    assert body_fr["steps"][-1]["note"].startswith("Coup irrégulier\u00a0: il n'y a pas de carte 99")
    assert body_fr["errors"][0]["message_id"] == "pop.unknown-card"
    assert body_fr["steps"][0]["note"].startswith("Manche 1\u00a0:")
    again = client.get(f"{API}/games/{slug}/replay?lang=fr",
                       headers={"If-None-Match": replay_fr.headers["ETag"]})
    assert again.status_code == 304
    listed = client.get(f"{API}/games", query_string={"lang": "fr"}).get_json()["items"]
    # a list reads no log (issue 15): its errors are rendered from the ids stored with them
    (error,) = listed[0]["result"]["errors"]
    assert error["message"].startswith("il n'y a pas de carte 99")
    assert error["message_id"] == "pop.unknown-card"


def test_the_recorders_check_speaks_french(client):
    log = simulated("battle", 3, seed=4)
    log.pop("claimed", None)
    log["rounds"] = [dict(log["rounds"][0], turns=log["rounds"][0]["turns"][:2])]
    log["rounds"][0]["turns"][1]["plays"]["Alice"] = [99]
    english = client.post(f"{API}/record/check", json={"log": log}).get_json()
    french = client.post(f"{API}/record/check?lang=fr", json={"log": log}).get_json()
    assert english["result"]["errors"][0]["message"].startswith("there is no card 99")
    assert french["result"]["errors"][0]["message"].startswith("il n'y a pas de carte 99")
    assert french["result"]["errors"][0]["code"] == "unknown-card"
    assert french["choices"]["error"]["message"].startswith("il n'y a pas de carte 99")
    assert [s["note_id"] for s in french["steps"]] == [s["note_id"] for s in english["steps"]]
    assert french["steps"][0]["note"].startswith("Manche 1\u00a0:")
    assert french["steps"][-1]["note"].startswith("Coup irrégulier\u00a0:")
    assert all(s["note_id"] for s in french["steps"])  # trimmed steps keep their ids too


def test_shape_errors_in_french_where_they_have_ids(client):
    broken = validate(client, b'{"game": "pop",', lang="fr").get_json()
    [error] = broken["errors"]
    assert error["code"] == "json" and error["message_id"] == "json.not-json"
    assert error["message"].startswith("Le journal n'est pas du JSON valide\u00a0: ")
    assert error["params"]["line"] == 1
    shape = validate(client, b'{"format": "popreplay/1", "game": "pop", "mode": "battle"}',
                     lang="fr").get_json()
    assert shape["status"] == "invalid"
    by_path = {e["path"]: e for e in shape["errors"]}
    assert by_path["/players"]["message"] == "clé obligatoire manquante"
    assert by_path["/players"]["message_id"] == "shape.required"
    english = validate(client, b'{"format": "popreplay/1", "game": "pop", "mode": "battle"}')
    assert {e["path"]: e["message"] for e in english.get_json()["errors"]}["/players"] == \
        "required key is missing"


def test_a_refused_upload_lists_its_errors_in_french(client):
    response = client.post(f"{API}/games?lang=fr", data=b'{"format": "popreplay/1", "game": '
                           b'"pop", "mode": "battle"}', content_type="application/json")
    assert response.status_code == 422
    by_path = {e["path"]: e for e in response.get_json()["errors"]}
    assert by_path["/players"]["message"] == "clé obligatoire manquante"
    assert by_path["/players"]["code"] == "schema"


def test_a_stored_bloops_game_has_its_remarks_in_french(client):
    raw = (GOLDEN / "bloops" / "unknown-card-at-the-end.log.json").read_bytes()
    slug = client.post(f"{API}/games", data=raw, content_type="application/json").get_json()["slug"]
    english = client.get(f"{API}/games/{slug}").get_json()["result"]["outcome"]["notes"]
    french = client.get(f"{API}/games/{slug}?lang=fr").get_json()["result"]["outcome"]["notes"]
    assert english == check_text(raw)["outcome"]["notes"]
    assert french == ["Le score de Ben est inconnu\u00a0: l'emplacement en bas à droite n'est pas révélé.",
                      "Les gagnants sont inconnus\u00a0: toutes les cartes ne sont pas révélées."]


def test_the_recorders_pending_entry_errors_speak_french(client):
    log = simulated("battle", 3, seed=4)
    log.pop("claimed", None)
    log["rounds"] = [dict(log["rounds"][0], turns=[])]
    held = sorted(log["rounds"][0]["hands"]["Bruno"])[0]  # Bruno's card, not Alice's
    body = {"log": log, "pending": {"entry": "turn", "cards": [held]}}
    english = client.post(f"{API}/record/check", json=body).get_json()["choices"]["error"]
    french = client.post(f"{API}/record/check?lang=fr", json=body).get_json()["choices"]["error"]
    assert english["code"] == french["code"] == "pending"
    assert english["message"] == f"card {held} cannot be played by Alice now"
    assert french["message"] == f"la carte {held} ne peut pas être jouée par Alice maintenant"
    assert french["message_id"] == "pop.pending.card"


def test_saving_and_continuing_a_draft_speak_french(client):
    # The recorder's save (POST), open (GET) and update (PUT) show the result as /games does.
    log = simulated("battle", 3, seed=4)
    log.pop("claimed", None)
    log["rounds"] = [dict(log["rounds"][0], turns=log["rounds"][0]["turns"][:2])]
    log["rounds"][0]["turns"][1]["plays"]["Alice"] = [99]
    saved = client.post(f"{API}/record/games?lang=fr", json={"log": log})
    assert saved.status_code == 201 and "Accept-Language" in saved.headers["Vary"]
    [error] = saved.get_json()["result"]["errors"]
    assert error["message"].startswith("il n'y a pas de carte 99")
    assert error["message_id"] == "pop.unknown-card" and error["code"] == "unknown-card"
    slug, auth = saved.get_json()["slug"], {"Authorization": f"Bearer {saved.get_json()['owner_token']}"}

    opened = client.get(f"{API}/record/games/{slug}", headers={**auth, "Accept-Language": "fr"})
    assert "Accept-Language" in opened.headers["Vary"]
    assert opened.get_json()["game"]["result"]["errors"][0]["message"].startswith(
        "il n'y a pas de carte 99")
    english = client.get(f"{API}/record/games/{slug}", headers=auth).get_json()
    assert english["game"]["result"]["errors"][0]["message"].startswith("there is no card 99")

    log["rounds"][0]["turns"][1]["plays"]["Alice"] = [98]
    updated = client.put(f"{API}/record/games/{slug}?lang=fr", json={"log": log}, headers=auth)
    assert updated.status_code == 200 and "Accept-Language" in updated.headers["Vary"]
    assert updated.get_json()["result"]["errors"][0]["message"].startswith(
        "il n'y a pas de carte 98")
    broken = {k: v for k, v in log.items() if k != "players"}
    refused = client.put(f"{API}/record/games/{slug}?lang=fr", json={"log": broken}, headers=auth)
    assert refused.status_code == 422
    by_path = {e["path"]: e for e in refused.get_json()["errors"]}
    assert by_path["/log/players"]["message"] == "clé obligatoire manquante"

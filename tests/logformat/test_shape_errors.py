"""Shape errors: every problem reported at once, each with its JSON Pointer; nothing replayed."""

from __future__ import annotations

import json

from popreplay.checking import check_log, check_text

BASE = {"format": "popreplay/1", "game": "pop", "mode": "battle", "players": ["Ana", "Ben"],
        "rounds": [{"layout": [[21, 32, 23, 34, 25]], "turns": []}]}


def _errors(log):
    result = check_log(log)
    assert result["status"] == "invalid" and result["legal"] is False
    assert result["outcome"] is None and result["claims"] is None
    return {(e["code"], e["path"]) for e in result["errors"]}


def test_every_shape_error_is_listed_with_its_pointer():
    log = json.loads(json.dumps(BASE))
    log["format"] = "popreplay/2"
    log["players"] = ["Ana", 7]
    log["rounds"][0]["layout"] = [[1, 2, 3]]
    log["rounds"][0]["turns"] = [{"plays": {"Ana": ["12"]}, "chief": 4, "chef": []}]
    log["colour"] = "blue"
    assert _errors(log) == {
        ("schema", "/format"), ("schema", "/players/1"), ("schema", "/rounds/0/layout/0"),
        ("schema", "/rounds/0/turns/0/plays/Ana/0"), ("schema", "/rounds/0/turns/0/chief"),
        ("schema", "/rounds/0/turns/0/chef"), ("schema", "/colour"),
    }


def test_missing_required_keys_point_where_they_belong():
    assert _errors({"format": "popreplay/1", "game": "pop"}) == {
        ("schema", "/mode"), ("schema", "/players"), ("schema", "/rounds")}


def test_pointer_tokens_are_escaped():
    log = json.loads(json.dumps(BASE))
    log["rounds"][0]["turns"] = [{"plays": {"a/b~c": [True]}}]
    assert _errors(log) == {("schema", "/rounds/0/turns/0/plays/a~1b~0c/0")}


def test_booleans_and_numeric_strings_are_not_integers_but_3_0_is():
    log = json.loads(json.dumps(BASE))
    log["rounds"][0]["layout"] = [[True, "32", 23.5, 34, 25]]
    assert _errors(log) == {("schema", "/rounds/0/layout/0/0"), ("schema", "/rounds/0/layout/0/1"),
                            ("schema", "/rounds/0/layout/0/2")}
    log["rounds"][0]["layout"] = [[21.0, 32, 23, 34, 25]]
    result = check_log(log)
    assert result["status"] == "incomplete"


def test_meta_is_free_but_other_unknown_keys_are_not():
    log = json.loads(json.dumps(BASE))
    log["meta"] = {"anything": [1, {"goes": True}], "title": "x"}
    assert check_log(log)["status"] == "incomplete"
    log["rounds"][0]["note"] = "misspelt"
    assert _errors(log) == {("schema", "/rounds/0/note")}


def test_unknown_game_is_a_shape_error_at_game():
    log = dict(BASE, game="chess")
    result = check_log(log)
    assert [(e["code"], e["path"]) for e in result["errors"]] == [("schema", "/game")]
    assert "known games" in result["errors"][0]["message"] and "pop" in result["errors"][0][
        "message"]
    assert result["game"] == "chess"


def test_a_name_that_is_not_a_player_is_a_rule_violation_not_a_shape_error():
    log = json.loads(json.dumps(BASE))
    log["rounds"][0]["turns"] = [{"plays": {"Zed": [1]}}]
    result = check_log(log)
    assert result["status"] == "illegal"
    assert result["errors"][0]["code"] == "unknown-player"


def test_not_json_reports_line_and_column():
    result = check_text('{"format": "popreplay/1",\n  "game": }')
    assert result["status"] == "invalid"
    (error,) = result["errors"]
    assert error["code"] == "json" and error["path"] == ""
    assert "line 2, column 11" in error["message"]


def test_limits_are_shape_errors():
    log = json.loads(json.dumps(BASE))
    log["players"] = [f"p{i}" for i in range(17)]
    assert ("schema", "/players") in _errors(log)
    log = json.loads(json.dumps(BASE))
    deep: list = [1]
    for _ in range(40):
        deep = [deep]
    log["meta"] = {"a": deep}
    assert _errors(log) == {("schema", "/meta")}


def test_non_utf8_and_non_object_inputs():
    assert check_text(b"\xff\xfe{}")["errors"][0]["code"] == "json"
    assert check_text("[]")["errors"][0]["path"] == ""
    assert check_text('{"a": NaN}')["errors"][0]["code"] == "json"
    assert check_text("\ufeff" + json.dumps(BASE))["status"] == "incomplete"


def _messages(log):
    return {e["path"]: e["message"] for e in check_log(log)["errors"]}


def test_an_unknown_key_close_to_a_known_one_is_named():
    """``claimed.winner`` (singular) is refused, pointing to ``winners``; a key close to nothing
    keeps the plain message."""
    log = json.loads(json.dumps(BASE))
    log["claimed"] = {"winner": ["Ana"]}
    log["rounds"][0]["turns"] = [{"plyas": {}, "xyz": 1}]
    assert _messages(log) == {
        "/claimed/winner": 'unknown key: did you mean "winners"? (free data belongs in "meta")',
        "/rounds/0/turns/0/plyas":
            'unknown key: did you mean "plays"? (free data belongs in "meta")',
        "/rounds/0/turns/0/xyz": 'unknown key (free data belongs in "meta")',
    }

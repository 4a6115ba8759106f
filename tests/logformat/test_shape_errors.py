"""Shape errors: every problem reported at once, each with its JSON Pointer; nothing replayed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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


def test_a_json_error_column_counts_characters_as_people_see_them():
    """Issue 16: the column counts code points (what an editor shows), not UTF-16 units nor
    bytes: an emoji (outside the BMP: 4 UTF-8 bytes, 2 UTF-16 units) is one column, an "é" too,
    a combining accent its own column (an editor shows it as one more code point)."""
    line = '{"players": ["\U0001F600 Zo\u00e9", "\U0001F3B2\U0001F3B2", "e\u0301"] x}'
    column = line.index("x") + 1  # Python strings are code points: 35
    assert column == 35
    before = line[:column - 1]
    assert len(before.encode("utf-16-le")) // 2 == column - 1 + 3  # 3 emoji: 3 more UTF-16 units
    cases = [(line, 1), (line.encode("utf-8"), 1), (b"\xef\xbb\xbf" + line.encode("utf-8"), 1),
             ("[\n" + line + "]", 2), (("[\r\n" + line + "]").encode("utf-8"), 2)]
    for text, row in cases:
        (error,) = check_text(text)["errors"]
        assert error["message"].endswith(f"at line {row}, column {column}."), (text, error)


def test_a_json_error_message_says_at_once():
    (error,) = check_text('{"a": "tab\there"}')["errors"]
    assert error["message"] == ("The log is not valid JSON: Invalid control character at line 1, "
                                "column 11.")


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


UNKNOWN = ["zeta", "alpha", "mu", "kappa", "beta", "omega", "delta", "sigma"]


def _with_unknown_keys() -> bytes:
    log = json.loads(json.dumps(BASE))
    for n, key in enumerate(UNKNOWN):
        log[key] = n
        log["rounds"][0][key.upper()] = n
    return json.dumps(log).encode()


def test_unknown_keys_come_in_the_order_the_log_wrote_them():
    """marshmallow finds unknown keys by a set difference, in an order that changes with Python's
    hash seed; the result lists them as the log wrote them, so the same bytes give the same
    result in every process (8 keys: another order would show up here nearly always)."""
    paths = [e["path"] for e in check_text(_with_unknown_keys())["errors"]]
    assert paths == [f"/rounds/0/{key.upper()}" for key in UNKNOWN] + [f"/{k}" for k in UNKNOWN]


def test_the_same_log_gives_the_same_errors_under_any_hash_seed(tmp_path):
    (tmp_path / "log.json").write_bytes(_with_unknown_keys())
    script = ("import sys, json; from popreplay.checking import check_text; "
              "print(json.dumps(check_text(open(sys.argv[1], 'rb').read())))")
    outputs = {subprocess.run([sys.executable, "-c", script, str(tmp_path / "log.json")],
                              env={**os.environ, "PYTHONHASHSEED": seed},
                              capture_output=True, check=True).stdout
               for seed in ("1", "2", "3")}
    assert len(outputs) == 1

"""The shape of a Bloops log: marshmallow layer and the published JSON Schema agree."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from popreplay.checking import check_log
from popreplay.engine import GAMES

from .logs import A, B, draw, log, turn

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas/popreplay/1/bloops.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GOLDEN = sorted((ROOT / "tests/golden/bloops").glob("*.log.json"))


def schema_errors(result: dict) -> list[tuple[str, str]]:
    assert result["status"] == "invalid", result
    return [(e["path"], e["message"]) for e in result["errors"]]


def test_the_json_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name[:-9])
def test_the_json_schema_agrees_with_the_shape_layer_on_golden_logs(path):
    data = json.loads(path.read_text("utf-8"))
    shape_ok = check_log(data)["status"] != "invalid"
    assert VALIDATOR.is_valid(data) == shape_ok


@pytest.mark.parametrize("players", [2, 5])
def test_simulated_logs_match_the_json_schema(players):
    for seed in range(3):
        VALIDATOR.validate(GAMES["bloops"].simulate(mode="classic", players=players, seed=seed))


@pytest.mark.parametrize(("event", "path", "message"), [
    ({"type": "discard", "player": A}, "/events/1/value", "required key is missing"),
    ({"type": "discard", "player": A, "value": "3"}, "/events/1/value", "must be an integer"),
    ({"type": "discard", "player": A, "value": True}, "/events/1/value", "must be an integer"),
    ({"type": "keep", "player": A, "value": 3}, "/events/1/place", "required key is missing"),
    ({"type": "discard", "player": A, "value": 3, "face": "up"}, "/events/1/face",
     "unknown key (free data belongs in \"meta\")"),
    ({"player": A}, "/events/1/type", "required key is missing"),
    ({"type": "pass", "player": A}, "/events/1/type",
     "\"type\" must be one of: draw, discard, keep, counter, give, look, swap, bloops, "
     "rearrange"),
    ([A], "/events/1", "must be an object"),
])
def test_event_shape_errors_point_at_the_event(event, path, message):
    result = check_log(log(events=[draw(A), event]))
    assert schema_errors(result) == [(path, message)]
    assert not VALIDATOR.is_valid(log(events=[draw(A), event]))


def test_values_beyond_the_deck_are_rule_violations_not_shape_errors():
    result = check_log(log(events=turn(A, 42)))
    assert result["status"] == "illegal"
    assert result["errors"][0]["code"] == "unknown-card"


@pytest.mark.parametrize(("body", "path"), [
    ({"options": {"two_player_variant": True}}, "/options/two_player_variant"),
    ({"deal": {A: 3}}, "/deal/Ana"),
    ({"deck": {"0": "many"}}, "/deck/0"),
    ({"reveal": {B: {"1": None}}}, "/reveal/Ben/1"),
    ({"claimed": {"ended_by": "timeout"}}, "/claimed/ended_by"),
    ({"claimed": {"rounds": []}}, "/claimed/rounds"),
    ({"mode": "battle"}, "/mode"),
])
def test_body_shape_errors(body, path):
    data = log(**{k: v for k, v in body.items() if k != "mode"})
    if "mode" in body:
        data["mode"] = body["mode"]
    assert [p for p, _ in schema_errors(check_log(data))] == [path]
    assert not VALIDATOR.is_valid(data)


def test_events_are_required_but_may_be_empty():
    data = log()
    assert check_log(data)["status"] == "incomplete"
    del data["events"]
    assert schema_errors(check_log(data)) == [("/events", "required key is missing")]


def test_claims_are_compared_with_the_outcome():
    data = log(deal={A: [0] * 6, B: [1] * 6}, events=turn(A, 20),
               claimed={"winners": [A], "scores": {B: 6}, "places": {A: {"1": 1}},
                        "ended_by": "bloops"})
    claims = check_log(data)["claims"]
    assert sorted(claims["differences"], key=lambda d: d["field"]) == [
        {"field": "/ended_by", "claimed": "bloops", "computed": "twenty"},
        {"field": "/places/Ana/1", "claimed": 1, "computed": 0},
    ]

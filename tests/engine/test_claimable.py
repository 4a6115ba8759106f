"""Game.claimable: what a score sheet can claim is a part of the published ``claimed`` schema, and
a claim made of exactly those fields is judged like any other (issue 24)."""

from __future__ import annotations

import pytest

from popreplay.checking import check_log
from popreplay.engine import GAMES
from popreplay.engine.claimable import KINDS
from popreplay.logformat import published_schema

MODES = [(g, m) for g in GAMES.values() for m in g.modes]


@pytest.mark.parametrize("game,mode", MODES, ids=[f"{g.name}-{m}" for g, m in MODES])
def test_every_declared_field_is_in_the_schema_with_its_values(game, mode):
    properties = published_schema(game.name)["$defs"]["claimed"]["properties"]
    fields = game.claimable(mode)
    assert fields
    for f in fields:
        assert f["kind"] in KINDS
        assert f["key"] in properties
        if f["kind"] == "choice":
            assert set(f["choices"]) <= set(properties[f["key"]]["enum"])
    assert "notes" not in [f["key"] for f in fields]


@pytest.mark.parametrize("game,mode", MODES, ids=[f"{g.name}-{m}" for g, m in MODES])
def test_a_claim_of_the_declared_fields_matches_when_it_says_what_was_computed(game, mode):
    count = {"solo": 1, "puzzle": 1}.get(mode, 2 if game.name == "cube" else 3)
    log = game.simulate(mode=mode, players=count, seed=9)
    log.pop("claimed", None)
    outcome = check_log(log)["outcome"]
    claimed = {}
    for f in game.claimable(mode):
        if f["kind"] == "rounds":
            claimed[f["key"]] = [{f["field"]: r[f["field"]]} for r in outcome[f["key"]]]
        elif outcome.get(f["key"]) is not None:
            claimed[f["key"]] = outcome[f["key"]]
    result = check_log({**log, "claimed": claimed})
    assert result["claims"] == {"match": True, "differences": []}
    if "rounds" in claimed:  # one round's score wrong: that round and nothing else differs
        name = log["players"][0]
        claimed["rounds"][1]["scores"][name] += 1
        claimed.pop("totals")
        result = check_log({**log, "claimed": claimed})
        assert [d["field"] for d in result["claims"]["differences"]] == [f"/rounds/1/scores/{name}"]

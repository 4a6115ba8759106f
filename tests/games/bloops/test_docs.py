"""The examples of docs/formats/bloops.md are true: the log replays to the outcome shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

from popreplay.checking import check_log

DOC = Path(__file__).resolve().parents[3] / "docs" / "formats" / "bloops.md"


def _blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", DOC.read_text("utf-8"), flags=re.S)


def test_the_documented_example_replays_to_the_documented_outcome():
    example, outcome, state = _blocks()[:3]
    result = check_log(json.loads(example), with_steps=True)
    assert (result["status"], result["claims"]) == ("complete", {"match": True,
                                                                  "differences": []})
    assert result["outcome"] == json.loads(outcome)
    shown = json.loads(state)
    actual = result["steps"][8]["state"]
    assert actual["places"]["Ana"][0] == shown["places"]["Ana"][0]
    for key in ("turn", "current", "drawn", "discard", "bloops", "pending", "counter",
                "final_turns_left", "ended_by"):
        assert actual[key] == shown[key], key
    assert actual["pile"][:2] == shown["pile"][:2]

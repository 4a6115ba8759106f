"""The example of docs/formats/slap.md replays to the outcome the page states."""

from __future__ import annotations

import json
import re
from pathlib import Path

from popreplay.checking import check_text

DOC = Path(__file__).resolve().parents[3] / "docs" / "formats" / "slap.md"


def test_the_documented_example_gives_the_documented_outcome():
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text("utf-8"), flags=re.S)
    log, outcome = blocks[0], json.loads(blocks[1])
    result = check_text(log)
    assert result["status"] == "complete", result["errors"]
    assert result["outcome"] == outcome
    assert result["claims"] == {"match": True, "differences": []}

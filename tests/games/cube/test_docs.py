"""The cube docs agree with the engine: the format page's example gives its stated result, and the
rules page lists every violation code the engine raises."""

from __future__ import annotations

import json
import re
from pathlib import Path

from popreplay.checking import check_log

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "popreplay" / "engine" / "games" / "cube"


def _json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, flags=re.S)


def test_the_format_example_gives_the_documented_result():
    log_text, result_text, *_ = _json_blocks((ROOT / "docs" / "formats" / "cube.md").read_text())
    assert check_log(json.loads(log_text)) == json.loads(result_text)


def test_every_violation_code_is_documented():
    raised = set()
    for source in ENGINE.glob("*.py"):
        text = source.read_text()
        raised |= set(re.findall(r'fail\(\s*"([a-z-]+)"', text))
        if "index_players(" in text:  # the shared player checks (engine/players.py)
            raised.add("bad-player-count")
        if "player_position(" in text or "by_player(" in text:
            raised.add("unknown-player")
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", (ROOT / "docs" / "rules" / "cube.md")
                                .read_text(), flags=re.M))
    assert raised == documented
    assert len(raised) == 20

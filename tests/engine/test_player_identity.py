"""Two names of one log that are one player once full-width letters and invisible characters are
set aside ("Ｒｏｙ" and "Roy", "Ian" and "I\\u200ban") are refused, in every game, with a message
naming both and a JSON Pointer to the second; the store keys players by the same identity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from popreplay.checking import check_text
from popreplay.db.queries import player_name
from popreplay.engine.players import identity

KITS = Path(__file__).resolve().parents[2] / "popreplay" / "games"
EXAMPLES = sorted(KITS.glob("*/examples/*.json"))


def full_width(name: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)


@pytest.mark.parametrize("variant", [full_width, lambda n: n[0] + "\u200b" + n[1:],
                                     lambda n: n + "\ufe0f", lambda n: "\u00ad" + n])
@pytest.mark.parametrize("example", EXAMPLES, ids=[p.parent.parent.name + "-" + p.stem
                                                    for p in EXAMPLES])
def test_one_player_under_two_spellings_is_refused(example: Path, variant) -> None:
    log = json.loads(example.read_text(encoding="utf-8"))
    if len(log["players"]) < 2:
        pytest.skip("one player")
    first, second = log["players"][0], log["players"][1]
    twin = variant(first)
    assert twin != first and identity(twin) == identity(first) == player_name(twin)
    text = json.dumps(log, ensure_ascii=False).replace(json.dumps(second, ensure_ascii=False),
                                                       json.dumps(twin, ensure_ascii=False))
    result = check_text(text.encode("utf-8"))
    assert result["status"] == "illegal"
    error = result["errors"][0]
    assert error["code"] == "bad-player-count" and error["path"] == "/players/1"
    assert "same name as" in error["message"] and repr(first) in error["message"]


def test_names_that_are_only_invisible_are_blank() -> None:
    log = json.loads((KITS / "pop" / "examples" / "battle.json").read_text(encoding="utf-8"))
    log["players"][1] = "\u200b\u200d"
    result = check_text(json.dumps(log).encode())
    assert result["errors"][0]["path"] == "/players/1"
    assert "empty" in result["errors"][0]["message"]


def test_different_players_stay_different() -> None:
    for a, b in (("Cléo", "Cleo"), ("Ian", "Ia n"), ("Roy", "roy")):
        assert identity(a) != identity(b)

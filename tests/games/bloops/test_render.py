"""The Bloops table drawn in a terminal (``popreplay replay`` without ``--json``)."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner

from popreplay.checking import check_log
from popreplay.cli import main
from popreplay.render import board

from .logs import ANA, BEN, A, B, call, counter, discard, draw, log


def test_the_table_shows_places_face_down_or_known():
    data = log(deal={A: ANA, B: [None, None, None, 3, 5, 8]},
               events=[draw(A, 9), discard(A, 9)])
    state = check_log(data, with_steps=True)["steps"][-1]["state"]
    lines = [click.unstyle(line) for line in board("bloops", state)]
    assert lines == [
        "▶ Ana  1:3 2:1 3:4 | 4:1 5:5 6:9",
        "  Ben  1:? 2:? 3:? | 4:3 5:5 6:8",
        "pile 51   discard 9   counter-discard on 9",
        "effects waiting: Ana's 9 (swap)",
    ]


def test_the_bloops_holder_and_the_drawn_card_are_shown():
    data = log(events=[draw(A), discard(A, 1), counter(B, 1, 2), call(A), draw(B, 4)])
    state = check_log(data, with_steps=True)["steps"][-1]["state"]
    lines = [click.unstyle(line) for line in board("bloops", state)]
    assert lines[0].endswith(" [Bloops]") and lines[0].startswith("  Ana")
    assert lines[1] == "▶ Ben  1:2 2:? 3:? | 4:? 5:? 6:? | 7:?"
    assert lines[2] == "pile 49   discard 1   Ben holds 4"
    assert lines[3] == "last turns left: 0"


def test_replay_command_draws_bloops_steps(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log(deal={A: ANA, B: BEN}, events=[draw(A, 20),
                                                                  discard(A, 20)])))
    out = CliRunner().invoke(main, ["replay", str(path)])
    assert out.exit_code == 0
    note = "Ana discards the 20 they drew. The 20 is discarded: the game ends at once."
    assert note in out.output
    assert "Ana  1:3 2:1 3:4 | 4:1 5:5 6:9" in click.unstyle(out.output)

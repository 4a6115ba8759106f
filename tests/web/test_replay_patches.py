"""The replay page rebuilds format 2's steps (``withStates`` in ``web/static/replay-format.js``,
run by Node): every step's ``state`` as format 1 has it, key order included, for a game of each kind."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from popreplay.checking import check_json
from popreplay.engine import GAMES
from popreplay.jsonout import compact
from popreplay.replayformat import in_format

SCRIPT = Path(__file__).resolve().parents[2] / "popreplay" / "web" / "static" / "replay-format.js"
NODE = shutil.which("node")


def with_states_import() -> str:
    return f'import {{ withStates }} from "{SCRIPT.as_uri()}";\n'


@pytest.mark.skipif(NODE is None, reason="no node")
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_page_rebuilds_every_state(tmp_path, name):
    game = GAMES[name]
    mode = game.modes[0]
    log = game.simulate(mode=mode, players=3 if name != "slap" else 4, seed=7,
                        options={"deal": "counts"} if name == "slap" else {})
    v1 = dict(check_json(log, with_steps=True))
    expected = json.loads(compact(v1))["steps"]
    patched = in_format(json.loads(compact(v1)), 2)
    assert any("state_patch" in step for step in patched["steps"])
    (tmp_path / "replay.json").write_text(compact(patched), "utf-8")
    program = with_states_import() + """
import fs from "node:fs";
const replay = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
const steps = withStates(replay.steps);
fs.writeFileSync(process.argv[3], JSON.stringify(steps));
"""
    (tmp_path / "run.mjs").write_text(program, "utf-8")
    done = subprocess.run([NODE, str(tmp_path / "run.mjs"), str(tmp_path / "replay.json"),
                           str(tmp_path / "out.json")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    rebuilt = json.loads((tmp_path / "out.json").read_text("utf-8"))
    assert [compact(step) for step in rebuilt] == [compact(step) for step in expected]

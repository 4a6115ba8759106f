"""The command-line contract (spec §7): validate, replay, simulate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from popreplay.cli import main

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "pop"
COMPLETE = GOLDEN / "battle-5p-complete-tie-kept.log.json"
INCOMPLETE = GOLDEN / "worked-example-ascending-gravity.log.json"
ILLEGAL = GOLDEN / "violation-not-in-hand.log.json"
DIFFERS = GOLDEN / "spec-example-claims-differ.log.json"


@pytest.fixture
def runner():
    return CliRunner()


def _lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def test_validate_json_prints_one_result_per_file_in_order(runner):
    out = runner.invoke(main, ["validate", "--json", str(COMPLETE), str(INCOMPLETE)])
    assert out.exit_code == 0, out.output
    results = _lines(out.output)
    assert [r["source"] for r in results] == [str(COMPLETE), str(INCOMPLETE)]
    assert [r["status"] for r in results] == ["complete", "incomplete"]
    assert all("steps" not in r for r in results)
    assert results[0]["outcome"]["winners"] == ["Dmitri"]


@pytest.mark.parametrize(("files", "code"), [
    ([COMPLETE], 0), ([INCOMPLETE], 0), ([ILLEGAL], 1), ([DIFFERS], 1), ([COMPLETE, ILLEGAL], 1),
])
def test_validate_exit_status(runner, files, code):
    assert runner.invoke(main, ["validate", "--json", *map(str, files)]).exit_code == code


def test_invalid_or_unreadable_files_exit_2(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = runner.invoke(main, ["validate", "--json", str(ILLEGAL), str(bad),
                               str(tmp_path / "missing.json")])
    assert out.exit_code == 2
    results = _lines(out.output)
    assert [r["status"] for r in results] == ["illegal", "invalid", "invalid"]
    assert results[1]["errors"][0]["code"] == "json"
    assert results[2]["errors"][0]["code"] == "unreadable"


def test_validate_reads_standard_input_with_a_dash():
    text = ILLEGAL.read_text("utf-8")
    proc = subprocess.run([sys.executable, "-m", "popreplay", "validate", "--json", "-"],
                          input=text, capture_output=True, text=True)
    assert proc.returncode == 1
    (result,) = _lines(proc.stdout)
    assert result["source"] == "-"
    assert (result["errors"][0]["code"], result["errors"][0]["round"],
            result["errors"][0]["turn"]) == ("not-in-hand", 1, 2)


def test_validate_table_for_people(runner):
    out = runner.invoke(main, ["validate", str(ILLEGAL), str(COMPLETE)])
    lines = out.output.splitlines()
    assert lines[0].split() == ["FILE", "GAME", "STATUS", "DETAIL"]
    assert "not-in-hand: Alice does not hold 33" in lines[1]
    assert "winner Dmitri" in lines[2]


def test_validate_ndjson_streams_one_log_per_line(runner, tmp_path):
    stream = tmp_path / "games.ndjson"
    stream.write_text("\n".join(path.read_text("utf-8").replace("\n", "")
                                for path in (COMPLETE, ILLEGAL)) + "\n\n")
    out = runner.invoke(main, ["validate", "--ndjson", "--json", str(stream)])
    assert [r["source"] for r in _lines(out.output)] == [f"{stream}:1", f"{stream}:2"]
    assert out.exit_code == 1


def test_replay_json_has_steps_and_step_selects_one(runner):
    out = runner.invoke(main, ["replay", "--json", str(INCOMPLETE)])
    result = json.loads(out.output)
    kinds = [s["kind"] for s in result["steps"]]
    assert kinds[:3] == ["deal", "reveal", "place"]
    assert kinds.count("explode") == 2
    one = json.loads(runner.invoke(main, ["replay", "--json", "--step", "9",
                                          str(INCOMPLETE)]).output)
    assert one["steps"] == [result["steps"][9]]


def test_replay_text_draws_the_table(runner):
    out = runner.invoke(main, ["replay", "--step", "8", str(INCOMPLETE)])
    assert "Ana's 17 lands under 12 in queue A: 2 cards explode, Ana collects 3 icons." \
        in out.output
    assert "row  2  17" in out.output
    assert "\x1b[" not in out.output  # no colour codes outside a terminal


def test_replay_rejects_a_step_out_of_range(runner):
    out = runner.invoke(main, ["replay", "--step", "999", str(INCOMPLETE)])
    assert out.exit_code == 2
    assert "the replay has" in out.output


def test_simulate_is_reproducible_and_legal(runner, tmp_path):
    args = ["simulate", "--mode", "battle", "--players", "4", "--seed", "5", "--count", "3"]
    first, second = runner.invoke(main, args), runner.invoke(main, args)
    assert first.output == second.output
    logs = _lines(first.output)
    assert len(logs) == 3 and logs[0] != logs[1]
    out = runner.invoke(main, [*args, "--out", str(tmp_path)])
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"pop-battle-4p-{k}.json" for k in (5, 6, 7)]
    check = runner.invoke(main, ["validate", "--json", *map(str, files)])
    assert check.exit_code == 0 and out.exit_code == 0


def test_simulate_options_and_bad_arguments(runner):
    out = runner.invoke(main, ["simulate", "--mode", "solo", "--players", "1", "--option",
                               "difficulty=3"])
    assert json.loads(out.output)["options"] == {"difficulty": 3}
    bad = runner.invoke(main, ["simulate", "--mode", "coop", "--players", "2"])
    assert bad.exit_code == 2 and "coop is for 3–5 players" in bad.output


@pytest.mark.parametrize(("args", "env", "coloured"), [
    ([], {}, False),
    (["--color"], {}, True),
    ([], {"FORCE_COLOR": "1"}, True),
    ([], {"NO_COLOR": "1"}, False),
    (["--no-color"], {"FORCE_COLOR": "1"}, False),
    (["--color"], {"NO_COLOR": "1"}, True),
    ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, True),
    ([], {"FORCE_COLOR": ""}, False),
])
def test_replay_colours_follow_the_switches_then_the_environment(args, env, coloured):
    """``popreplay replay game.json | less -R``: ``--color`` or ``FORCE_COLOR`` colours a pipe;
    ``--no-color`` and ``NO_COLOR`` never colour; an empty variable counts as unset."""
    out = CliRunner(env={"FORCE_COLOR": None, "NO_COLOR": None, **env}).invoke(
        main, ["replay", *args, "--step", "8", str(INCOMPLETE)])
    assert out.exit_code == 0, out.output
    assert ("\x1b[" in out.output) is coloured
    assert "Ana's 17 lands under 12 in queue A" in out.output


def test_validate_table_colours_with_the_same_switches():
    out = CliRunner(env={"NO_COLOR": None, "FORCE_COLOR": None}).invoke(
        main, ["validate", "--color", str(COMPLETE)])
    assert "\x1b[32mcomplete" in out.output


def test_validate_table_lists_every_shape_error(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "popreplay/1", "game": "pop", "claimed": {"winner": ["Ana"]}}')
    out = runner.invoke(main, ["validate", str(bad)])
    assert out.exit_code == 2
    lines = out.output.splitlines()
    column = lines[0].index("DETAIL")
    assert [line[column:] for line in lines[1:]] == [
        "schema: required key is missing at /mode",
        "schema: required key is missing at /players",
        'schema: unknown key: did you mean "winners"? (free data belongs in "meta") at '
        "/claimed/winner",
        "schema: required key is missing at /rounds",
    ]
    assert "more)" not in out.output
    assert not lines[2][:column].strip()  # the further errors sit under the first


def test_replay_verdict_lists_every_shape_error(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "popreplay/1", "game": "pop"}')
    out = runner.invoke(main, ["replay", str(bad)])
    assert out.output.splitlines() == ["invalid — schema: required key is missing at /mode",
                                       "  schema: required key is missing at /players",
                                       "  schema: required key is missing at /rounds"]

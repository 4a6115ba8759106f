"""``popreplay bench`` (the engine's figures) and ``scripts/bench`` (the service's) run on tiny
sizes and print their figures (they never assert timings)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from popreplay import bench
from popreplay.checking import check_log
from popreplay.cli import main

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench"


def service_bench():
    """``scripts/bench`` as a module (a file without ``.py``: loaded by path)."""
    loader = importlib.machinery.SourceFileLoader("service_bench", str(SCRIPT))
    spec = importlib.util.spec_from_loader("service_bench", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module

NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def test_the_command_prints_engine_validation_and_growth_figures():
    result = CliRunner().invoke(main, ["bench", "--games", "3", "--repeat", "1",
                                       "--growth-games", "2", "--other-games", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    for game in ("cube", "slap", "bloops"):
        assert re.search(rf"^{game}: engine {NUMBER} games/s, {NUMBER} µs/game; validation "
                         rf"{NUMBER} logs/s \(2 simulated [2-4]-player \w+ games", out, re.M)
    for game in ("pop", "cube", "slap", "bloops"):  # issue 17: notes and messages from ids
        assert re.search(rf"^{game}: replay with steps {NUMBER} ms/log \({NUMBER} steps\), "
                         rf"rendered in French {NUMBER} ms/log \(2 simulated", out, re.M)
    assert re.search(rf"^engine: {NUMBER} games/s, {NUMBER} µs/game, {NUMBER} µs/placement "
                     rf"\(3 5-player battles, 120 placements", out, re.M)
    assert re.search(rf"^validation: {NUMBER} logs/s, {NUMBER} µs/log \(parse {NUMBER} \+ "
                     rf"shape {NUMBER} \+ replay and result {NUMBER} µs", out, re.M)
    for players in (2, 3, 4, 5):
        assert re.search(rf"^  {players} players: {NUMBER} µs/game", out, re.M)
    for turns in (1, 4, 8, 16, 24):
        assert re.search(rf"^ +{turns} turns: {NUMBER} µs/game", out, re.M)
    assert out.count(" explosions (mean ") == 2  # two games: two bands of one game
    assert "machine: " in out and "bench process peak RSS: " in out


def test_the_installed_bench_has_no_service_parts():
    """The runtime package times the engine only: no HTTP, no browser, no server."""
    text = Path(bench.__file__).read_text("utf-8")
    for word in ("playwright", "http.client", "subprocess", "socket"):
        assert word not in text, word
    result = CliRunner().invoke(main, ["bench", "--http", "0"])
    assert result.exit_code == 2 and "No such option" in result.output


def test_the_service_tool_prints_the_engine_figures_too():
    result = CliRunner().invoke(service_bench().main, [
        "--games", "2", "--repeat", "1", "--no-growth", "--other-games", "0", "--http", "0",
        "--recorder", "0"])
    assert result.exit_code == 0, result.output
    assert re.search(rf"^engine: {NUMBER} games/s", result.output, re.M)
    assert "bench process peak RSS: " in result.output


def test_placements_and_explosions_are_counted_from_the_log():
    log = bench.battle_logs(1)[0]
    assert bench.placements(log) == 3 * 8 * 5  # 3 rounds, 8 turns, 5 cards a turn
    steps = bench.POP.replay(log, with_steps=True).steps
    waves = [s for s in steps if s["kind"] == "explode"]
    assert 1 <= bench.explosions(log) <= len(waves)


def test_a_cut_log_is_an_incomplete_legal_game():
    log = bench.battle_logs(1, seed=5)[0]
    short = bench.cut(log, 10)
    assert [len(r["turns"]) for r in short["rounds"]] == [8, 2]
    assert "claimed" not in short
    assert check_log(short)["status"] == "incomplete"
    assert check_log(bench.cut(log, 24))["status"] == "complete"


def test_percentiles_pick_a_measured_value():
    values = [float(v) for v in range(1, 101)]
    assert bench.percentile(values, 0.50) == 50.0
    assert bench.percentile(values, 0.99) == 99.0
    assert bench.percentile([7.0], 0.99) == 7.0


@pytest.mark.slow
def test_the_service_figures_come_from_a_real_server():
    figures = service_bench().bench_http(3, workers=1, clients=2, fetches=4, hot=2, time_limit=60)
    assert figures["post"]["requests"] == 3 and figures["post"]["stored"] == 3
    assert figures["replay_first"]["requests"] == 3
    first = figures["replay_first"]
    assert first["max_ms"] >= first["p99_ms"] and 0 <= first["over_50ms"] <= 3
    assert figures["replay"]["requests"] == 4
    assert figures["replay"]["p99_ms"] >= figures["replay"]["p50_ms"] > 0
    assert figures["replay_hot"]["games"] == 2 and figures["replay_hot"]["requests"] == 4
    packed = figures["replay_gzip"]
    assert packed["requests"] == 4 and 0 < packed["kib"] < 20  # compressed: a battle is ~150 KiB
    assert figures["page"]["requests"] == 4 and figures["page"]["p50_ms"] > 0


@pytest.mark.slow
def test_the_stream_figures_answer_every_line(tmp_path):
    path = tmp_path / "s.ndjson"
    bench = service_bench()
    bench.write_stream(path, 30, distinct=7)
    lines = path.read_text("utf-8").splitlines()
    assert len(lines) == 30 and lines[0] == lines[7] and lines[0] != lines[1]
    assert json.loads(lines[0])["mode"] == "coop"
    figures = bench.api_stream(path, 30)
    assert figures["answered"] == 30
    assert figures["worker_rss_peak_mib"] >= figures["worker_rss_before_mib"] > 0


@pytest.mark.slow
def test_the_cli_peak_is_the_child_s_own_not_the_bench_process_s(tmp_path):
    """A child inherits its parent's resident pages until ``exec``, and Linux counts them in its
    peak: with 200 MiB held here, a direct child would report more than 200 MiB."""
    path = tmp_path / "s.ndjson"
    bench = service_bench()
    bench.write_stream(path, 20, distinct=5)
    held = bytearray(200 * 1024 * 1024)
    held[::4096] = b"\x01" * len(held[::4096])  # resident, not just reserved
    peak, rate = bench.cli_peak_rss(path)
    assert 10 < peak < 150 and rate > 0
    del held

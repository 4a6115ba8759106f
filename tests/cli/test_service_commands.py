"""The service's commands: import and revalidate with ``--jobs`` report the same and a rate, import
writes the share links of the games it stored, serve on a taken port is one clear error. Found in
the hardening rounds of issues 15, 16 and 25 (docs/reliability.md)."""

from __future__ import annotations

import json
import socket

import pytest
import sqlalchemy as sa

from popreplay.db.models import GameRecord
from popreplay.db.session import make_engine
from tests.conftest import as_bytes, simulated
from tests.databases import upgraded

# --- import and revalidate with --jobs -----------------------------------------------------------


@pytest.mark.slow
def test_import_and_revalidate_with_jobs_report_the_same_and_a_rate(runner, db_url, tmp_path):
    from tests.db.test_cli import write_logs

    upgraded(db_url)
    write_logs(tmp_path / "logs")
    many = tmp_path / "logs" / "many.ndjson"
    many.write_bytes(b"".join(as_bytes(simulated("battle", 3, seed=400 + i)) + b"\n"
                              for i in range(30)))
    result = runner.invoke(["import", "--jobs", "2", str(tmp_path / "logs")])
    assert result.exit_code == 2
    assert result.stdout.strip().splitlines()[-1] == (
        "stored 33, illegal 1 (stored too), duplicate 1, invalid 1")
    assert "bad.json: invalid: /" in result.stderr
    assert "36 logs in " in result.stderr and "/s) with 2 processes" in result.stderr

    engine = make_engine(db_url, pooled=False)
    with engine.begin() as connection:
        connection.execute(GameRecord.__table__.update().where(GameRecord.id.in_([2, 7]))
                           .values(status="incomplete", engine_version="0.0.0"))
    engine.dispose()
    dry = runner.invoke(["revalidate", "--dry-run", "--jobs", "2"])
    assert [line.split()[0] for line in dry.stdout.splitlines()] == ["2", "7"]
    assert "34 games checked, 2 would change" in dry.stderr
    assert "34 games in " in dry.stderr
    done = runner.invoke(["revalidate", "--jobs", "3", "--json"])
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [2, 7]
    assert runner.invoke(["revalidate", "--jobs", "2"]).stdout == ""


# --- issue 16: serve on a taken port -------------------------------------------------------------


def test_serve_on_a_taken_port_is_one_clear_error(runner, db_url):

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.cli.invoke(__import__("popreplay.cli", fromlist=["main"]).main,
                                   ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is already in use" in result.output
    assert "serving on" not in result.output
    assert "Traceback" not in result.output


# --- issue 16: import writes the share links of the games it stored ------------------------------


def test_import_writes_the_share_link_of_each_stored_game(runner, db_url, tmp_path):
    upgraded(db_url)
    folder = tmp_path / "logs"
    folder.mkdir()
    for seed in (140, 141):
        (folder / f"g{seed}.json").write_bytes(as_bytes(simulated("battle", 3, seed=seed)))
    (folder / "again.json").write_bytes(as_bytes(simulated("battle", 3, seed=140)))
    result = runner.invoke(["import", "--links", str(tmp_path / "links.tsv"), str(folder)])
    assert result.exit_code == 0
    lines = (tmp_path / "links.tsv").read_text().splitlines()
    engine = make_engine(db_url, pooled=False)
    with engine.connect() as connection:
        slugs = set(connection.execute(sa.text("SELECT slug FROM games")).scalars())
    engine.dispose()
    assert len(lines) == 2 and len(slugs) == 2  # the duplicate stored nothing, has no link
    for line in lines:
        url, source = line.split("\t")
        assert url.startswith("http://127.0.0.1:8000/r/") and url.rsplit("/", 1)[1] in slugs
        assert source.endswith((".json"))

"""Start in a blink: ``popreplay validate``, ``replay`` and ``simulate`` import nothing of the
service (no Flask, SQLAlchemy, Celery, Babel, marshmallow, gunicorn) — the list of modules each
command leaves in ``sys.modules``, in a fresh interpreter. The exact shape path (a log the fast
path rejects) may import marshmallow, and nothing else of the service. The CPU figures are in
``docs/performance.md`` (*Start-up*), printed by ``scripts/startupbench``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "popreplay" / "games").glob("*/examples/*.json"))
SERVICE = {"flask", "flask_babel", "babel", "werkzeug", "jinja2", "sqlalchemy", "alembic",
           "celery", "kombu", "redis", "psycopg", "psycopg2", "gunicorn", "gevent",
           "flask_smorest", "marshmallow", "fastjsonschema"}
# Runs one command of the command line as `popreplay` would, then writes the top-level names of
# every module it imported (one JSON list) to the file named by the first argument.
RUN = """
import json, sys
from popreplay.cli import main
out, args = sys.argv[1], sys.argv[2:]
try:
    main(args, prog_name="popreplay")
except SystemExit:
    pass
with open(out, "w") as f:
    json.dump(sorted({name.split(".")[0] for name in sys.modules}), f)
"""


def imported(tmp_path: Path, *args: str) -> set[str]:
    listing = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", RUN, str(listing), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert listing.exists(), done.stderr
    return set(json.loads(listing.read_text()))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_validate_imports_nothing_of_the_service(tmp_path, example):
    assert imported(tmp_path, "validate", str(example)) & SERVICE == set()
    assert imported(tmp_path, "validate", "--json", "--lang", "fr", str(example)) & SERVICE == set()


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_replay_imports_nothing_of_the_service(tmp_path, example):
    assert imported(tmp_path, "replay", "--color", str(example)) & SERVICE == set()
    assert imported(tmp_path, "replay", "--json", str(example)) & SERVICE == set()


def test_simulate_imports_nothing_of_the_service(tmp_path):
    for game, mode, players in (("pop", "battle", "3"), ("slap", "elimination", "3"),
                                ("cube", "standard", "2"), ("bloops", "classic", "3")):
        names = imported(tmp_path, "simulate", "--game", game, "--mode", mode, "--players",
                         players, "--count", "2")
        assert names & SERVICE == set(), game


def test_a_log_of_the_wrong_shape_takes_marshmallow_and_nothing_else(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "popreplay/1", "game": "pop", "mode": "battle",
                               "players": "Alice"}))
    names = imported(tmp_path, "validate", str(bad))
    assert "marshmallow" in names  # the exact path lists every error
    assert names & SERVICE == {"marshmallow"}


def test_a_service_command_is_found_when_asked_for(tmp_path):
    names = imported(tmp_path, "db", "--help")
    assert "sqlalchemy" in names or "alembic" in names
    assert imported(tmp_path, "--help") & {"flask", "sqlalchemy"}  # the list names them all

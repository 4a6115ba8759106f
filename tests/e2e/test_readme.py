"""The README's two commands, in order, in a fresh clone: the service the first one starts still
answers after the second (the test command) has run, and both find the same database."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess

import pytest

from tests.conftest import as_bytes, simulated
from tests.e2e.test_serve import ROOT, free_port, request, wait_until_up


def readme_commands() -> list[str]:
    """The README's first two ``sh`` blocks: serve, then test."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.S)[:2]]


def test_the_readme_opens_with_serve_then_test():
    serve, test = readme_commands()
    assert serve.endswith("popreplay serve") and ".venv/bin/pip install ." in serve
    assert test == "./scripts/test"
    assert (ROOT / ".ci" / "run").read_text().strip().endswith("./scripts/test")


@pytest.mark.slow
def test_following_the_readme_in_order_keeps_the_service_and_its_games(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    # a user's shell (PYTHONDONTWRITEBYTECODE, which this machine sets, left out: a module is
    # compiled once, as it is first imported, and kept)
    dropped = ("POPREPLAY_DATABASE_URL", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # the user's data folder, for this test
    # the two installs skip compiling every installed module to bytecode (a third of their
    # time); the modules a command imports are compiled (and written) as it imports them. pip
    # reads the variable of a --no-X option as the value of X: PIP_NO_COMPILE=0 is --no-compile
    # (=1, what this test set until issue 34's ninth round, compiled everything)
    env["PIP_NO_COMPILE"] = "0"
    serve, test = readme_commands()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("wb") as log:
        service = subprocess.Popen(["bash", "-c", f"{serve} --port {port}"], cwd=clone, env=env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until_up(base, service, seconds=600)
        status, _, body = request("POST", f"{base}/api/v1/games",
                                  as_bytes(simulated("battle", 3, seed=81)),
                                  {"Content-Type": "application/json"})
        assert status == 201, body
        share_url = json.loads(body)["share_url"]
        assert request("GET", share_url)[0] == 200

        # the second command, on a narrow selection (its arguments go to pytest)
        tested = subprocess.run(["bash", "-c", f"{test} tests/engine/test_purity.py -q"],
                                cwd=clone, env=env, capture_output=True, text=True)
        assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-3000:]
        assert (clone / ".venv-test" / "bin" / "python").exists()
        # the installs compiled nothing: what no command here imports has no bytecode
        # (SQLAlchemy's SQL Server dialect in .venv, mypy in .venv-test)
        for venv, package in ((".venv", "sqlalchemy/dialects/mssql"), (".venv-test", "mypy")):
            site = next((clone / venv / "lib").glob("python3*/site-packages"))
            assert (site / package / "__init__.py").exists()
            assert not (site / package / "__pycache__").exists(), (venv, package)

        status, headers, _ = request("GET", share_url)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert request("GET", f"{base}/")[0] == 200
        status, _, body = request("GET", f"{base}/api/v1/games")
        assert [g["share_url"] for g in json.loads(body)["items"]] == [share_url]
    finally:
        os.killpg(service.pid, signal.SIGINT)
        service.wait(timeout=30)
    served = (tmp_path / "serve.log").read_text(errors="replace")
    database = tmp_path / "data" / "popreplay" / "popreplay.sqlite"
    assert f"(database: SQLite file {database})" in served
    assert "TemplateNotFound" not in served and " 500 " not in served

    # the test environment's popreplay finds the same database, with the game in it
    for venv in (".venv", ".venv-test"):
        current = subprocess.run([str(clone / venv / "bin" / "popreplay"), "db", "current"],
                                 cwd=clone, env=env, capture_output=True, text=True, check=True)
        assert current.stdout.splitlines()[0] == f"database: SQLite file {database}"
        exported = subprocess.run([str(clone / venv / "bin" / "popreplay"), "export"],
                                  cwd=tmp_path, env=env, capture_output=True, text=True,
                                  check=True)
        assert len(exported.stdout.splitlines()) == 1

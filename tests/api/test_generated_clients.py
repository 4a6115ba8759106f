"""Clients nobody here wrote, generated from the live document of a real server (``popreplay
serve``), with no hand edit:

* a Python client by openapi-python-client (its configuration, ``clients/openapi-python-client.yaml``,
  only maps the media types it cannot read to bytes), imported whole, then driven against the
  server for every operation of the document: uploads of all four games, lists and their
  cursors, pulls, both exports, replays, the recorder, a table from its start to its sign-off;
* TypeScript types by openapi-typescript, type-checked with ``tsc --strict`` beside
  ``clients/use.ts`` (installed by ``npm ci`` from ``clients/package-lock.json`` into a cache
  folder kept between runs).
"""

from __future__ import annotations

import csv
import hashlib
import importlib
import io
import json
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from popreplay.api.operations import OPERATION_IDS
from tests.e2e.test_serve import request, running

pytestmark = pytest.mark.slow

HERE = Path(__file__).parent / "clients"
KITS = Path(__file__).resolve().parents[2] / "popreplay" / "games"


def generate_python(document: Path, into: Path) -> Any:
    """The generated package, imported (every module of it)."""
    command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(document),
               "--config", str(HERE / "openapi-python-client.yaml"), "--meta", "none",
               "--output-path", str(into / "popreplay_client")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    problems = [line for line in done.stdout.splitlines() if "Unable" in line
                or "Unsupported" in line or "Cannot parse" in line or "removal" in line]
    assert not problems, done.stdout
    sys.path.insert(0, str(into))
    package = importlib.import_module("popreplay_client")
    for module in pkgutil.walk_packages(package.__path__, "popreplay_client."):
        importlib.import_module(module.name)
    return package


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[str]:
    env = {**os.environ, "POPREPLAY_DATABASE_URL": db_url}
    with running([sys.executable, "-m", "popreplay", "serve", "--workers", "1"], env,
                 tmp_path) as base:
        yield base


def document(base: str, tmp_path: Path) -> Path:
    status, _, body = request("GET", f"{base}/api/v1/openapi.json")
    assert status == 200
    path = tmp_path / "openapi.json"
    path.write_bytes(body)
    return path


class Driver:
    """Calls one generated operation (module ``api.<tag>.<snake id>``), checks its status and that
    the answer was parsed, and counts it."""

    def __init__(self, package: Any, base: str) -> None:
        self.package, self.base, self.called = package, base, set()
        self.client = package.Client(base_url=base, raise_on_unexpected_status=True)
        self.clients = [self.client]

    def authed(self, token: str) -> Any:
        client = self.package.AuthenticatedClient(base_url=self.base, token=token,
                                                  raise_on_unexpected_status=True)
        self.clients.append(client)
        return client

    def close(self) -> None:
        for client in self.clients:
            client.get_httpx_client().close()

    def __call__(self, tag: str, operation: str, status: int, *, client: Any = None,
                 **kwargs: Any) -> Any:
        snake = "".join("_" + c.lower() if c.isupper() else c for c in operation)
        module = importlib.import_module(f"popreplay_client.api.{tag}.{snake}")
        answer = module.sync_detailed(client=client or self.client, **kwargs)
        assert answer.status_code == status, (operation, answer.status_code, answer.content)
        if answer.content and status != 204:
            assert answer.parsed is not None, (operation, answer.content[:300])
        self.called.add(operation)
        return answer.parsed

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module("popreplay_client.models"), name)


def test_a_generated_python_client_drives_every_operation(server: str, tmp_path: Path) -> None:
    package = generate_python(document(server, tmp_path), tmp_path)
    call = Driver(package, server)
    try:
        _drive(call)
    finally:
        call.close()


def _drive(call: Driver) -> None:
    stored: dict[str, Any] = {}
    for example in sorted(KITS.glob("*/examples/*.json")):  # all four games
        log = json.loads(example.read_text(encoding="utf-8"))
        body = call.model(f"Log{log['game'].capitalize()}").from_dict(log)
        created = call("games", "storeGame", 201, body=body)
        assert created.owner_token and created.result.status in ("complete", "incomplete",
                                                                  "illegal")
        stored.setdefault(log["game"], created)
        assert call("validate", "validateLog", 200, body=body).status == created.result.status
    assert set(stored) == {"pop", "cube", "slap", "bloops"}

    page = call("games", "listGames", 200, limit=2)
    seen = [game.slug for game in page.items]
    while page.has_more:  # the cursor, page after page
        page = call("games", "listGames", 200, limit=2, cursor=page.next_cursor)
        seen += [game.slug for game in page.items]
    assert len(seen) == len(set(seen)) >= 4

    pop = stored["pop"]
    assert call("games", "getGame", 200, ref=pop.slug).slug == pop.slug
    log = call("games", "getGameLog", 200, ref=pop.slug)
    assert log.to_dict()["game"] == "pop"
    replay = call("games", "getGameReplay", 200, ref=pop.slug)
    assert replay.steps
    player = pop.players[0]
    assert call("players", "getPlayer", 200, name=player).name == player

    lines = [json.loads(line) for line in call("games", "exportGames", 200).splitlines() if line]
    assert {line["game"] for line in lines} == {"pop", "cube", "slap", "bloops"}
    since = call("games", "exportGames", 200, since=pop.stored_at)  # a pull: from then on
    assert pop.slug.encode() in since
    rows = list(csv.DictReader(io.StringIO(call("games", "exportGamesCsv", 200))))
    assert {row["slug"] for row in rows} >= {game.slug for game in stored.values()}

    assert call("health", "getHealth", 200).status == "ok"
    assert call("health", "getReadiness", 200).ready is True

    _drive_the_recorder(call, pop)
    _drive_a_table(call)
    call("games", "deleteGame", 204, ref=pop.slug, client=call.authed(pop.owner_token))
    missing = {op for op in OPERATION_IDS.values()} - call.called
    assert not missing, f"operations the generated client did not drive: {sorted(missing)}"


def _drive_the_recorder(call: Driver, pop: Any) -> None:
    cut = call("record", "cutGame", 200, from_=pop.slug, step=2)
    draft = cut.log.to_dict()
    check = call("record", "checkDraft", 200,
                 body=call.model("CheckBody").from_dict({"log": draft, "steps": "none"}))
    assert check.choices is not None
    draft["meta"] = {**draft.get("meta", {}), "title": "A what-if"}
    created = call("record", "storeDraft", 201, body=call.model("StoreBody").from_dict(
        {"log": draft, "branch_of": {"slug": pop.slug, "step": 2}}))
    owner = call.authed(created.owner_token)
    opened = call("record", "getDraft", 200, ref=created.slug, client=owner)
    assert opened.log.to_dict()["game"] == "pop"
    call("record", "updateDraft", 200, ref=created.slug, client=owner,
         body=call.model("UpdateBody").from_dict({"log": draft}))
    branches = call("record", "listBranches", 200, ref=pop.slug,
                    client=call.authed(pop.owner_token))
    assert created.slug in [branch.slug for branch in branches.branches]


def _drive_a_table(call: Driver) -> None:
    start = {"format": "popreplay/1", "game": "pop", "mode": "battle",
             "players": ["Ana", "Bruno", "Chloé"], "rounds": []}
    table = call("tables", "createTable", 201, body=call.model("Create").from_dict(
        {"log": start, "record_hands": True}))
    tid, host, join = table.table, call.authed(table.host_token), call.authed(table.join_key)
    seat = call("tables", "takeSeat", 201, table_id=tid, client=join,
                body=call.model("Seat").from_dict({"player": "Ana"}))
    ana = call.authed(seat.seat_token)
    assert call("tables", "getTable", 200, table_id=tid, client=join).status == "live"
    entry = {"type": "part", "entry": "round", "slots": {"0": [5, 1, 19, 31, 17]}}
    call("tables", "appendEntry", 201, table_id=tid, client=host,
         body=call.model("EntryBody").from_dict({"id": "host-1", "seen": 0, "entry": entry}))
    assert call("tables", "listEntries", 200, table_id=tid, client=ana, after=0).entries
    assert "event: snapshot" in call("tables", "streamTable", 200, table_id=tid, client=ana,
                                     wait=call.model("StreamTableWait")(0))
    assert call("tables", "getTableQr", 200, table_id=tid, key=table.join_key).startswith(b"<svg")
    assert call("tables", "getTableLog", 200, table_id=tid, client=host).log is not None
    assert call("tables", "listCorrections", 200, table_id=tid, client=ana).corrections == []
    call("tables", "correctEntry", 422, table_id=tid, client=ana,
         body=call.model("CorrectionBody").from_dict(
             {"id": "ana-fix-1", "seen": 1, "seq": 1, "set": {"/layout/0": [5, 1, 19, 31, 17]}}))
    assert call("tables", "getSignoff", 200, table_id=tid, client=ana).open_ is False
    call("tables", "signOff", 409, table_id=tid, client=ana,
         body=call.model("SignoffBody").from_dict({"verdict": "confirm"}))
    refused = call("tables", "storeTable", 422, table_id=tid, client=host,  # no whole round yet
                   body=call.model("Store").from_dict({"visibility": "unlisted"}))
    assert refused.errors[0].path == "/log/rounds"


# --- TypeScript ---------------------------------------------------------------------------------

def npm_tools() -> Path:
    """openapi-typescript and tsc as ``clients/package-lock.json`` pins them, installed once
    into a cache folder named for the lock file."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is missing (Node.js 20 with npm: apt-get install nodejs npm)")
    lock = (HERE / "package-lock.json").read_bytes()
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    folder = cache / "popreplay" / f"npm-{hashlib.sha256(lock).hexdigest()[:16]}"
    tools = folder / "node_modules" / ".bin"
    if not (tools / "tsc").exists():
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(HERE / name, folder / name)
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=folder,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
    return tools


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[str]:
    env = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{tmp_path / 'ts.sqlite'}"}
    with running([sys.executable, "-m", "popreplay", "serve", "--workers", "1"], env,
                 tmp_path) as base:
        yield base


def test_generated_typescript_types_check(sqlite_server: str, tmp_path: Path) -> None:
    tools = npm_tools()
    spec = document(sqlite_server, tmp_path)
    work = tmp_path / "ts"
    work.mkdir()
    shutil.copy(HERE / "use.ts", work / "use.ts")
    generate = subprocess.run([str(tools / "openapi-typescript"), str(spec), "-o",
                               str(work / "popreplay-api.d.ts")],
                              capture_output=True, text=True, timeout=300)
    assert generate.returncode == 0, generate.stdout + generate.stderr
    types = (work / "popreplay-api.d.ts").read_text(encoding="utf-8")
    assert "time_up: true" in types and "storeGame:" in types
    check = subprocess.run([str(tools / "tsc"), "--noEmit", "--strict", "--target", "es2020",
                            "--moduleResolution", "node", "popreplay-api.d.ts", "use.ts"],
                           cwd=work, capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr

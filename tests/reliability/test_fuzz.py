"""Bad input, fuzzed: ``POST /api/v1/games``, ``POST /api/v1/validate`` and ``popreplay validate``
get random JSON, wrong types, deep nesting, huge numbers and strings, unicode names, truncated
files, random bytes and wrong content types. Never a 500, never a traceback: always a result
object, a stored game, or a 4xx in the one error shape, and every answer matches the OpenAPI
document.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_text
from popreplay.cli import main as cli
from popreplay.engine import get_game
from popreplay.i18n import localize
from tests.api.test_openapi import check as check_documented
from tests.conftest import simulated

RESULT_KEYS = {"game", "mode", "engine", "status", "legal", "errors", "outcome", "claims"}
ERROR_KEYS = {"code", "status", "message", "errors"}
STATUSES = {"complete", "incomplete", "illegal", "invalid"}

# POPREPLAY_FUZZ_EXAMPLES=2000 for a long run (docs/reliability.md gives the figures of one).
EXAMPLES = int(os.environ.get("POPREPLAY_FUZZ_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

# --- strategies ----------------------------------------------------------------------------------

# Any text, unicode names included: astral characters, combining marks, NUL, right-to-left marks.
texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", "Zoé", "Zoe\u0301", "\u202eevil", "😀" * 3, "\x00", "a" * 101,
                     "Alice", "pop", "battle", "popreplay/1"]),
)
# Huge and edge numbers (JSON has no NaN; Python's json writes it, the server must refuse it).
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**31, 2**63, 10**30, -(10**30)]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([3.0, 1e308, -0.0, 5e-324]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(texts, children, max_size=5)),
    max_leaves=25,
)


def nested(depth: int, *, kind: str) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


def paths_of(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value (keys and indexes from the root)."""
    out = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths_of(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths_of(item, (*here, index))
    return out


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    node = value
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return value


BASES = [simulated("battle", 3, seed=1), simulated("coop", 3, seed=2),
         simulated("solo", 1, seed=3), simulated("puzzle", 1, seed=4),
         *(get_game(name).simulate(mode=get_game(name).modes[0], players=3, seed=5)
           for name in ("slap", "bloops", "cube"))]

strange = st.one_of(
    json_values,
    st.integers(min_value=1, max_value=1200).map(lambda d: nested(d, kind="list")),
    st.integers(min_value=1, max_value=1200).map(lambda d: nested(d, kind="dict")),
    st.sampled_from([10**4000, "x" * 200_000, ["Ann"] * 500, list(range(2000))]),
)


@st.composite
def mutated_logs(draw: Any) -> Any:
    """A real log with one value somewhere replaced by something strange (a wrong type, a deep
    nest, a huge number or string), or with a key removed or added."""
    log = draw(st.sampled_from(BASES))
    path = draw(st.sampled_from(paths_of(log)))
    action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
    if action == "replace" or not path:
        return replaced(log, path, draw(strange))
    parent = copy.deepcopy(log)
    node = parent
    for key in path[:-1]:
        node = node[key]
    if action == "delete":
        del node[path[-1]]
    elif isinstance(node, dict):
        node[draw(texts)] = draw(strange)
    else:
        node.append(draw(strange))
    return parent


def encode(value: Any) -> bytes:
    """JSON bytes; Python writes ``Infinity`` for floats out of range, which is not JSON: good."""
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


bodies = st.one_of(
    json_values.map(encode),
    mutated_logs().map(encode),
    # truncated files: a real log cut anywhere
    st.tuples(st.sampled_from(BASES), st.floats(0, 1)).map(
        lambda t: encode(t[0])[: int(len(encode(t[0])) * t[1])]),
    st.binary(max_size=300),
    st.sampled_from([b"", b"\xef\xbb\xbf{}", b"\xff\xfe{\x00}\x00", b"NaN", b"[1e999]",
                     b'{"format": "popreplay/1", "game": "pop", "players": ' + b"[" * 3000,
                     b"\x00" * 10, "é".encode("latin-1")]),
)
content_types = st.sampled_from([
    "application/json", "application/json; charset=latin-1", "text/plain",
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    "application/octet-stream", "application/x-ndjson", "", "application/xml",
])


# --- checks --------------------------------------------------------------------------------------


def assert_error_shape(body: Any, code: int) -> None:
    assert set(body) == ERROR_KEYS, body
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    for error in body["errors"]:
        assert {"code", "message", "path"} <= set(error), error
        assert error["path"] == "" or error["path"].startswith("/")


def assert_result(result: Any) -> None:
    assert RESULT_KEYS <= set(result), result
    assert result["status"] in STATUSES
    assert result["legal"] is (result["status"] in ("complete", "incomplete"))
    if result["status"] == "invalid":
        assert result["errors"], result
        assert {e["code"] for e in result["errors"]} <= {"json", "schema"}


# --- the API -------------------------------------------------------------------------------------


def exactly(raw: bytes) -> io.BytesIO:
    """The body as a stream: the test client sends it as it is (given ``data=b""`` and a
    multipart content type, it would encode an empty form of its own instead)."""
    return io.BytesIO(raw)


@FUZZ
@given(raw=bodies, content_type=content_types, visibility=st.sampled_from(["public", "unlisted"]))
def test_post_games_never_fails_on_bad_input(module_app, spec, raw, content_type, visibility):
    client = module_app.test_client()
    response = client.post(f"/api/v1/games?visibility={visibility}", input_stream=exactly(raw),
                           content_type=content_type)
    if not content_type.startswith(("application/json", "application/x-ndjson")):
        assert response.status_code == 415, response.data[:300]  # finding 9: declared JSON only
    else:
        assert response.status_code in (200, 201, 413, 422), response.data[:300]
    body = response.get_json()
    check_documented(spec, "/api/v1/games", "post", response.status_code, body)
    if response.status_code >= 400:
        assert_error_shape(body, response.status_code)
        assert response.status_code == 413 or body["errors"]
        return
    # Stored: the stored result is the result of the stored bytes, whatever the content type.
    assert_result(body["result"])
    assert body["result"]["status"] != "invalid"
    stored_log = client.get(f"/api/v1/games/{body['slug']}/log")
    assert stored_log.data == raw
    assert body["result"] == localize(check_text(raw), "en")  # with the errors' message ids


@FUZZ
@given(raw=bodies, content_type=content_types, steps=st.booleans())
def test_post_validate_never_fails_on_bad_input(module_app, spec, raw, content_type, steps):
    client = module_app.test_client()
    response = client.post(f"/api/v1/validate?steps={str(steps).lower()}",
                           input_stream=exactly(raw), content_type=content_type)
    if not content_type.startswith(("application/json", "application/x-ndjson")):
        assert response.status_code == 415, response.data[:300]  # finding 9: declared JSON only
        assert_error_shape(response.get_json(), 415)
        return
    if content_type == "application/x-ndjson" and steps:
        assert response.status_code == 422, response.data[:300]  # finding 3: no steps in NDJSON
        assert_error_shape(response.get_json(), 422)
        return
    assert response.status_code in (200, 413), response.data[:300]
    if response.status_code == 413:
        assert_error_shape(response.get_json(), 413)
        return
    if content_type == "application/x-ndjson":
        # NDJSON lines end at "\n" only (str.splitlines would also cut at U+2028, which JSON
        # strings may hold as it is)
        lines = [json.loads(line) for line in response.data.split(b"\n") if line]
        assert [r["line"] for r in lines] == sorted({r["line"] for r in lines})
        for result in lines:
            assert_result(result)
        expected = [n for n, line in enumerate(raw.split(b"\n"), start=1) if line.strip()]
        assert [r["line"] for r in lines] == expected
        return
    body = response.get_json()
    check_documented(spec, "/api/v1/validate", "post", 200, body)
    assert_result(body)
    assert ("steps" in body) is (steps and body["status"] != "invalid")
    body.pop("steps", None)
    words = [error.pop("words") for error in body["errors"]]  # each error in words for pages
    assert all(set(w) == {"where", "text", "line"} and w["line"].endswith(w["text"])
               for w in words), words
    assert body == localize(check_text(raw), "en")  # the API's errors carry their message ids


def test_a_log_must_be_declared_json(module_app):
    """Decision (round 2, finding 9): a body is a log only when declared ``application/json``
    (any parameters); ``application/x-ndjson`` on ``/validate`` means one log per line; any
    other type is a 415, so a cross-site form cannot store a game."""
    client = module_app.test_client()
    raw = encode(simulated("battle", 3, seed=2101))
    answers = {kind: client.post("/api/v1/validate", data=raw, content_type=kind).status_code
               for kind in ("application/json", "application/json; charset=utf-8", "text/plain",
                            "application/octet-stream", "application/x-www-form-urlencoded")}
    assert answers == {"application/json": 200, "application/json; charset=utf-8": 200,
                       "text/plain": 415, "application/octet-stream": 415,
                       "application/x-www-form-urlencoded": 415}
    form = client.post("/api/v1/games", data=raw, content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415
    stored = client.post("/api/v1/games", data=raw, content_type="application/json")
    assert stored.status_code in (200, 201)


# --- the command line ----------------------------------------------------------------------------


@FUZZ
@given(raw=bodies)
def test_cli_validate_never_tracebacks(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "log.json").write_bytes(raw)
    runner = CliRunner()
    plain = runner.invoke(cli, ["validate", str(folder / "log.json")], catch_exceptions=False)
    as_json = runner.invoke(cli, ["validate", "--json", str(folder / "log.json")],
                            catch_exceptions=False)
    for run in (plain, as_json):
        assert run.exit_code in (0, 1, 2), run.output
        assert "Traceback" not in run.output
    assert as_json.stdout.count("\n") == 1, (raw, as_json.output)  # one result, one line
    result = json.loads(as_json.stdout)
    assert_result(result)
    assert result["status"] == check_text(raw)["status"]
    assert as_json.exit_code == plain.exit_code
    assert (as_json.exit_code == 2) is (result["status"] == "invalid")
    ndjson = runner.invoke(cli, ["validate", "--json", "--ndjson", str(folder / "log.json")],
                           catch_exceptions=False)
    assert ndjson.exit_code in (0, 1, 2)
    for line in ndjson.stdout.split("\n")[:-1]:
        assert_result(json.loads(line))


@pytest.mark.parametrize("name", ["missing.json", "a-folder"])
def test_cli_validate_of_an_unreadable_file_is_a_result_not_a_traceback(tmp_path, name):
    (tmp_path / "a-folder").mkdir()
    run = CliRunner().invoke(cli, ["validate", "--json", str(tmp_path / name)],
                             catch_exceptions=False)
    assert run.exit_code == 2
    result = json.loads(run.output)
    assert result["status"] == "invalid" and result["errors"][0]["code"] == "unreadable"


# --- popreplay import ----------------------------------------------------------------------------

EXPORT_FIELDS = ["id", "slug", "visibility", "created_at", "played_at", "game", "mode", "players",
                 "title", "status", "legal", "engine", "owner_token_hash"]


@st.composite
def export_lines(draw: Any) -> bytes:
    """A line of an export (``popreplay export``), often with one field made strange or removed,
    sometimes with a changed log (its SHA-256 always agrees with the log)."""
    log = draw(st.sampled_from(BASES))
    text = json.dumps(log, ensure_ascii=False)
    if draw(st.integers(0, 3)) == 0:
        text = encode(draw(mutated_logs())).decode("utf-8", "surrogatepass")
    entry: dict[str, Any] = {
        "id": 1, "slug": draw(st.sampled_from(["abcdefghijkl", "ZZZZZZZZZZZZ", "x" * 12])),
        "visibility": "public", "created_at": "2026-01-01T00:00:00+00:00", "played_at": None,
        "game": log["game"], "mode": log["mode"], "players": log["players"], "title": None,
        "status": "complete", "legal": True, "engine": "0.1.0",
        "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        "log": text,
    }
    field = draw(st.sampled_from(EXPORT_FIELDS))
    change = draw(st.sampled_from(["none", "none", "remove", "strange"]))
    if change == "remove":
        entry.pop(field, None)
    elif change == "strange":
        entry[field] = draw(strange)
    return encode(entry)


@pytest.fixture(scope="module")
def migrated_db_url(module_app, module_db_url):
    return module_db_url  # module_app has migrated it


@settings(FUZZ, max_examples=max(10, EXAMPLES // 4))  # each example starts the command's app
@given(lines=st.lists(st.one_of(export_lines(), bodies.map(lambda b: b.replace(b"\n", b" "))),
                      min_size=1, max_size=4))
def test_cli_import_never_tracebacks_and_stores_only_whole_games(migrated_db_url,
                                                                 tmp_path_factory, lines):
    from .helpers import assert_every_game_is_whole

    module_db_url = migrated_db_url
    folder = tmp_path_factory.mktemp("import")
    (folder / "games.ndjson").write_bytes(b"\n".join(lines) + b"\n")
    run = CliRunner(env={"POPREPLAY_DATABASE_URL": module_db_url}).invoke(
        cli, ["import", str(folder / "games.ndjson")], catch_exceptions=False)
    assert run.exit_code in (0, 2), run.output
    assert "Traceback" not in run.output
    assert "stored" in run.stdout and "invalid" in run.stdout
    assert_every_game_is_whole(module_db_url)

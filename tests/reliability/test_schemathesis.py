"""schemathesis against ``/api/v1/openapi.json``, through the Flask app (WSGI, no network): no
server error, and every response (status, content type, headers, body) matches the document.

schemathesis' own pytest loader (``from_fixture``) does not run under pytest 9; its Python API
does: one Hypothesis strategy of cases over every operation, positive and negative.

The log bodies are the published JSON Schemas (``schemas/popreplay/1/``, one per game, chosen by
``game``), so what schemathesis generates as valid is a log of the right shape: ``POST /games``
stores it (legal or illegal) and every check runs there. The documented exceptions (the same for
``test_schemathesis_server.py``, over HTTP and stateful; docs/api.md says why each remains):

* ``POST /tables``: its ``log`` is a draft (a log not whole yet: POP!'s ``rounds`` may be empty),
  documented as an object, so what schemathesis calls valid is rarely a draft the engine accepts:
  201, or 422 with the shape's or the engine's errors, each with its JSON Pointer;
* a ``cursor`` is opaque: only one the server gave out is accepted, any other string is a 422
  naming ``/cursor``;
* ``POST /record/games`` with ``branch_of`` naming a stored game: the branch is judged against
  that game (its steps, its cut, its visibility), which the document cannot describe: 201, 404,
  or 422 naming ``/branch_of/step``, ``/log`` or ``/visibility``;
* ``POST /validate`` and the recorder's live check ``POST /record/check`` are dry runs that answer
  every body 200 with its result, ``invalid`` included (documented), so schemathesis' "invalid
  data is rejected" check is replaced there by the check that such a body gets an ``invalid``
  result with its errors (or a 400/413/422 when it is no JSON object at all).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance


# Operations whose body holds a log: since the document's log bodies are the published log
# schemas, what schemathesis calls valid there is accepted (201, or 401/404/409 as documented):
# no exception any more (issue 33).
UPLOADS: set[tuple[str, str]] = set()


# A table starts from a draft the engine accepts: an object is rarely one.
TABLES = {("POST", "/api/v1/tables")}


# Names of people (a group's, its members'): judged beyond their schema's string — blank once
# trimmed, control characters, two names that fold to one player — 422 with the name's pointer.
NAMED = {("POST", "/api/v1/groups"), ("POST", "/api/v1/groups/{slug}/members")}


# A what-if branch (``branch_of`` naming a stored game, which a stateful run can draw) is judged
# against that game: its step must be one of the game's, the log its cut there, continued, and a
# branch of an unlisted game unlisted. The document cannot say what another stored game allows:
# 201, 404 (no such game), or 422 naming /branch_of/step, /log or /visibility; and, as for any
# upload, 401, 409 (the same log stored already) or 413.
BRANCHES = {("POST", "/api/v1/record/games")}
BRANCH_POINTERS = {"/branch_of/step", "/log", "/visibility"}


# Dry runs: they answer every body 200 with its result, ``invalid`` included (documented).
DRY_RUNS = {("POST", "/api/v1/validate"), ("POST", "/api/v1/record/check")}


def excluded(case: Any, mode: GenerationMode) -> list[Any]:
    """The checks replaced for this case (the module's docstring says why)."""
    if mode is GenerationMode.NEGATIVE and (case.method, case.path) in DRY_RUNS:
        return [negative_data_rejection]
    upload = (case.method, case.path) in UPLOADS | TABLES | NAMED
    cursor = "cursor" in (case.query or {})
    body = case.body if isinstance(case.body, dict) else {}
    branch = (case.method, case.path) in BRANCHES and bool(body.get("branch_of"))
    if mode is GenerationMode.NEGATIVE or not (upload or cursor or branch):
        return []
    return [positive_data_acceptance]


def judge(case: Any, response: Any, mode: GenerationMode) -> None:
    """What replaces the excluded checks."""
    if mode is GenerationMode.NEGATIVE and (case.method, case.path) in DRY_RUNS:
        assert response.status_code in (200, 400, 413, 422), response.text
        if response.status_code == 200:
            body = response.json()
            if case.path == "/api/v1/record/check":  # steps=none: the error is in choices
                results = [body["result"] or {"status": "invalid",
                                              "errors": [body["choices"]["error"]]}]
            else:
                results = [body] if isinstance(body, dict) else []
            assert all(r["status"] == "invalid" and r["errors"] for r in results), body
        return
    if not excluded(case, mode):
        return
    if (case.method, case.path) in BRANCHES:
        assert response.status_code in (201, 401, 404, 409, 413, 422), response.text
        if response.status_code == 422:
            errors = response.json()["errors"]
            assert errors and {e["path"] for e in errors} <= BRANCH_POINTERS, errors
        return
    if (case.method, case.path) in TABLES | NAMED:
        assert response.status_code in (201, 401, 403, 404, 422), response.text
        if response.status_code == 422:
            errors = response.json()["errors"]
            assert errors and all(e["code"] and (e["path"] is None or e["path"] == ""
                                                 or e["path"].startswith("/"))
                                  for e in errors), errors
        return
    upload = (case.method, case.path) in UPLOADS
    assert response.status_code in (200, 201, 401, 404, 409, 413, 422), response.text
    if response.status_code == 422:
        errors = response.json()["errors"]
        assert errors
        if upload:
            # apispec documents a nullable nested object (branch_of) as anyOf [its schema, any
            # object]: an object without its required keys is "valid" to schemathesis
            assert {e["code"] for e in errors if not e["path"].startswith("/branch_of/")} <= {
                "json", "schema"}, errors
        else:
            assert errors == [{"code": "bad-query", "path": "/cursor",
                               "message": errors[0]["message"]}]
        assert all(e["path"] == "" or e["path"].startswith("/") for e in errors)


def check_case(case: Any, mode: GenerationMode, **call: Any) -> None:
    response = case.call(**call)
    case.validate_response(response, excluded_checks=excluded(case, mode))
    judge(case, response, mode)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_its_document(module_app: Any, mode: GenerationMode) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", module_app)

    @given(case=schema.as_strategy(mode))
    @settings(max_examples=int(os.environ.get("POPREPLAY_FUZZ_EXAMPLES", "150")), deadline=None,
              derandomize=True,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        check_case(case, mode)

    run()

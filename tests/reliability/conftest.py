"""Fixtures of the reliability tests: one app per module (Hypothesis runs many examples against
it; a fresh database per example would measure only the migrations), on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.conftest import DATABASES, empty_pg_schema, migrated_app


@pytest.fixture(scope="module", params=DATABASES)
def module_db_url(request: pytest.FixtureRequest, tmp_path_factory: Any) -> str:
    """An empty database for the whole module: a SQLite file, or this worker's PostgreSQL one."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'fuzz.sqlite'}"
    url = request.getfixturevalue("pg_database")
    empty_pg_schema(url)
    return url


@pytest.fixture(scope="module")
def module_app(module_db_url: str) -> Iterator[Any]:
    yield from migrated_app(module_db_url)


@pytest.fixture(scope="module")
def spec(module_app: Any) -> dict[str, Any]:
    return module_app.test_client().get("/api/v1/openapi.json").get_json()

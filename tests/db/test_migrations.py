"""Alembic: upgrade -> downgrade -> upgrade on both databases (the stairway), and no difference
between the models and the migrated schema."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from popreplay.db import migrate
from popreplay.db.models import Base
from popreplay.db.session import make_engine

GROUP_TABLES = {"groups", "group_members", "member_aliases", "group_games", "group_seats",
                "group_tokens", "group_ratings", "member_ratings"}  # revision 0010
WEBHOOK_TABLES = {"webhooks", "webhook_deliveries"}  # revision 0012
SUMMARY_TABLES = {"member_summaries"}  # revision 0013


def tables(url: str) -> set[str]:
    engine = make_engine(url, pooled=False)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def revisions() -> list[str]:
    script = ScriptDirectory.from_config(migrate.alembic_config("sqlite://"))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def test_stairway_each_revision_upgrades_downgrades_and_upgrades_again(db_url):
    assert revisions()[0] == "0001"
    for revision in revisions():
        migrate.upgrade(db_url, revision)
        assert migrate.current(db_url) == revision
        migrate.downgrade(db_url, "-1")
        migrate.upgrade(db_url, revision)
        assert migrate.current(db_url) == revision
    assert migrate.is_up_to_date(db_url)
    assert tables(db_url) == {"games", "game_players", "replays", "tables", "table_entries",
                              "deleted_games", "jobs", "job_chunks", "table_signoffs"} \
        | GROUP_TABLES | WEBHOOK_TABLES | SUMMARY_TABLES
    migrate.downgrade(db_url, "base")
    assert migrate.current(db_url) is None
    assert tables(db_url) == set()
    migrate.upgrade(db_url)
    assert tables(db_url) == {"games", "game_players", "replays", "tables", "table_entries",
                              "deleted_games", "jobs", "job_chunks", "table_signoffs"} \
        | GROUP_TABLES | WEBHOOK_TABLES | SUMMARY_TABLES


def test_models_and_migrated_schema_do_not_differ(db_url):
    migrate.upgrade(db_url)
    engine = make_engine(db_url, pooled=False)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


def test_migration_scripts_are_found_as_a_package():
    from pathlib import Path

    location = Path(migrate.script_location())
    assert (location / "env.py").is_file()
    assert (location / "script.py.mako").is_file()
    assert any(location.joinpath("versions").glob("0001_*.py"))

"""Configuration from environment variables."""

from __future__ import annotations

import pytest

from popreplay import create_app
from popreplay.db.session import get_database
from tests.conftest import as_bytes, simulated
from tests.databases import upgraded


def test_environment_variables_configure_the_app(db_url, monkeypatch):
    upgraded(db_url)
    monkeypatch.setenv("POPREPLAY_DATABASE_URL", db_url)
    monkeypatch.setenv("POPREPLAY_PUBLIC_URL", "https://pop.example.org/")
    monkeypatch.setenv("POPREPLAY_MAX_BODY", "50000")
    monkeypatch.setenv("POPREPLAY_SECRET_KEY", "s3cret")
    app = create_app()
    try:
        assert app.config["MAX_CONTENT_LENGTH"] == 50000
        assert app.secret_key == "s3cret"
        client = app.test_client()
        created = client.post("/api/v1/games", data=as_bytes(simulated("coop", 3, seed=95)),
                              content_type="application/json").get_json()
        assert created["share_url"] == f"https://pop.example.org/r/{created['slug']}"
        assert created["links"]["replay"].startswith("https://pop.example.org/api/v1/games/")
        assert client.post("/api/v1/validate", data=b" " * 50001,
                           content_type="application/json").status_code == 413
    finally:
        get_database(app).dispose()


def test_the_default_database_is_a_sqlite_file_in_the_users_data_folder(monkeypatch, tmp_path):
    """Not the Flask instance folder, which moves with the way the package was installed."""
    monkeypatch.delenv("POPREPLAY_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = create_app({"TESTING": True})
    expected = tmp_path / "data" / "popreplay" / "popreplay.sqlite"
    assert get_database(app).url == f"sqlite:///{expected}"
    assert expected.parent.is_dir()
    get_database(app).dispose()


@pytest.mark.parametrize("value", ["lots", "-5", "0"])
def test_a_nonsense_body_limit_is_refused(monkeypatch, value):
    monkeypatch.setenv("POPREPLAY_MAX_BODY", value)
    with pytest.raises(ValueError, match="POPREPLAY_MAX_BODY"):
        create_app()


def test_postgres_urls_mean_psycopg_3():
    from popreplay.db.session import normalise_url

    assert normalise_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"

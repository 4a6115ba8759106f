"""The command line speaks the language of ``LC_ALL``/``LC_MESSAGES``/``LANG``: its tests run in
English whatever the machine's locale (a test that wants French sets it)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")

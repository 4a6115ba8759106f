"""The browser fixtures of tests/web (one server process shared with that folder)."""

from tests.web.conftest import browser, server  # noqa: F401

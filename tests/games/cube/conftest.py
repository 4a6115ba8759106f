"""The browser fixtures of ``tests/web`` (real server, Chromium), for the cube viewer tests."""

from tests.web.conftest import browser, page, server  # noqa: F401

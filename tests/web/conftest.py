"""Browser fixtures: the real server process (``popreplay serve`` on a free port with a temporary
SQLite database), Debian's Chromium driven by Playwright, and a few stored games.

Chromium is Debian's headless shell (/usr/bin/chromium-headless-shell), or the whole browser
(/usr/bin/chromium) where only that is installed. Without either the browser tests are skipped,
unless CI=true: then they fail.
Set POPREPLAY_SCREENSHOTS=1 to (re)write the screenshots in docs/img/.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

# The headless shell first: Chromium's "old headless" build (Debian's chromium-headless-shell,
# what Playwright itself runs for headless Chromium), the same Blink, V8 and network stack without
# the whole browser's windowing layers. The browser tests took about a third less machine CPU
# with it than with the whole browser (docs/architecture.md, the tenth round). ``scripts/bench``
# keeps the whole browser: its figures are what a phone's browser does.
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = next((path for path in CHROMIUMS if os.path.exists(path)), CHROMIUMS[0])
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
KITS = ROOT / "popreplay" / "games"  # each kit's examples/ (popreplay/games/<g>/examples)
SCREENSHOTS = ROOT / "docs" / "img"


# Other test folders import these fixtures into their own conftest.py; pytest then holds one
# session fixture per folder. They share one server process, counted so the last user stops it.
_shared: dict[str, Any] = {}
_users: dict[str, int] = {"server": 0, "browser": 0}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """The running ``popreplay serve`` process and a tiny JSON client for its API."""

    def __init__(self, url: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.url = url
        self.process = process
        self.log = log

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
        req = urllib.request.Request(self.url + path, data=body, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.loads(error.read() or b"null")

    def store(self, log: dict[str, Any] | bytes, visibility: str = "public") -> dict[str, Any]:
        raw = log if isinstance(log, bytes) else json.dumps(log, ensure_ascii=False).encode()
        status, body = self.request("POST", f"/api/v1/games?visibility={visibility}", raw)
        assert status in (200, 201), body
        return body

    def replay(self, slug: str) -> dict[str, Any]:
        # replay format 1: every step its whole state, as the tests read it
        status, body = self.request("GET", f"/api/v1/games/{slug}/replay?format=1")
        assert status == 200, body
        return body


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``popreplay serve`` as a real process, once per test session (per xdist worker)."""
    if "server" not in _shared:
        _shared["server"] = _start_server(tmp_path_factory)
    _users["server"] += 1
    try:
        yield _shared["server"]
    finally:
        _users["server"] -= 1
        if _users["server"] == 0:
            _stop_server(_shared.pop("server"))


def _start_server(tmp_path_factory: pytest.TempPathFactory) -> Server:
    folder = tmp_path_factory.mktemp("server")
    port = _free_port()
    log = folder / "server.log"
    env = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{folder / 'viewer.sqlite'}",
           "POPREPLAY_SECRET_KEY": "browser-tests"}
    env.pop("POPREPLAY_PUBLIC_URL", None)
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "popreplay", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--workers", "1", "--threads", "4"],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            pytest.fail(f"popreplay serve exited ({process.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            process.terminate()
            pytest.fail(f"popreplay serve did not answer within 60 s:\n{log.read_text()}")
        time.sleep(0.2)
    return Server(url, process, log)


def _stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, once per test session (per xdist worker): each test opens its
    own browser context (``watched_page``), so nothing but the process is shared. Launching it
    once per module cost 1.4–1.8 s of CPU each time. Folders that import this fixture share the
    one process, counted like the server's (a folder whose tests start after it died launches
    another)."""
    if not os.path.exists(CHROMIUM):
        reason = f"{' and '.join(CHROMIUMS)} are missing (apt-get install chromium-headless-shell)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason}; with CI=true the browser tests must run")
        pytest.skip(reason)
    if "playwright" not in _shared:
        from playwright.sync_api import sync_playwright

        _shared["playwright"] = sync_playwright().start()
    chromium = _shared.get("browser")
    if chromium is None or not chromium.is_connected():
        chromium = _shared["browser"] = _shared["playwright"].chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    _users["browser"] += 1
    try:
        yield chromium
    finally:
        _users["browser"] -= 1
        if _users["browser"] == 0:
            _shared.pop("browser").close()
            _shared.pop("playwright").stop()


@contextmanager
def watched_page(browser: Any, *, timeout: int = 15000, http_errors: bool = False,
                 **context_args: Any) -> Iterator[Any]:
    """A fresh page in its own browser context (``context_args``: viewport, locale…) that fails
    the test on any JavaScript error or console error (a Content-Security-Policy violation is
    one). The API answers 4xx to bad logs on purpose: the browser logs those as "Failed to load
    resource"; with ``http_errors``, any other failed request (a page, a script, a style sheet)
    is a problem too. ``tab.problems`` lists what was seen so far."""
    context = browser.new_context(**context_args)
    tab = context.new_page()
    tab.set_default_timeout(timeout)
    problems: list[str] = []
    tab.problems = problems
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.on("console", lambda message: problems.append(f"console: {message.text}")
           if message.type == "error" and not message.text.startswith("Failed to load resource")
           else None)
    if http_errors:
        tab.on("response", lambda response: problems.append(
            f"HTTP {response.status}: {response.url}")
            if response.status >= 400 and "/api/v1/" not in response.url else None)
    try:
        yield tab
    finally:
        context.close()
    assert problems == []


def store_locally(tab: Any, base: str, items: dict[str, str]) -> None:
    """``items`` put in the ``localStorage`` of the server at ``base`` (its base URL) before the
    page under test is opened, from the server's cheapest document (``/healthz``): what a phone
    kept from an earlier visit, without loading a page (its scripts, its stream) only to reach
    the storage."""
    tab.goto(base + "/healthz")
    tab.evaluate("items => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
                 items)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (1280×900) that fails the test on any script error or failed request."""
    with watched_page(browser, viewport={"width": 1280, "height": 900}, http_errors=True) as tab:
        yield tab


@pytest.fixture(scope="session")
def example_logs() -> dict[str, dict[str, Any]]:
    return {path.stem: json.loads(path.read_text("utf-8")) for path in sorted(KITS.glob("*/examples/*.json"))}


@pytest.fixture(scope="session")
def stored(server: Server, example_logs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The examples stored through the API, plus an illegal battle: name -> API answer."""
    games = {mode: server.store(log) for mode, log in example_logs.items()}
    illegal = json.loads(json.dumps(example_logs["battle"]))
    illegal["meta"]["title"] = "A battle with an illegal move"
    illegal["rounds"][0]["turns"][2]["plays"]["Alice"] = [50]
    games["illegal"] = server.store(illegal)
    return games


def screenshots_wanted() -> bool:
    return os.environ.get("POPREPLAY_SCREENSHOTS", "") == "1"

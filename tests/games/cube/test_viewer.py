"""The cube replay page in a real browser: the table, hidden hands, the outcome (games/cube.js).

Runs ``popreplay serve`` on a free port with a temporary database and Debian's Chromium; skipped
without Chromium unless CI=true.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from popreplay.checking import check_log

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = json.loads(
    (ROOT / "docs" / "formats" / "cube.md").read_text().split("```json\n")[1].split("```")[0])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("cube-viewer")
    port = _free_port()
    env = {**os.environ, "POPREPLAY_DATABASE_URL": f"sqlite:///{folder / 'db.sqlite'}",
           "POPREPLAY_SECRET_KEY": "cube-viewer"}
    env.pop("POPREPLAY_PUBLIC_URL", None)
    with open(folder / "server.log", "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "popreplay", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--workers", "1", "--threads", "2"],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if process.poll() is not None:
                pytest.fail((folder / "server.log").read_text())
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def _store(url: str, log: dict[str, Any]) -> str:
    request = urllib.request.Request(f"{url}/api/v1/games?visibility=public",
                                     data=json.dumps(log).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["slug"]


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{CHROMIUM} is missing; with CI=true the browser tests must run")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.set_default_timeout(15000)
        problems: list[str] = []
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        yield tab
        browser.close()
        assert problems == []


def _open(page: Any, url: str, slug: str, step: int) -> None:
    page.goto(f"{url}/r/{slug}#step={step}")
    page.wait_for_selector(f'[data-step="{step}"] .cb-player')


def test_table_steps_timers_and_hidden_hands(page: Any, server: str) -> None:
    slug = _store(server, EXAMPLE)
    steps = check_log(EXAMPLE, with_steps=True)["steps"]
    _open(page, server, slug, 13)  # Ana protects her CROSS with PB-1
    ana = '.cb-player[data-player="Ana"]'
    assert page.inner_text(f'{ana} .cb-step[data-step="CROSS"]').split() == [
        "CROSS", "✓", "complete", "CROSS-1", "WHITE-1", "protected", "by", "PB-1"]
    assert page.locator(f'{ana} .cb-step.cb-acted').get_attribute("data-step") == "CROSS"
    assert page.locator(f"{ana} .cb-hand-cards .cb-back").count() == steps[13]["state"][
        "players"]["Ana"]["hand_size"]
    assert page.locator(".cb-hand-cards [data-card]").count() == 0  # hands hidden by default
    page.get_by_role("button", name="Show Bruno’s hand").click()
    shown = page.eval_on_selector_all('.cb-player[data-player="Bruno"] .cb-hand-cards .cb-card',
                                      "els => els.map(e => e.dataset.card || '?')")
    assert shown == ["BLUE-1", "?", "?"]  # BLUE-1 was taken by One Hand; the rest is unseen
    centre = page.inner_text(".cb-centre").split("\n")
    state = steps[13]["state"]
    assert f"{state['pile']['count']} cards" in centre
    assert state["discards"]["left"][-1] == "ONE-HAND-2" and "ONE-HAND-2" in centre


def test_outcome_names_the_winner(page: Any, server: str) -> None:
    slug = _store(server, EXAMPLE)
    _open(page, server, slug, 25)
    assert "Ana wins with four complete steps on turn 5 (round 3)." in page.inner_text(".outcome")
    assert page.locator('.cb-player.cb-winner').get_attribute("data-player") == "Ana"

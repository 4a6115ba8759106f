"""The cube replay page in a real browser: the table, hidden hands, the outcome (games/cube.js).

Uses the browser fixtures of ``tests/web`` (``popreplay serve`` on a free port, Debian's Chromium).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from popreplay.checking import check_log

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = json.loads(
    (ROOT / "docs" / "formats" / "cube.md").read_text().split("```json\n")[1].split("```")[0])


@pytest.fixture(scope="module")
def example_slug(server: Any) -> str:
    return server.store(EXAMPLE)["slug"]


def _open(page: Any, url: str, slug: str, step: int) -> None:
    page.goto(f"{url}/r/{slug}#step={step}")
    page.wait_for_selector(f'[data-step="{step}"] .cb-player')


def test_table_steps_timers_and_hidden_hands(page: Any, server: Any, example_slug: str) -> None:
    steps = check_log(EXAMPLE, with_steps=True)["steps"]
    _open(page, server.url, example_slug, 13)  # Ana protects her CROSS with PB-1
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


def test_outcome_names_the_winner(page: Any, server: Any, example_slug: str) -> None:
    _open(page, server.url, example_slug, 25)
    assert "Ana wins with four complete steps on turn 5 (round 3)." in page.inner_text(".outcome")
    assert page.locator('.cb-player.cb-winner').get_attribute("data-player") == "Ana"

"""The slap replay page in a real browser: what is drawn agrees with the replay's steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

DOC = Path(__file__).resolve().parents[3] / "docs" / "formats" / "slap.md"


@pytest.fixture(scope="module")
def example(server: Any) -> tuple[str, dict[str, Any]]:
    text = DOC.read_text("utf-8").split("```json\n")[1].split("```")[0]
    slug = server.store(json.loads(text))["slug"]
    return slug, server.replay(slug)


def go(page: Any, url: str, index: int) -> None:
    page.goto(f"{url}#step={index}")
    page.wait_for_function("n => document.querySelector('.step-count') && "
                           "document.querySelector('.step-count').textContent.includes(n)",
                           arg=str(index))
    page.wait_for_selector(".sl-player")


def test_every_step_draws_the_piles_of_its_state(page, server, example):
    slug, replay = example
    for step in replay["steps"]:
        go(page, f"{server.url}/r/{slug}", step["index"])
        state = step["state"]
        counts = dict(page.eval_on_selector_all(
            ".sl-player", "els => els.map(e => [e.dataset.player, Number(e.dataset.count)])"))
        assert counts == state["counts"], step["index"]
        shown = page.eval_on_selector_all(".sl-central .sl-card", "els => els.map(e => e.dataset.card)")
        assert shown == state["central"][-6:], step["index"]
        assert page.get_attribute(".sl-folies .sl-count", "data-count") == str(len(state["folies"]))
        assert page.get_attribute(".sl-central .sl-count", "data-count") == str(len(state["central"]))


def test_slaps_are_marked_won_late_penalised_in_time(page, server, example):
    slug, replay = example
    slaps = [s for s in replay["steps"] if s["kind"] == "slap"]
    go(page, f"{server.url}/r/{slug}", slaps[1]["index"])  # Alice, after Chloé won the 7s
    marks = page.eval_on_selector_all(".sl-slap", "els => els.map(e => [e.dataset.player, "
                                      "e.querySelector('.sl-mark').textContent])")
    assert marks == [["Chloé", "won"], ["Alice", "too late"]]
    go(page, f"{server.url}/r/{slug}", slaps[2]["index"])  # Bruno on the shadow trap
    assert page.text_content(".sl-slap .sl-mark") == "penalised (paid 2 cards)"
    assert "shadow trap" in page.text_content(".sl-conditions")
    assert page.text_content(".sl-challenge").startswith("Challenge 4: Alice owes 4 cards")
    go(page, f"{server.url}/r/{slug}", slaps[5]["index"])  # the rainbow, slapped by all three
    marks = page.eval_on_selector_all(".sl-slap .sl-mark", "els => els.map(e => e.textContent)")
    assert marks == ["in time", "in time", "in time"]


def test_the_result_panel_names_the_winner(page, server, example):
    slug, replay = example
    go(page, f"{server.url}/r/{slug}", replay["steps"][-1]["index"])
    text = page.text_content(".sl-outcome")
    assert "Chloé" in text and "time was up" in text

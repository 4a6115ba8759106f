"""The replay page's summary (templates/web/_summary.html): the winner and the scores come right
under the title, before the board, with links down to the board and the whole result; in French
too. The browser check (390×844: above the fold) is tests/web/test_summary_browser.py's."""

from __future__ import annotations

import re
from typing import Any

import pytest

WINNERS = {"battle": "Winner: Bruno", "coop": "The table won.", "solo": "The table won.",
           "puzzle": "Solved.", "slap": "Winner: Bruno", "bloops": "Winner: Alice",
           "cube": "Winner: Bruno"}


def summary(html: str) -> str:
    found = re.search(r'<section class="summary".*?</section>', html, re.S)
    assert found, "no summary"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))


@pytest.mark.parametrize("mode", sorted(WINNERS))
def test_the_winner_and_the_scores_come_first(client: Any, mode: str) -> None:
    html = client.get(f"/examples/{mode}").get_data(as_text=True)
    text = summary(html)
    assert WINNERS[mode] in text
    assert html.index('id="summary"') < html.index('id="viewer"')
    assert 'href="#viewer"' in html and 'href="#result-panel"' in html
    if mode == "battle":
        assert "Alice 42 · Bruno 41 · Chloé 73" in text


def test_the_summary_in_french(client: Any) -> None:
    text = summary(client.get("/examples/battle?lang=fr").get_data(as_text=True))
    assert "Bruno" in text and "Winner" not in text


def test_home_leads_with_what_a_player_does_first(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    start = html.index('id="start"')
    assert start < html.index('id="upload-form"')
    for act in ("record", "open-table"):
        assert html.index(f'data-act="{act}"') < html.index('id="upload-form"')
    assert "Join a table:" in html[start:html.index('id="upload-form"')]

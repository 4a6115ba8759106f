"""The rules pages in a real browser (``popreplay serve`` + Chromium): both languages of each game
load without a console error (a CSP violation is one), fit a phone's width (tables scroll inside
their box), and the language link leads to the same game in the other language."""

from __future__ import annotations

from typing import Any

import pytest

from popreplay.web.rules import GAMES

from .conftest import Server

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_both_languages_on_a_phone(page: Any, server: Server, game: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server.url}/rules/{game}")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("article.rules h2").count() >= 5
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("nav.rules-nav a[hreflang=fr]")
    page.wait_for_url(f"{server.url}/fr/rules/{game}")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    headings = page.locator("article.rules h2").all_inner_texts()
    page.click("nav.rules-nav a[hreflang=en]")
    page.wait_for_url(f"{server.url}/rules/{game}")
    assert page.locator("article.rules h2").count() == len(headings)


def test_rules_anchor_scrolls_to_its_section(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/fr/rules/slap#la-rainbow-seule")
    box = page.locator("#la-rainbow-seule").bounding_box()
    assert box is not None and -5 <= box["y"] < 200  # at the top of the window

"""The Bloops replay page in a real browser: what is drawn agrees with the replay's steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

DOC = Path(__file__).resolve().parents[3] / "docs" / "formats" / "bloops.md"


@pytest.fixture(scope="module")
def example(server: Any) -> tuple[str, dict[str, Any]]:
    text = DOC.read_text("utf-8").split("```json\n")[1].split("```")[0]
    slug = server.store(json.loads(text))["slug"]
    return slug, server.replay(slug)


def drawn_places(page: Any) -> dict[str, list[list]]:
    rows = page.eval_on_selector_all(
        ".bl-place", "els => els.map(e => [e.dataset.player, Number(e.dataset.place),"
        " e.dataset.card, e.querySelector('.bl-num').textContent])")
    out: dict[str, list[list]] = {}
    for player, place, card, text in rows:
        out.setdefault(player, []).append([place, card, text])
    return out


def expected_places(state: dict[str, Any]) -> dict[str, list[list]]:
    return {name: [[p["place"], p["card"], "?" if p["value"] is None else str(p["value"])]
                   for p in places] for name, places in state["places"].items()}


def test_every_step_draws_the_places_and_piles_of_its_state(page, server, example):
    slug, replay = example
    page.goto(f"{server.url}/r/{slug}#step=0")
    for step in replay["steps"]:
        page.goto(f"{server.url}/r/{slug}#step={step['index']}")
        page.wait_for_selector(".bl-place[data-player='Ana']")
        page.wait_for_function("n => document.querySelector('.step-count') && "
                               "document.querySelector('.step-count').textContent.includes(n)",
                               arg=str(step["index"]))
        assert drawn_places(page) == expected_places(step["state"]), step["index"]
        state = step["state"]
        zones = dict(page.eval_on_selector_all(
            ".bl-stack[data-zone]", "els => els.map(e => [e.dataset.zone, e.dataset])"))
        assert zones["discard"]["top"] == (str(state["discard"][-1]["value"]) if state["discard"]
                                           else "")
        assert zones["discard"]["count"] == str(len(state["discard"]))
        assert zones["pile"]["count"] == str(len(state["pile"]))
        assert zones["drawn"]["card"] == (state["drawn"]["card"] if state["drawn"] else "")


def test_the_swap_and_the_wrong_counter_discard_are_marked(page, server, example):
    slug, replay = example
    swap = next(s for s in replay["steps"] if s["kind"] == "swap")
    page.goto(f"{server.url}/r/{slug}#step={swap['index']}")
    page.wait_for_selector(".bl-hl-swap")
    marked = page.eval_on_selector_all(
        ".bl-place:has(.bl-hl-swap)", "els => els.map(e => [e.dataset.player, e.dataset.place])")
    assert sorted(marked) == [["Ana", "4"], ["Cleo", "1"]]
    assert "Cleo’s 9" in page.text_content(".bl-action")
    wrong = next(s for s in replay["steps"] if s["kind"] == "counter" and not s["data"]["right"])
    page.goto(f"{server.url}/r/{slug}#step={wrong['index']}")
    page.wait_for_selector(".bl-hl-wrong")
    assert page.eval_on_selector(".bl-place:has(.bl-hl-wrong)", "e => e.dataset.place") == "6"
    assert page.eval_on_selector(".bl-place:has(.bl-hl-new)", "e => e.dataset.place") == "7"


def test_the_result_panel_names_the_winner_and_the_bloops_card(page, server, example):
    slug, replay = example
    last = replay["steps"][-1]["index"]
    page.goto(f"{server.url}/r/{slug}#step={last}")
    page.wait_for_selector("#outcome-line")
    assert page.text_content("#outcome-line") == "Winner: Ana (lowest score wins)"
    assert page.text_content(".bl-bloops-badge") == "Bloops ✕"
    assert "held by Ana" in page.text_content(".bl-centre")


GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "bloops"


def test_an_unseen_rearrangement_draws_the_cards_as_a_set(page, server, tmp_path):
    log = json.loads((GOLDEN / "rearrange-unseen-set.log.json").read_text("utf-8"))
    slug = server.store(log)["slug"]
    replay = server.replay(slug)
    mixed = next(s for s in replay["steps"] if s["kind"] == "rearrange")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/r/{slug}#step={mixed['index']}")
    page.wait_for_selector(".bl-rearranged")
    in_set = page.eval_on_selector_all(
        ".bl-place:has(.bl-in-set)", "els => els.map(e => [e.dataset.player, e.dataset.place])")
    assert in_set == [["Ana", str(n)] for n in range(1, 7)]
    assert page.text_content(".bl-rearranged") == "mixed unseen"
    assert "one of Ana's set 1" in page.get_attribute(".bl-place[data-place='1'] .bl-card",
                                                       "aria-label")
    assert "rearranges unseen" in page.text_content(".bl-action")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "bloops-set-390.png"), full_page=True)
    look = next(s for s in replay["steps"] if s["kind"] == "look")
    page.goto(f"{server.url}/r/{slug}#step={look['index']}")
    page.wait_for_selector(".bl-hl-look")
    assert page.text_content(".bl-place[data-player='Ana'][data-place='6'] .bl-num") == "5"

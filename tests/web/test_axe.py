"""Accessibility: axe-core (through axe-playwright-python) with its WCAG 2 A and AA rules finds no
serious or critical violation on any page, at 390×844 and at desktop width, in English and
French: home, the recorder, the API docs page, every example replay (POP!'s four modes, cube,
Bloops, slap), a table's page (the host's first screen, a seat's) and the host's question before storing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from popreplay.web.views import EXAMPLES
from tests.tables.helpers import game_log, start_of
from tests.tables.live import Live
from tests.web.conftest import browser, server, store_locally, watched_page  # noqa: F401

pytestmark = pytest.mark.browser
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PAGES = ["/", "/record", "/api/v1/docs", *[f"/examples/{m}" for m in EXAMPLES]]
# What a page shows once its scripts have drawn it (the others are whole when they load): axe
# looks then. Waiting for the network to be quiet instead cost half a second a page, 5.5 s a test.
DRAWN = {"/record": "form.rp-setup", **{f"/examples/{m}": "#viewer[data-step]" for m in EXAMPLES}}
OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]},
           "resultTypes": ["violations"]}


def serious(tab: Any) -> list[str]:
    """The serious and critical violations on the page: rule, impact, nodes, a first target."""
    found = axe_sync.Axe().run(tab, options=OPTIONS).response["violations"]
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes: {v['nodes'][0]['target']})"
            for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_serious_violation_on_any_page(server, browser, viewport, lang):  # noqa: F811
    problems = {}
    with watched_page(browser, viewport=viewport, timeout=20000) as tab:
        for path in PAGES:
            tab.goto(f"{server.url}{path}?lang={lang}")
            if path in DRAWN:
                tab.wait_for_selector(DRAWN[path], state="attached")
            found = serious(tab)
            if found:
                problems[path] = found
    assert problems == {}


def test_no_serious_violation_on_a_tables_pages(server, browser):  # noqa: F811
    log = game_log(seed=3)
    live = Live(server, start_of(log), hands=True)
    try:
        phones = live.open(browser, log["players"][:1])
        host, watcher = phones[log["players"][0]], phones[None]
        fresh = live.call("POST", "/api/v1/tables", {"log": start_of(log), "record_hands": True})
        with watched_page(browser, viewport=PHONE, timeout=20000) as first:
            store_locally(first, server.url, {f"popreplay-table:{fresh['table']}": json.dumps(
                {"host": fresh["host_token"], "key": fresh["join_key"], "qr": fresh["qr_svg"]})})
            first.goto(f"{server.url}/t/{fresh['table']}?lang=fr")
            first.wait_for_selector("[data-act=host] img")
            assert serious(first) == []
        for tab in (host, watcher):
            tab.wait_for_selector("[data-entry=round]")
            assert serious(tab) == [], tab.url
        host.click("[data-act=store]")  # the question asked before storing
        host.wait_for_selector("[data-act=store-ask]")
        assert serious(host) == []
    finally:
        live.close()

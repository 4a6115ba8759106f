"""A recorded game's title in the page's language (popreplay/web/titles.py): the recorder's own
title ("POP! battle · Alice, Bruno, Chloé", written when the player gave none) is said again in
the replay page's language; a title a player typed stays as typed."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.web.test_pages import example_bytes, store_log


def heading(client: Any, slug: str, lang: str) -> str:
    html = client.get(f"/r/{slug}?lang={lang}").get_data(as_text=True)
    found = re.search(r'<h1 id="game-title">(.*?)</h1>', html)
    assert found
    return found.group(1)


def stored_with(client: Any, title: str) -> str:
    log = json.loads(example_bytes("battle"))
    log["meta"]["title"] = title
    return store_log(client, json.dumps(log).encode())["slug"]


def test_the_recorders_title_is_said_in_the_pages_language(client: Any) -> None:
    log = json.loads(example_bytes("battle"))
    names = ", ".join(log["players"])
    said = heading(client, stored_with(client, f"POP! battle · {names}"), "fr")
    assert said == f"POP! compétitif · {names}"
    french = stored_with(client, said)  # a title recorded in French, read in English
    assert heading(client, french, "en") == f"POP! battle · {names}"


def test_a_typed_title_stays_as_typed(client: Any) -> None:
    slug = stored_with(client, "POP! battle at Chloé's")
    assert heading(client, slug, "fr") == "POP! battle at Chloé&#39;s"

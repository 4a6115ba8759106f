"""Replays on other sites (issue 33): ``/embed/<slug>`` is the viewer alone and the only page a
site of another origin may frame; ``/oembed`` finds it from a replay's link; the replay page
names the oEmbed address and shows the snippet to copy."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

import pytest

from tests.conftest import as_bytes, simulated


def store(client: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", data=as_bytes(simulated("battle", 3, seed=5)),
                           content_type="application/json")
    assert response.status_code == 201
    return response.get_json()


def test_only_the_embed_may_be_framed(client: Any) -> None:
    slug = store(client)["slug"]
    embed = client.get(f"/embed/{slug}")
    assert embed.status_code == 200
    assert "frame-ancestors *" in embed.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in embed.headers
    text = embed.data.decode()
    assert 'id="viewer"' in text and 'id="replay-data"' in text
    assert "site-header" not in text and "whatif" not in text  # the viewer alone
    for path in (f"/r/{slug}", "/", "/record", f"/embed/{slug}x"):
        page = client.get(path)
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"], path
        assert page.headers["X-Frame-Options"] == "DENY", path


def test_oembed_discovery_from_the_replay_page(client: Any) -> None:
    game = store(client)
    page = client.get(f"/r/{game['slug']}").data.decode()
    link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"',
                     page)
    assert link is not None
    found = client.get(html.unescape(link.group(1)).removeprefix("http://localhost"))
    assert found.status_code == 200 and found.mimetype == "application/json"
    body = found.get_json()
    assert body["version"] == "1.0" and body["type"] == "rich"
    assert f'src="http://localhost/embed/{game["slug"]}"' in body["html"]
    assert (body["width"], body["height"]) == (640, 560)
    snippet = re.search(r'<textarea id="embed-code"[^>]*>([^<]+)</textarea>', page)
    assert snippet is not None and html.unescape(snippet.group(1)) == body["html"]
    small = client.get(f"/oembed?url={quote('http://localhost/embed/' + game['slug'])}"
                       "&maxwidth=320&maxheight=300").get_json()
    assert (small["width"], small["height"]) == (320, 300) and 'width="320"' in small["html"]


@pytest.mark.parametrize(("query", "status"), [
    ("url=http://elsewhere.example/r/abc", 404),
    ("url=http://localhost/r/nothere", 404),
    ("url=http://localhost/r/a/b", 404),
    ("url=javascript:alert(1)", 404),
    ("", 404),
    ("format=xml&url=http://localhost/r/abc", 501),
    ("url=http://localhost/r/abc&maxwidth=-4", 400),
])
def test_oembed_refuses_what_is_not_a_replay_here(client: Any, query: str, status: int) -> None:
    store(client)
    assert client.get(f"/oembed?{query}").status_code == status

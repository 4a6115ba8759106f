"""The replay page is kept rendered (``web/page_cache.py``): rendered once per game, engine,
language and address, with an ETag (``If-None-Match`` → 304), and a deleted game is gone at once."""

from __future__ import annotations

import gzip
from typing import Any

import popreplay.web.views as views
from tests.web.test_pages import example_bytes, store_log


def counting(monkeypatch: Any) -> list[str]:
    rendered: list[str] = []
    real = views._replay_context

    def spy(*args: Any, **kwargs: Any) -> Any:
        rendered.append(kwargs.get("slug"))
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "_replay_context", spy)
    return rendered


def test_a_page_is_rendered_once_and_answered_by_its_etag(client, monkeypatch):
    rendered = counting(monkeypatch)
    stored = store_log(client, example_bytes("battle"))
    url = f"/r/{stored['slug']}"
    first = client.get(url)
    second = client.get(url)
    assert first.status_code == second.status_code == 200
    assert first.data == second.data and rendered == [stored["slug"]]
    etag = first.headers["ETag"]
    assert etag == second.headers["ETag"] and first.headers["Cache-Control"] == "no-cache"
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == first.data and packed.headers["ETag"] == etag
    french = client.get(url + "?lang=fr")
    assert french.headers["ETag"] != etag and 'lang="fr"' in french.get_data(as_text=True)
    assert rendered == [stored["slug"]] * 2  # English once, French once
    client.get(url + "?lang=fr")
    assert len(rendered) == 2


def test_a_deleted_game_is_gone_at_once(client):
    stored = store_log(client, example_bytes("coop"))
    url = f"/r/{stored['slug']}"
    etag = client.get(url).headers["ETag"]
    deleted = client.delete(f"/api/v1/games/{stored['slug']}",
                            headers={"Authorization": f"Bearer {stored['owner_token']}"})
    assert deleted.status_code in (200, 204)
    assert client.get(url).status_code == 404
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 404

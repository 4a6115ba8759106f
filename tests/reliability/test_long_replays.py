"""Long replays: computed once however many fetch them, never parsed by a page, fetched by the page
instead of embedded when large. Found in the hardening rounds of issues 15, 16 and 25
(docs/reliability.md)."""

from __future__ import annotations

import json
import threading
from typing import Any

from popreplay.store import replays
from tests.reliability.hardening import post

# --- 3. long replays: computed once, never parsed by a page, not embedded when large -------------


def long_slap(events: int, *, illegal: bool) -> bytes:
    log = {"format": "popreplay/1", "game": "slap", "mode": "elimination",
           "players": ["Alice", "Bruno"],
           "events": [{"flip": "Alice", "card": "red-7"}, {"flip": "Bruno", "card": "blue-9"}]
           + [{"slap": "Alice"}] * events}
    if illegal:
        log["events"].append({"flip": "Nobody", "card": "red-1"})
    return json.dumps(log).encode()


def test_3_overlapping_fetches_compute_a_replay_once(app, client, monkeypatch):


    slug = post(client, long_slap(300, illegal=False)).get_json()["slug"]
    replays._replay_gzip.clear()
    calls: list[int] = []
    real = replays.check_text

    def counted(raw: bytes, **kwargs: Any) -> Any:
        if kwargs.get("with_steps"):
            calls.append(1)
        return real(raw, **kwargs)

    monkeypatch.setattr(replays, "check_text", counted)
    statuses: list[int] = []

    def fetch() -> None:
        with app.test_client() as own:
            statuses.append(own.get(f"/api/v1/games/{slug}/replay").status_code)

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 8
    assert len(calls) == 1


def test_3_an_illegal_page_never_parses_its_replay(app, client, monkeypatch):
    from popreplay.web import views

    raw = long_slap(200, illegal=True)
    created = post(client, raw).get_json()
    assert created["status"] == "illegal"
    steps = client.get(f"/api/v1/games/{created['slug']}/replay").get_json()["steps"]
    parsed: list[int] = []
    real = views.json.loads
    monkeypatch.setattr(views.json, "loads", lambda text, *a, **k: (
        parsed.append(len(text)), real(text, *a, **k))[1])
    page = client.get(f"/r/{created['slug']}").get_data(as_text=True)
    assert f'data-jump="{len(steps) - 1}"' in page
    assert steps[-1]["kind"] == "violation"
    assert [n for n in parsed if n > 10_000] == []  # the log (small) may be read; never the replay


def test_3_a_large_replay_is_fetched_by_the_page_not_embedded(app, client, monkeypatch):
    from popreplay.web import views

    monkeypatch.setattr(views, "EMBED_MAX_GZIP", 1024)
    raw = long_slap(2000, illegal=True)
    created = post(client, raw).get_json()
    page = client.get(f"/r/{created['slug']}").get_data(as_text=True)
    replay_url = f"/api/v1/games/{created['slug']}/replay"
    assert f'"replay_url":"{replay_url}"' in page
    assert '"kind":"violation"' not in page  # no steps in the page
    assert len(page) < len(raw) + 15_000  # the log (for its claims) and the page: no replay
    assert client.get(replay_url).get_json()["steps"][-1]["kind"] == "violation"

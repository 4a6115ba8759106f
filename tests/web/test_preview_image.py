"""Link previews with a picture (issue 24): the final table as a real 1200×630 PNG, cached per
game, engine version and language; a range of steps as a GIF of as many frames; no hand drawn,
on an unlisted game either."""

from __future__ import annotations

import io
import json
from typing import Any

from PIL import Image

from popreplay.engine import GAMES, replay_log
from popreplay.web import preview_image
from tests.web.test_pages import metas_of, store_log


def battle(seed: int) -> dict[str, Any]:
    log = GAMES["pop"].simulate(mode="battle", players=3, seed=seed)
    log.pop("claimed", None)
    return log


def test_the_preview_is_a_real_png_of_the_right_size_and_the_second_fetch_is_cached(client):
    slug = store_log(client, json.dumps(battle(31)).encode())["slug"]
    first = client.get(f"/r/{slug}.png")
    assert first.status_code == 200 and first.mimetype == "image/png"
    assert first.headers["X-Preview-Cache"] == "miss"
    image = Image.open(io.BytesIO(first.data))
    assert image.format == "PNG" and image.size == (1200, 630)
    assert len(image.convert("RGB").getcolors(maxcolors=100000) or []) > 20  # a drawing, not a blank
    second = client.get(f"/r/{slug}.png")
    assert second.headers["X-Preview-Cache"] == "hit" and second.data == first.data
    french = client.get(f"/r/{slug}.png?lang=fr")  # another language: drawn again, kept apart
    assert french.headers["X-Preview-Cache"] == "miss" and french.data != first.data
    assert client.get("/r/no-such-game.png").status_code == 404
    metas = metas_of(client.get(f"/r/{slug}").get_data(as_text=True))
    assert metas["og:image"].endswith(f"/r/{slug}.png")


def test_an_unlisted_game_with_hands_shows_no_hidden_card(client):
    log = battle(32)
    stored = store_log(client, json.dumps(log).encode(), visibility="unlisted")
    assert client.get(f"/r/{stored['slug']}.png").status_code == 200
    steps = replay_log(log, with_steps=True)["steps"]
    for step in (steps[-1], steps[len(steps) // 2]):
        hands = {c for cards in (step["state"].get("hands") or {}).values() for c in cards}
        assert hands, "the log records hands"
        _, drawn = preview_image.draw_table(step=step, title="t", line="l", standings=[])
        assert drawn and not set(drawn) & hands
        area = {c for row in step["state"]["area"]["rows"] for c in row if c is not None}
        assert set(drawn) == area


def test_the_gif_has_as_many_frames_as_steps_asked_and_is_bounded(client):
    slug = store_log(client, json.dumps(battle(33)).encode())["slug"]
    answer = client.get(f"/r/{slug}.gif?from=3&to=9")
    assert answer.status_code == 200 and answer.mimetype == "image/gif"
    image = Image.open(io.BytesIO(answer.data))
    assert image.n_frames == 7 and image.size == preview_image.FRAME
    assert answer.headers["X-Preview-Steps"] == "3-9"
    assert client.get(f"/r/{slug}.gif?from=3&to=9").headers["X-Preview-Cache"] == "hit"
    whole = client.get(f"/r/{slug}.gif?from=0&to=100000")
    assert Image.open(io.BytesIO(whole.data)).n_frames == preview_image.MAX_FRAMES
    assert client.get(f"/r/{slug}.gif?from=x").status_code == 400


def test_every_example_replay_has_its_picture_too(client):
    from popreplay.web.views import EXAMPLES

    for mode in EXAMPLES:
        metas = metas_of(client.get(f"/examples/{mode}").get_data(as_text=True))
        assert metas["twitter:card"] == "summary_large_image"
        assert metas["og:image"].endswith(f"/examples/{mode}.png")
        answer = client.get(f"/examples/{mode}.png")
        assert answer.status_code == 200
        assert Image.open(io.BytesIO(answer.data)).size == (1200, 630)
    assert client.get("/examples/nope.png").status_code == 404

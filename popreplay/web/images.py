"""Pictures the server draws: the recorder's "continue on another phone" QR code (segno, SVG)
and the replay pages' link previews (Pillow: ``/r/<slug>.png``, ``/r/<slug>.gif``; see
``preview_image.py``)."""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from flask import Response, abort, request

from ..caching import BoundedCache
from ..checking import check_text
from ..db.session import get_session
from ..engine import ENGINE_VERSION, GAMES
from ..store.lookups import find_by_slug
from . import preview, preview_image
from .lang import current as current_lang
from .views import EXAMPLES, bp, example_heading, game_title, localized
from .words import mode_word
from .views import _example_bytes as example_bytes
from .views import _example_replay_in as example_replay_in

MAX_QR_TEXT = 600


@bp.post("/record/qr")
def record_qr() -> Any:
    """The QR code of a recorder address, as SVG. POST (the address carries the draft's owner
    token in its fragment: it stays out of URLs and logs); only an address of this site."""
    body = request.get_json(silent=True)
    text = body.get("text") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text or len(text) > MAX_QR_TEXT:
        abort(400)
    if not text.startswith(request.host_url.rstrip("/") + "/record?"):
        abort(400)
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                     svgns=True, title=None, desc=None)
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


# --- link previews -------------------------------------------------------------------------------

PREVIEW_CACHE_BYTES = 32 * 1024 * 1024  # the pictures drawn, kept per process
_CACHE: BoundedCache[tuple[Any, ...], bytes] = BoundedCache(max_bytes=PREVIEW_CACHE_BYTES)


def _picture(body: bytes, mimetype: str, hit: bool, extra: dict[str, str] | None = None) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "public, max-age=3600"
    response.headers["X-Preview-Cache"] = "hit" if hit else "miss"
    response.headers["Vary"] = "Cookie, Accept-Language"
    for name, value in (extra or {}).items():
        response.headers[name] = value
    return response


def _game(slug: str) -> Any:
    record = find_by_slug(get_session(), slug)
    if record is None:
        abort(404)
    return record


_REPLAYS: BoundedCache[tuple[Any, ...], dict[str, Any]] = BoundedCache(
    max_entries=4)  # a few whole replays: GIFs of several ranges of one game replay it once


def _replayed(record: Any) -> dict[str, Any]:
    """The replay with steps, notes in the page's language."""
    key = (record.id, record.slug, record.content_hash, ENGINE_VERSION, current_lang())
    return _REPLAYS.get_or_compute(
        key, lambda: localized(dict(check_text(record.log, with_steps=True))))


def _standings(game: Any, outcome: Any, players: list[str]) -> list[str]:
    if not isinstance(outcome, dict) or not hasattr(game, "standings"):
        return list(players)
    rows = game.standings(outcome, players)
    out = []
    for name in players:
        row = rows.get(name) or {}
        mark = "★ " if row.get("won") else ""
        score = row.get("score")
        out.append(f"{mark}{name}" + (f" — {score}" if isinstance(score, int) else ""))
    return out


def _running(state: Any, players: list[str]) -> list[str]:
    scores = state.get("totals") or state.get("scores") if isinstance(state, dict) else None
    if not isinstance(scores, dict):
        return list(players)
    return [f"{n} — {scores[n]}" if isinstance(scores.get(n), int) else n for n in players]


def _title(record: Any, result: dict[str, Any]) -> str:
    game = GAMES.get(record.game)
    return record.title or f"{game_title(game) if game else record.game} {mode_word(result.get('mode'))}"


@bp.get("/r/<slug>.png")
def preview_png(slug: str) -> Any:
    """The final table, 1200×630, for ``og:image``: kept per game, engine version and language."""
    record = _game(slug)
    key = ("png", record.id, record.slug, record.content_hash, ENGINE_VERSION, current_lang())
    body = _CACHE.get(key)
    if body is not None:
        return _picture(body, "image/png", True)
    result = _replayed(record)
    body = _final_png(result, title=_title(record, result), game_name=record.game,
                      players=record.players)
    _CACHE.put(key, body)
    return _picture(body, "image/png", False)


@bp.get("/examples/<mode>.png")
def example_png(mode: str) -> Any:
    """An example game's preview, as a stored game's."""
    if mode not in EXAMPLES:
        abort(404)
    key = ("example", mode, ENGINE_VERSION, current_lang())
    body = _CACHE.get(key)
    if body is not None:
        return _picture(body, "image/png", True)
    result = example_replay_in(mode, current_lang())
    log = json.loads(example_bytes(mode))
    title = (log.get("meta") or {}).get("title") or example_heading(mode)
    body = _final_png(result, title=title, game_name=log["game"], players=log["players"])
    _CACHE.put(key, body)
    return _picture(body, "image/png", False)


def _final_png(result: dict[str, Any], *, title: str, game_name: str, players: list[str]) -> bytes:
    game = GAMES.get(game_name)
    steps = result.get("steps") or []
    line = preview.summary(result, game_title=game_title(game) if game else str(game_name),
                           players=players)
    image, _ = preview_image.draw_table(step=steps[-1] if steps else None, title=title,
                                        line=line,
                                        standings=_standings(game, result.get("outcome"), players))
    return preview_image.png(image)


@bp.get("/r/<slug>.gif")
def preview_gif(slug: str) -> Any:
    """Steps ``from`` to ``to`` (0-based, as ``#step=N``; the whole game by default) as an
    animated GIF, one frame per step, at most ``MAX_FRAMES`` frames."""
    record = _game(slug)
    first, last = _int_arg("from"), _int_arg("to")
    key = ("gif", record.id, record.slug, record.content_hash, ENGINE_VERSION, current_lang(), first, last)
    body = _CACHE.get(key)
    if body is not None:
        return _picture(body, "image/gif", True)
    result = _replayed(record)
    steps = result.get("steps") or []
    if not steps:
        abort(404)
    start = min(max(first or 0, 0), len(steps) - 1)
    end = min(max(last if last is not None else len(steps) - 1, start), len(steps) - 1)
    end = min(end, start + preview_image.MAX_FRAMES - 1)
    title = _title(record, result)
    frames = []
    for index in range(start, end + 1):
        step = steps[index]
        line = f"{index} · {step.get('note') or ''}"
        image, _ = preview_image.draw_table(step=step, title=title, line=line,
                                            standings=_running(step.get("state"), record.players),
                                            size=preview_image.FRAME)
        frames.append(image)
    body = preview_image.gif(frames)
    _CACHE.put(key, body)
    return _picture(body, "image/gif", False, {"X-Preview-Steps": f"{start}-{end}"})


def _int_arg(name: str) -> int | None:
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if not value.isdigit() or len(value) > 7:
        abort(400)
    return int(value)

"""Replays on other sites: ``/embed/<slug>`` (the replay viewer alone, the only page other sites
may frame) and ``/oembed`` (oEmbed 1.0 discovery, so that forums and chat apps show a replay from
its link; the replay page names it in a ``<link rel="alternate">``). See docs/viewer.md,
"Embedding a replay"."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit

from flask import Response, abort, request
from markupsafe import Markup, escape

from ..api.represent import base_url
from ..db.session import get_session
from ..jsonout import compact
from ..store.lookups import find_by_slug
from .views import SECURITY_HEADERS, bp, replay_page

# Only the embed relaxes frame-ancestors (any site may frame it); every other page keeps 'none'.
EMBED_POLICY = SECURITY_HEADERS["Content-Security-Policy"].replace(
    "frame-ancestors 'none'", "frame-ancestors *")
WIDTH, HEIGHT = 640, 560  # the frame's default size (the viewer is phone-first: it fits 320 too)
MAX_DIMENSION = 4000


def embed_url(slug: str) -> str:
    return f"{base_url()}/embed/{quote(slug, safe='')}"


def embed_snippet(slug: str, width: int = WIDTH, height: int = HEIGHT) -> Markup:
    """The ``<iframe>`` to paste (oEmbed's ``html`` too)."""
    return Markup(
        f'<iframe src="{escape(embed_url(slug))}" width="{width}" height="{height}" '
        f'style="border:0;max-width:100%" loading="lazy" title="popreplay" '
        f'referrerpolicy="no-referrer"></iframe>')


def oembed_href(slug: str) -> str:
    return f"{base_url()}/oembed?format=json&url={quote(base_url() + '/r/' + slug, safe='')}"


bp.add_app_template_global(embed_snippet, "embed_snippet")
bp.add_app_template_global(oembed_href, "oembed_href")


@bp.get("/embed/<slug>")
def embed(slug: str) -> Any:
    answer = replay_page(slug, "web/embed.html")
    response = answer if isinstance(answer, Response) else Response(*_pair(answer))
    if response.status_code == 200:
        response.headers["Content-Security-Policy"] = EMBED_POLICY
    return response


def _pair(answer: Any) -> tuple[Any, ...]:
    body, status = answer if isinstance(answer, tuple) else (answer, 200)
    return body, status, {"Content-Type": "text/html; charset=utf-8"}


@bp.after_app_request
def _framable(response: Response) -> Response:
    """The embed drops ``X-Frame-Options: DENY`` (its policy's frame-ancestors says who may
    frame it); every other answer keeps it."""
    if request.endpoint == "web.embed" and response.status_code == 200:
        response.headers.pop("X-Frame-Options", None)
    return response


def _slug_of(url: str) -> str | None:
    """The slug of a replay's address on this service (``/r/<slug>`` or ``/embed/<slug>``)."""
    parts, ours = urlsplit(url), urlsplit(base_url())
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != ours.netloc.lower():
        return None
    segments = parts.path.split("/")
    if len(segments) != 3 or segments[0] or segments[1] not in ("r", "embed") or not segments[2]:
        return None
    return segments[2]


def _dimension(name: str, default: int) -> int:
    value = request.args.get(name, "")
    if not value:
        return default
    if not value.isdigit() or not 0 < int(value) <= MAX_DIMENSION:
        abort(400)
    return min(default, int(value))


@bp.get("/oembed")
def oembed() -> Any:
    """oEmbed 1.0 (``type: rich``): ``url`` a replay of this service; ``format`` json only
    (``xml``: 501, as the specification says); ``maxwidth``/``maxheight`` honoured."""
    if request.args.get("format", "json") != "json":
        abort(501)
    width, height = _dimension("maxwidth", WIDTH), _dimension("maxheight", HEIGHT)
    slug = _slug_of(request.args.get("url", ""))
    record = find_by_slug(get_session(), slug) if slug else None
    if record is None:
        abort(404)
    title = record.title or f"{record.game} · {', '.join(record.players)}"
    body = {"version": "1.0", "type": "rich", "provider_name": "popreplay",
            "provider_url": base_url() + "/", "title": title,
            "html": str(embed_snippet(record.slug, width, height)),
            "width": width, "height": height,
            "thumbnail_url": f"{base_url()}/r/{quote(record.slug, safe='')}.png",
            "thumbnail_width": 1200, "thumbnail_height": 630,
            "cache_age": 3600}
    return Response(compact(body), content_type="application/json",
                    headers={"Cache-Control": "public, max-age=3600"})

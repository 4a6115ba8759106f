"""Pictures the server draws: the recorder's "continue on another phone" QR code (segno, SVG)
and the replay pages' link previews (Pillow: ``/r/<slug>.png``, ``/r/<slug>.gif``; see
``preview_image.py``)."""

from __future__ import annotations

import io
from typing import Any

import segno
from flask import Response, abort, request

from .views import bp

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

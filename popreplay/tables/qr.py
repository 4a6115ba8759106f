"""The join link's QR code, drawn here as SVG (segno): no outside service sees the link."""

from __future__ import annotations

import io

import segno


def svg(url: str, *, title: str) -> str:
    """A standalone SVG document (with its namespace: a browser draws an ``<img>`` of it only
    then), also fit to be put inline in a page."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=2, title=title, dark="#111", light="#fff",
              xmldecl=False, svgns=True, nl=False)
    return out.getvalue().decode("utf-8")

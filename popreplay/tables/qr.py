"""The join link's QR code, drawn here as SVG (segno): no outside service sees the link."""

from __future__ import annotations

import segno


def svg(url: str, *, title: str) -> str:
    code = segno.make(url, error="m")
    return code.svg_inline(scale=4, border=2, title=title, dark="#111", light="#fff")

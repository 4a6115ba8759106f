"""Charts drawn by the server as inline SVG (no script, no outside asset): a member's rating over
their games. The SVG scales to its box (``viewBox``, width 100%), so it reads at 390 px wide."""

from __future__ import annotations

from typing import Any, Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT, PAD_X, PAD_Y = 640, 220, 44, 18


def _scale(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    return low, high


def rating_chart(points: Sequence[dict[str, Any]], *, title: str, label: str) -> Markup:
    """The ordinal (``mu - 3 sigma``) after each rated game, with the band ``mu ± sigma``;
    ``title`` is the chart's accessible name, ``label`` the axis's."""
    if not points:
        return Markup("")
    ordinals = [p["ordinal"] for p in points]
    highs = [p["mu"] + p["sigma"] for p in points]
    lows = [p["mu"] - p["sigma"] for p in points]
    low, high = _scale(ordinals + highs + lows)
    span = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return PAD_X + (WIDTH - PAD_X - 8) * (i / span if len(points) > 1 else 0.5)

    def y(value: float) -> float:
        return HEIGHT - PAD_Y - (HEIGHT - 2 * PAD_Y) * (value - low) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ordinals))
    band = " ".join([f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)] +
                    [f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows)))])
    ticks = "".join(
        f'<line x1="{PAD_X}" x2="{WIDTH - 8}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
        f'<text x="{PAD_X - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.0f}</text>'
        for v in (low, (low + high) / 2, high))
    last = points[-1]
    dots = "".join(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.5"><title>'
                   f'{escape(str(points[i]["game"]))}: {v:.2f}</title></circle>'
                   for i, v in enumerate(ordinals)) if len(points) <= 200 else ""
    svg = (f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
           f'aria-label="{escape(title)}" preserveAspectRatio="xMidYMid meet">'
           f"<title>{escape(title)}</title>"
           f'<polygon points="{band}" class="band"/>{ticks}'
           f'<polyline points="{line}" class="line"/>{dots}'
           f'<text x="{PAD_X}" y="{HEIGHT - 2}" class="axis">{escape(label)}</text>'
           f'<text x="{WIDTH - 8}" y="{HEIGHT - 2}" text-anchor="end" class="axis">'
           f'{last["ordinal"]:.2f}</text></svg>')
    return Markup(svg)

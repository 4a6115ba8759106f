"""Link previews with a picture (issue 24): the final table of a replay as a 1200×630 PNG
(``og:image``, ``twitter:card`` summary_large_image) and a range of steps as an animated GIF,
drawn with Pillow.

Privacy by construction: a picture shows only what lies face up for everybody — the POP! play
area, the Chief's waiting cards, the running scores, the standings — never a hand, on any game
(an unlisted game's hands stay hidden; a public one's are on its replay page for who opens it).
Each drawing also returns the card numbers it drew, so tests can check that.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

SIZE = (1200, 630)
FRAME = (600, 315)
MAX_FRAMES = 60  # a GIF of more steps is cut to its first MAX_FRAMES (X-Preview-Steps says which)
FRAME_MS = 700
BG, INK, SUB, LINE = "#f6f4ef", "#24212b", "#5b5170", "#d6d2de"
# POP! colours by the last digit (0/5 purple, 1/6 red, 2/7 yellow, 3/8 green, 4/9 blue)
POP_COLOURS = ["#7b3fa0", "#d23a3a", "#f2c230", "#2f9e55", "#2d6cc9"]
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"))


@lru_cache(maxsize=16)
def font(size: int, *, bold: bool = False) -> Any:
    names = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf") if bold else (
        "DejaVuSans.ttf", "LiberationSans-Regular.ttf")
    for folder in FONT_DIRS:
        for name in names:
            if (folder / name).is_file():
                return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


def draw_table(*, step: dict[str, Any] | None, title: str, line: str, standings: list[str],
               size: tuple[int, int] = SIZE) -> tuple[Image.Image, list[int]]:
    """One picture: the title, a line about the game, the standings, and (POP!) the play area of
    ``step``. Returns the image and the card numbers drawn."""
    width, height = size
    k = width / SIZE[0]
    image = Image.new("RGB", size, BG)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, width, int(84 * k)), fill=INK)
    pen.text((int(32 * k), int(18 * k)), fit(pen, title, font(int(40 * k), bold=True), width - 64 * k),
             fill="#ffffff", font=font(int(40 * k), bold=True))
    pen.text((int(32 * k), int(100 * k)), fit(pen, line, font(int(26 * k)), width - 64 * k),
             fill=SUB, font=font(int(26 * k)))
    drawn: list[int] = []
    state = (step or {}).get("state") or {}
    area = state.get("area") if isinstance(state, dict) else None
    left = int(32 * k)
    if isinstance(area, dict) and isinstance(area.get("rows"), list):
        drawn = draw_area(pen, area["rows"], box=(left, int(150 * k), int(700 * k), height - int(24 * k)))
        left = int(740 * k)
    top = int(160 * k)
    for text in standings[:8]:
        pen.text((left, top), fit(pen, text, font(int(30 * k)), width - left - 32 * k),
                 fill=INK, font=font(int(30 * k)))
        top += int(48 * k)
    pen.text((width - int(220 * k), height - int(44 * k)), "popreplay", fill=SUB,
             font=font(int(26 * k), bold=True))
    return image, drawn


def draw_area(pen: Any, rows: list[Any], *, box: tuple[int, int, int, int]) -> list[int]:
    """The POP! play area: five queues (A to E, left to right), the top row first; only the
    rows that hold a card."""
    filled = [row for row in rows if isinstance(row, list) and any(c is not None for c in row)]
    x0, y0, x1, y1 = box
    if not filled:
        return []
    cell = min((x1 - x0) // 5, (y1 - y0) // max(len(filled), 1))
    gap = max(cell // 12, 2)
    numbers = font(max(int(cell * 0.45), 8), bold=True)
    drawn = []
    for r, row in enumerate(filled):
        for q, card in enumerate(row[:5]):
            if not isinstance(card, int):
                continue
            x, y = x0 + q * cell, y0 + r * cell
            colour = POP_COLOURS[card % 5]
            pen.rounded_rectangle((x + gap, y + gap, x + cell - gap, y + cell - gap),
                                  radius=max(cell // 8, 2), fill=colour, outline=INK, width=2)
            ink = INK if card % 5 == 2 else "#ffffff"
            pen.text((x + cell // 2, y + cell // 2), str(card), fill=ink, font=numbers, anchor="mm")
            drawn.append(card)
    return drawn


def fit(pen: Any, text: str, face: Any, room: float) -> str:
    """``text`` cut with an ellipsis to ``room`` pixels."""
    if pen.textlength(text, font=face) <= room:
        return text
    while text and pen.textlength(text + "…", font=face) > room:
        text = text[:-1]
    return text + "…"


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def gif(frames: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    first, *rest = [f.convert("P", palette=Image.Palette.ADAPTIVE, colors=64) for f in frames]
    first.save(out, format="GIF", save_all=True, append_images=rest, duration=FRAME_MS, loop=0,
               disposal=1, optimize=False)
    return out.getvalue()

"""``/g/<slug>/sheet``: a quick score-sheet play entered on a phone, no script (docs/groups.md).
First the game, mode and players (members), then the sheet itself: its fields are the ones the
game declares for a score sheet of the mode (``Game.claimable``), drawn as inputs and read back
into the sheet's ``claimed`` — nothing of a game's rules is written here."""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..engine import GAMES
from ..groups import members, sheets
from ..groups.errors import Refused
from ..logformat.types import Result
from ..store.records import InvalidLog
from ..checking import check_json
from .group_pages import _open, schedule_ratings
from .views import bp, render_page

ROUNDS = 9  # rows offered for per-round fields (empty rows are left out)


def _boards() -> list[tuple[str, str]]:
    return [(game.name, mode) for game in GAMES.values() if hasattr(game, "claimable")
            for mode in game.modes if game.claimable(mode)]


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() and len(text) < 8 else None


def _claimed(fields: list[dict[str, Any]], players: list[str]) -> dict[str, Any]:
    """The form read back into a sheet's ``claimed`` (left-out values stay out: the check
    says what is missing)."""
    form = request.form
    out: dict[str, Any] = {}
    for spec in fields:
        key, kind = spec["key"], spec["kind"]
        if kind == "rounds":
            rows = []
            for r in range(ROUNDS):
                row = {p: _number(form.get(f"{key}-{r}-{i}", "")) for i, p in enumerate(players)}
                if any(v is not None for v in row.values()):
                    rows.append({spec["field"]: row})
            if rows:
                out[key] = rows
        elif kind == "per-player":
            row = {p: _number(form.get(f"{key}-{i}", "")) for i, p in enumerate(players)}
            if all(v is not None for v in row.values()):
                out[key] = row
        elif kind == "players":
            chosen = [p for i, p in enumerate(players) if form.get(f"{key}-{i}")]
            if chosen:
                out[key] = chosen
        elif kind == "player":
            index = _number(form.get(key, ""))
            if index is not None and 0 <= index < len(players):
                out[key] = players[index]
        elif kind == "choice" and form.get(key) in spec["choices"]:
            out[key] = form[key]
        elif kind == "yes-no" and form.get(key) in ("yes", "no"):
            out[key] = form[key] == "yes"
    return out


@bp.route("/g/<string:slug>/sheet", methods=["GET", "POST"])
def sheet_page(slug: str) -> BaseResponse | str:
    session, group, allowed = _open(slug, "write")
    people = members.members(session, group)
    board = request.values.get("board", "")
    game_name, _, mode = board.partition("/")
    game = GAMES.get(game_name)
    chosen = [m for m in people if str(m.id) in request.values.getlist("m")]
    if game is None or mode not in game.modes or not chosen:
        return render_page("web/group_sheet.html", group=group, boards=_boards(), members=people,
                           fields=None, errors=[])
    players = [m.name for m in chosen]
    fields = game.claimable(mode)
    errors: list[dict[str, Any]] = []
    if request.method == "POST":
        document = sheets.sheet_document(game=game_name, mode=mode, players=players,
                                         claimed=_claimed(fields, players))
        try:
            sheets.record_sheet(session, group, document, checker=_check)
        except InvalidLog as invalid:
            errors = list(invalid.result["errors"])
        except Refused as refused:
            errors = [refused.as_error()]
        else:
            schedule_ratings(session, group)
            return redirect(url_for("web.group_page", slug=slug) + "#games", code=303)
    page = render_page("web/group_sheet.html", group=group, boards=_boards(), members=people,
                       fields=fields, players=players, chosen=chosen, board=board,
                       rounds=ROUNDS, errors=errors)
    return Response(page, status=422 if errors else 200)


def _check(data: Any) -> Result:
    return check_json(data)

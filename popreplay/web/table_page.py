"""``/t/<id>``: a table's page (docs/table.md), phone first; everything it shows comes from the
tables API (``static/table.js``). The page names every game's renderer and entry panel modules, as
the recorder does (the table's game is the API's answer)."""

from __future__ import annotations

import json

from .views import GAMES, _htmlsafe, bp, game_style, render_page


@bp.get("/t/<string:table_id>")
def table_page(table_id: str) -> str:
    page = {"table": table_id, "api": f"/api/v1/tables/{table_id}"}
    games = [{"style": game_style(g.name)} for g in GAMES.values() if hasattr(g, "choices")]
    return render_page("web/table.html", games=games, page_json=_htmlsafe(json.dumps(page)))

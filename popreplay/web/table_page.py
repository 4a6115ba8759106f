"""``/t/<id>``: a table's page (docs/table.md), phone first; everything it shows comes from the
tables API (``static/table.js``)."""

from __future__ import annotations

import json

from .views import _htmlsafe, bp, render_page


@bp.get("/t/<string:table_id>")
def table_page(table_id: str) -> str:
    page = {"table": table_id, "api": f"/api/v1/tables/{table_id}"}
    return render_page("web/table.html", page_json=_htmlsafe(json.dumps(page)))

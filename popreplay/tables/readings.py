"""Reading a table as a phone may see it (docs/table.md "What each seat sees"): the view, the
entries after a sequence number, the corrections, the whole log (the host). The engine's work
runs beside the request within the budget (popreplay/budget.py) and is kept per key: a view per
(table, sequence number, seats, keeper, viewer, language), so twenty spectators share one.

What a viewer may know is decided by ``tables/views.py`` (the information boundary); this module
only computes it once per key and puts its messages in the phone's language.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .. import budget
from ..i18n import localize
from ..jsonout import compact
from . import corrections, signoff, state as states, views
from .model import Viewer
from .outcomes import Deps, Refused, use_case
from .rows import Row, Snapshot
from .shapes import Correctable
from .state import State

MAX_SEQ = 2**31 - 1  # no table numbers an entry past this (a sequence number is a 32-bit integer)


def localized_view(data: Mapping[str, Any], lang: str) -> dict[str, Any]:
    out = dict(data)
    for key in ("error", "refused"):
        if isinstance(out.get(key), dict):
            item = out[key] if key == "error" else out[key]["error"]
            [item] = localize({"errors": [item]}, lang)["errors"]
            out[key] = item if key == "error" else {**out[key], "error": item}
    if isinstance(out.get("result"), dict):
        out["result"] = localize(out["result"], lang)
    return out


def view(table: Any, state: State, viewer: Viewer, lang: str, *,
         wait: float | None) -> dict[str, Any]:
    """The table as ``viewer`` may see it in ``lang``, computed once per key, beside the request."""
    snap = Snapshot.of(table)
    key = ("table-view", snap.id, state.seq, snap.status, snap.stored_slug,
           tuple(sorted(snap.seat_tokens)), snap.keeper, viewer, lang)
    return json.loads(budget.run(key, _view_bytes, snap, state, viewer, lang, wait=wait))


def _view_bytes(snap: Snapshot, state: State, viewer: Viewer, lang: str) -> bytes:
    return compact(localized_view(views.view(snap, state, viewer), lang)).encode("utf-8")


def entries_seen(table: Any, state: State, viewer: Viewer, rows: list[Row], *, after: int,
                 wait: float | None) -> list[dict[str, Any]]:
    """The entries ``rows`` (after ``after``) as ``viewer`` may see them, beside the request."""
    snap = Snapshot.of(table)
    key = ("table-entries", snap.id, state.seq, viewer.role, viewer.player, after)
    return json.loads(budget.run(key, _entries_bytes, state, viewer, rows, wait=wait))


def _entries_bytes(state: State, viewer: Viewer, rows: list[Row]) -> bytes:
    return compact([views.entry_view(row, state, viewer) for row in rows]).encode("utf-8")


def rows_after(session: Any, table: Any, after: int, upto: int) -> list[Row]:
    return [Row.of(r) for r in states.entries(session, table.id, after=after, upto=upto)]


@use_case
def table_now(deps: Deps, table: Any, viewer: Viewer, lang: str) -> dict[str, Any]:
    """The table now as ``viewer`` may see it."""
    state = states.load(deps.session(), table, wait=deps.wait)
    return view(table, state, viewer, lang, wait=deps.wait)


@use_case
def entries_after(deps: Deps, table: Any, viewer: Viewer, after: int
                  ) -> list[dict[str, Any]] | Refused:
    """The entries after ``after`` as ``viewer`` may see them."""
    if not 0 <= after <= MAX_SEQ:
        return Refused("invalid", "`after` is a sequence number.", (
            {"code": "bad-query", "message": f"from 0 to {MAX_SEQ}", "path": "/after"},))
    session = deps.session()
    state = states.load(session, table, wait=deps.wait)
    rows = rows_after(session, table, after, state.seq)
    return entries_seen(table, state, viewer, rows, after=after, wait=deps.wait)


@use_case
def whole_log(deps: Deps, table: Any, viewer: Viewer) -> dict[str, Any] | Refused:
    """The whole draft, hands included: the host's, to go on alone in the recorder."""
    if not viewer.host:
        return Refused("forbidden", "Only the table's host may do this.")
    return states.load(deps.session(), table, wait=deps.wait).log


@use_case
def correctable(deps: Deps, table: Any, viewer: Viewer) -> tuple[State, list[Correctable]]:
    """The state and the entries this phone may correct (none once stored, none to watch)."""
    session = deps.session()
    state = states.load(session, table, wait=deps.wait)
    if table.status != "live" or viewer.role == "watch":
        return state, []
    return state, corrections.correctable(states.entries(session, table.id),
                                          views.public_log(state), player=viewer.player,
                                          host=viewer.host)


def whole_draft_result(state: State, *, wait: float | None
                       ) -> tuple[dict[str, Any] | None, int]:
    """The engine's result of the table's whole draft and its number of steps, within the
    engine's budget, once per (table, seq) (:func:`signoff.engine_result`)."""
    key = ("table-replay", state.table, state.seq)
    answer = json.loads(budget.run(key, _replay_bytes, state.log, state.game, wait=wait))
    return answer["result"], answer["steps"]


def _replay_bytes(log: dict[str, Any], game: str) -> bytes:
    result, steps = signoff.engine_result(log, game)
    return compact({"result": result, "steps": steps}).encode("utf-8")

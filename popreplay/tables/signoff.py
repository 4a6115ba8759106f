"""Sign-off (docs/table.md "Sign-off"): at the end each seat sees the engine's result beside what
it would have written on the score sheet, and confirms it or disputes it (a replay step and a
sentence). The stored game shows "confirmed by 3 of 3" or "Bruno disputes Round 2, turn 5: …"
(the step's round and turn in words, never its number).

A sign-off may be given once the engine says the game is over, or once the host has stored it
(an unfinished game too), and still after the game is stored: the stored game finds its table
through ``tables.stored_slug``. One sign-off per seat (a new one replaces it). A sign-off counts
for the draft it saw: a correction after it makes it stale ("waiting" again) until the seat signs
again. The score sheet's claims, when a seat enters them, are compared by the engine (the
result's ``claims``): no rule here.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Sequence, cast

from flask_babel import force_locale, gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..db.tables import TableEntry, TableRecord, TableSignoff
from ..db.types import utcnow
from ..drafts import draft_shape
from ..engine import build_result, get_game
from ..engine.where import where
from ..i18n import clean, render
from .. import budget
from ..webhooks.delivery import emit
from . import corrections, games
from .shapes import (ClaimsChecked, Correction, CorrectionText, Dispute, Replayed,
                     SignoffSummary, StoredTable)

VERDICTS = ("confirm", "dispute")
SENTENCE_MAX = 500


def available(table: TableRecord, state: Any) -> bool:
    """Sign-off is open: the engine says the game is over, or the host stored it."""
    return table.status == "stored" or bool(state.choices.get("over"))


def engine_result(log: dict[str, Any], game: str) -> tuple[dict[str, Any] | None, int]:
    """The engine's result of ``log`` and its number of replay steps (0 when it has none), run
    now (the callers keep it within the engine's budget: :func:`result_for`,
    ``readings.whole_draft_result``)."""
    result, places = _replay_places(log, game)
    return result, len(places)


def _replay_places(log: dict[str, Any], game: str
                   ) -> tuple[dict[str, Any] | None, list[list[Any]]]:
    """The engine's result of ``log`` and each replay step's ``[round, turn]``."""
    exact, _errors = draft_shape(log)
    if exact is None:
        return None, []
    replay = get_game(game).replay(exact, with_steps=True)
    return build_result(exact, replay), places_of(replay.steps or [])


def places_of(steps: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    """Each replay step's ``[round, turn]`` (``None`` where it has none)."""
    return [[step.get("round"), step.get("turn")] for step in steps]


def step_words(places: list[list[Any]] | None, step: int | None, lang: str) -> str | None:
    """A replay step in players' words: "Round 2, turn 5" (its round and turn), "Round 2", "the
    start of the game"; ``None`` when the step is not known."""
    if places is None or step is None or not 0 <= step < len(places):
        return None
    round_, turn = places[step]
    spot = where({"round": round_, "turn": turn, "path": ""}, {})
    if spot is None:
        with force_locale(clean(lang)):
            return str(_("the start of the game"))
    return render(spot["id"], spot["params"], clean(lang))


def seen_log(state: Any, viewer: Any, *, available: bool) -> dict[str, Any]:
    """The draft a sign-off answer is computed from: the whole draft once sign-off is open (the
    game is over or stored: every card shows), before that the draft as ``viewer`` may know it
    (a result computed from the whole draft would show every face-down card; the host without
    a seat sees what a spectator sees, as on its table screen)."""
    if available:
        return state.log
    return games.known_to(state.game, state.log, state.choices, player=viewer.player,
                          host=False)


def result_for(table: Any, state: Any, viewer: Any, *, wait: float | None = None
               ) -> tuple[dict[str, Any] | None, int]:
    """The engine's result and number of replay steps that ``viewer``'s sign-off shows
    (:func:`seen_log`), within the engine's budget (kept per table, seq and what is seen)."""
    answer = _replayed(table, state, viewer, wait=wait)
    return answer["result"], len(answer["places"])


def places_for(table: Any, state: Any, viewer: Any, *, wait: float | None = None
               ) -> list[list[Any]]:
    """Each replay step's ``[round, turn]`` of the draft :func:`result_for` replays (the same
    computation, kept)."""
    return list(_replayed(table, state, viewer, wait=wait)["places"])


def _replayed(table: Any, state: Any, viewer: Any, *, wait: float | None) -> Replayed:
    log = seen_log(state, viewer, available=available(table, state))
    who = "all" if log is state.log else (viewer.player or "")
    key = ("table-replay", state.table, state.seq, who)
    # the JSON of :func:`_replay_bytes`
    return cast(Replayed, dict(json.loads(budget.run(key, _replay_bytes, log, state.game,
                                                     wait=wait))))


def _replay_bytes(log: dict[str, Any], game: str) -> bytes:
    result, places = _replay_places(log, game)
    return json.dumps({"result": result, "places": places}, ensure_ascii=True,
                      separators=(",", ":")).encode("ascii")


def claims_check(log: dict[str, Any], game: str, claims: Mapping[str, Any]) -> ClaimsChecked:
    """The engine's comparison of a seat's score sheet with the result (the result's
    ``claims``: ``{match, differences}``), or ``{"error": …}`` when the claims are not of the
    published shape."""
    exact, errors = draft_shape({**log, "claimed": dict(claims)})
    if exact is None:
        return {"error": errors[0].to_dict()}
    result = build_result(exact, get_game(game).replay(exact, with_steps=False))
    return {"claims": result.get("claims"), "errors": result.get("errors") or []}


def give(session: Session, table: TableRecord, *, player: str, verdict: str, step: int | None,
         sentence: str | None, claims: dict[str, Any] | None, seq: int) -> TableSignoff:
    for attempt in range(2):  # the same seat's two phones at once: the second one updates
        row = session.get(TableSignoff, (table.id, player), populate_existing=True)
        if row is None:
            row = TableSignoff(table_id=table.id, player=player)
            session.add(row)
        row.verdict, row.step, row.sentence, row.claims = verdict, step, sentence, claims
        row.seq, row.created_at = seq, utcnow()
        try:
            session.commit()
            emit(session, "game.signed_off" if verdict == "confirm" else "game.disputed",
                 slug=table.stored_slug, data={"table": table.id, "player": player,
                                               "step": step, "sentence": sentence})
            return row
        except IntegrityError:
            session.rollback()
            if attempt:
                raise
    raise AssertionError("unreachable")


# --- what the table and the stored game show -----------------------------------------------------

def last_change(session: Session, table_id: str) -> int:
    """The last entry that changed the draft (a placed entry or a correction)."""
    return int(session.scalar(select(func.max(TableEntry.seq)).where(
        TableEntry.table_id == table_id, TableEntry.kind.in_(("place", corrections.KIND))))
        or 0)


def summary(table: TableRecord, rows: Iterable[TableSignoff], changed: int,
            lang: str, places: list[list[Any]] | None = None) -> SignoffSummary:
    """``{players, confirmed, confirmed_by, disputes, waiting, text}``: only the sign-offs
    given since the draft last changed count. A dispute's ``text`` names its step's round and
    turn (``places``: each replay step's ``[round, turn]``), never the step's number."""
    players = [str(p) for p in table.start["log"].get("players") or []]
    given = {r.player: r for r in rows if r.seq >= changed and r.player in players}
    confirmed = [p for p in players if p in given and given[p].verdict == "confirm"]
    disputes = [given[p] for p in players if p in given and given[p].verdict == "dispute"]
    with force_locale(clean(lang)):
        text = _("confirmed by %(num)s of %(total)s", num=len(confirmed), total=len(players))
        items: list[Dispute] = [{"player": d.player, "step": d.step, "sentence": d.sentence,
                  "at": d.created_at.isoformat() if d.created_at else None,
                  "text": _dispute_text(d, step_words(places, d.step, lang))}
                 for d in disputes]
    return {"table": table.id, "players": len(players), "confirmed": len(confirmed),
            "confirmed_by": confirmed, "disputes": items,
            "waiting": [p for p in players if p not in given], "text": text}


def _dispute_text(row: TableSignoff, place: str | None) -> str:
    if place is None:
        return str(_("%(player)s disputes the result: %(sentence)s", player=row.player,
                     sentence=row.sentence))
    return str(_("%(player)s disputes %(place)s: %(sentence)s", player=row.player, place=place,
                 sentence=row.sentence))


def round_turn(pointer: str) -> dict[str, int]:
    """The 1-based round and turn a pointer of a draft is in (``/rounds/0/turns/2/…``)."""
    ts = pointer.split("/")[1:]
    out: dict[str, int] = {}
    if len(ts) >= 2 and ts[0] == "rounds" and ts[1].isdigit():
        out["round"] = int(ts[1]) + 1
        if len(ts) >= 4 and ts[2] == "turns" and ts[3].isdigit():
            out["turn"] = int(ts[3]) + 1
    return out


def place_words(pointer: str, log: Mapping[str, Any], lang: str) -> str:
    """Where a pointer of a draft is, in words ("Round 1, turn 3 — Bruno"; else the pointer)."""
    spot = where({"path": pointer, **round_turn(pointer)}, log)
    return render(spot["id"], spot["params"], clean(lang)) if spot else pointer


def shown_value(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(shown_value(v) for v in value) or "—"
    if value is None:
        return "—"
    return str(value)


def correction_texts(items: Sequence[Correction], log: Mapping[str, Any],
                     lang: str) -> list[CorrectionText]:
    """Each correction with ``text``: "corrected by Bruno at 21:04 (UTC): Round 1, turn 3 —
    Bruno, 17 → 21" (a hidden value: "a hidden card")."""
    lang = clean(lang)
    out: list[CorrectionText] = []
    with force_locale(lang):
        for item in items:
            who = _("the host") if item["who"] == "host" else item["who"]
            at = (item.get("at") or "")[11:16]
            parts = []
            for change in item["changes"]:
                place = place_words(change["pointer"], log, lang)
                if change.get("hidden"):
                    parts.append(_("%(place)s, a hidden card", place=place))
                else:
                    parts.append(f"{place}, {shown_value(change['old'])} → "
                                 f"{shown_value(change['new'])}")
            text = _("corrected by %(who)s at %(time)s UTC: %(what)s", who=who, time=at,
                     what="; ".join(parts))
            out.append({**item, "text": text})
    return out


def stored(session: Session, slugs: list[str], lang: str) -> dict[str, StoredTable]:
    """For stored games (by slug) recorded at a table: ``{"signoff", "corrections"}`` (three
    queries for any number of games)."""
    if not slugs:
        return {}
    tables = list(session.scalars(select(TableRecord).where(TableRecord.stored_slug.in_(slugs))))
    if not tables:
        return {}
    ids = [t.id for t in tables]
    signs: dict[str, list[TableSignoff]] = {}
    for row in session.scalars(select(TableSignoff).where(TableSignoff.table_id.in_(ids))):
        signs.setdefault(row.table_id, []).append(row)
    fixes: dict[str, list[TableEntry]] = {}
    changed: dict[str, int] = {}
    for entry in session.scalars(select(TableEntry).where(
            TableEntry.table_id.in_(ids), TableEntry.kind.in_(("place", corrections.KIND)))
            .order_by(TableEntry.seq)):
        changed[entry.table_id] = max(changed.get(entry.table_id, 0), entry.seq)
        if entry.kind == corrections.KIND:
            fixes.setdefault(entry.table_id, []).append(entry)
    out: dict[str, StoredTable] = {}
    for table in tables:
        slug = table.stored_slug
        assert slug is not None  # selected by it
        history = corrections.history(fixes.get(table.id, []))
        rows = signs.get(table.id, [])
        disputed = any(r.verdict == "dispute" for r in rows)
        out[slug] = {
            "signoff": summary(table, rows, changed.get(table.id, 0), lang,
                               _stored_places(session, slug) if disputed else None),
            "corrections": correction_texts(history, _log_for_words(table, history), lang)}
    return out


def _stored_places(session: Session, slug: str) -> list[list[Any]] | None:
    """Each step's ``[round, turn]`` of a stored game's replay (kept by the store), for the
    words of its disputes; ``None`` when it cannot be had now."""
    from ..db.models import GameRecord
    from ..store.replays import replay_text

    record = session.scalar(select(GameRecord).where(GameRecord.slug == slug))
    if record is None:
        return None
    try:
        return places_of(json.loads(replay_text(session, record)).get("steps") or [])
    except budget.Busy:
        return None


def _log_for_words(table: TableRecord, history: list[Correction]) -> dict[str, Any]:
    """Enough of a log to say who a pointer is about: the players (the names are in pointers)."""
    return {"players": table.start["log"].get("players") or []} if history else {}

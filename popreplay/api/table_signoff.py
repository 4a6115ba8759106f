"""``/api/v1/tables/{id}/corrections`` and ``/signoff``: a table's corrections and its sign-off
(docs/table.md, "Corrections", "Sign-off"), on the tables' blueprint (``api/tables.py``). Their
engine work (the state, the replay of the result, the claims compared) runs within the engine's
budget, as every table endpoint's does."""

from __future__ import annotations

from typing import Any

from flask_babel import force_locale
from marshmallow import RAISE, Schema, fields, validate
from sqlalchemy import select

from .. import budget
from ..db.session import get_session
from ..db.tables import TableSignoff
from ..engine import get_game
from ..i18n import localize
from ..i18n.words import with_words
from ..tables import corrections, readings, service, signoff, state as states, usecases, views
from ..tables.outcomes import Refused, Stale
from ..tables.shapes import CorrectionText
from ..web.claimform import claim_form
from .lang import request_lang
from .schemas import ErrorSchema, SignoffSummarySchema
from .tables import (BUSY, BUSY_WHY, VARY, AppendedSchema, answered, appended, bp, deps, failing,
                     opened, stale)


# --- corrections and sign-off (docs/table.md "Corrections", "Sign-off") ---------------------------

class CorrectionBodySchema(Schema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=60), metadata={
        "description": "the phone's own id for this correction (a retry is counted once)",
        "example": "bruno-7f3c-0009"})
    seen = fields.Integer(required=True, validate=validate.Range(min=0), metadata={
        "description": "the last sequence number this phone has seen"})
    seq = fields.Integer(required=True, validate=validate.Range(min=1), metadata={
        "description": "the entry corrected (a `place` entry: what put something in the "
                       "draft)", "example": 12})
    set = fields.Dict(required=True, metadata={
        "description": "JSON Pointer into the entry's value -> the new value (a seat: its own "
                       "slots or an entry it placed itself; the host: anything)",
        "example": {"/plays/Bruno": [21]}})
    fixes = fields.List(fields.Dict(), load_default=list, metadata={
        "description": "fixes of later entries this correction would make illegal, "
                       "`[{seq, set}]`, taken together with it",
        "example": []})


class CorrectionsSchema(Schema):
    corrections = fields.List(fields.Dict(), metadata={
        "description": "`{seq, who, at, entry, changes: [{path, pointer, old, new}], text}`"})
    correctable = fields.List(fields.Dict(), metadata={
        "description": "the entries this token may correct, newest first: `{seq, pointer, "
                       "where, fields: [{path, pointer, value, where}]}` (a seat: its own "
                       "slots and the entries it placed; the host: any value the table shows)"})


class SignoffBodySchema(Schema):
    verdict = fields.String(required=True, validate=validate.OneOf(signoff.VERDICTS), metadata={
        "example": "dispute"})
    step = fields.Integer(allow_none=True, load_default=None, validate=validate.Range(min=0),
                          metadata={"description": "a dispute: the replay step (`#step=N`)",
                                    "example": 42})
    sentence = fields.String(allow_none=True, load_default=None,
                             validate=validate.Length(min=1, max=signoff.SENTENCE_MAX),
                             metadata={"description": "a dispute: why, in a sentence",
                                       "example": "I played 21, not 17."})
    claims = fields.Dict(allow_none=True, load_default=None, metadata={
        "description": "what this seat would have written on the score sheet (the log's "
                       "`claimed`: `Game.claimable`); the engine compares it with the result",
        "example": {"totals": {"Ana": 31, "Bruno": 24, "Chloé": 40}}})


class SignoffSchema(Schema):
    open = fields.Boolean(metadata={"description": "the game is over (or stored): sign-off "
                                                   "is open"})
    result = fields.Dict(allow_none=True)
    step_max = fields.Integer(metadata={"description": "the last replay step"})
    claimable = fields.List(fields.Dict(), metadata={
        "description": "the score sheet's fields for this mode, labelled (the recorder's end "
                       "screen)"})
    claims = fields.Dict(allow_none=True, metadata={
        "description": "your claims compared by the engine: `{match, differences}`"})
    yours = fields.Dict(allow_none=True)
    signoff = fields.Nested(SignoffSummarySchema)
    replay_url = fields.String(allow_none=True)


def corrected_entries(table: Any, state: states.State, viewer: service.Viewer,
                      lang: str) -> list[CorrectionText]:
    public = views.known_log(state, viewer)
    shown = corrections.shown(state.corrections, public, player=viewer.player)
    return signoff.correction_texts(shown, public, lang)


@bp.route("/<string:table_id>/corrections", methods=["POST"])
@bp.arguments(CorrectionBodySchema, unknown=RAISE)
@bp.response(201, AppendedSchema, description="The correction is appended (its own sequence "
             "number; the entries list keeps the old body); the table now, every later entry "
             "checked again.")
@bp.alt_response(200, schema=AppendedSchema, description="A retry (same `id`): counted once.")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema, description="Another seat's entry (a seat corrects "
                 "its own; the host any).")
@bp.alt_response(409, schema=ErrorSchema, description="Stale, or the game is stored.")
@bp.alt_response(422, schema=ErrorSchema, description="Refused by the rules, to this phone only, "
                 "nothing appended: when a later entry would become illegal, the error names it "
                 "(`seq`, `entry`: its place in the draft, `path`: the rule's JSON Pointer, "
                 "`words.where`: round, turn and player in words); send a fix of it in `fixes`.")
@bp.alt_response(503, schema=ErrorSchema, headers=BUSY, description=BUSY_WHY)
@bp.doc(security=[{"tableToken": []}])
def correct(body: dict[str, Any], table_id: str) -> Any:
    """Correct an earlier entry (a seat its own, the host any)"""
    _, viewer = opened(table_id)
    lang = request_lang()
    done = usecases.correct(deps(), table_id, viewer, client_id=body["id"], seen=body["seen"],
                            seq=body["seq"], sets=body["set"], fixes=body["fixes"])
    if isinstance(done, Refused):
        refused = failing(done)
        for item in refused.errors:  # this body has no `entry`: its pointers start at the body
            path = str(item.get("path") or "")
            if path.startswith("/entry"):
                item["path"] = path.removeprefix("/entry") or ""
        if done.log is not None:
            refused.errors = with_words(refused.errors, done.log, lang)
        raise refused
    done = answered(done)
    if isinstance(done, Stale):
        return stale(done, viewer, body["seen"], lang)
    return appended(done, viewer, lang)


@bp.route("/<string:table_id>/corrections", methods=["GET"])
@bp.response(200, CorrectionsSchema, description="Every correction (who, when, old and new, "
             "in words), as this token may see them.")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.doc(security=[{"tableToken": []}])
def list_corrections(table_id: str) -> Any:
    """The table's corrections"""
    table, viewer = opened(table_id)
    lang = request_lang()
    state, mine = answered(readings.correctable(deps(), table, viewer))
    public = views.public_log(state)
    for item in mine:
        item["where"] = signoff.place_words(item["pointer"], public, lang)
        for field in item["fields"]:
            field["where"] = signoff.place_words(field["pointer"], public, lang)
    return {"corrections": corrected_entries(table, state, viewer, lang),
            "correctable": mine}, 200, VARY


def signoff_view(table: Any, viewer: service.Viewer, lang: str,
                 claims: dict[str, Any] | None = None) -> dict[str, Any]:
    session = get_session()
    wait = deps().wait
    state = states.load(session, table, wait=wait)
    result, steps = signoff.result_for(table, state, viewer, wait=wait)
    rows = list(session.scalars(select(TableSignoff).where(TableSignoff.table_id == table.id)))
    mine = next((r for r in rows if viewer.player is not None and r.player == viewer.player),
                None)
    with force_locale(lang):
        fields_ = claim_form(get_game(table.game)).get(table.mode, [])
    if claims is None and mine is not None and mine.claims:
        claims = mine.claims
    compared = budget.run(None, signoff.claims_check, state.log, table.game, claims,
                          wait=wait) if claims else None
    return {"open": signoff.available(table, state),
            "result": localize(result, lang) if result else None,
            "step_max": max(steps - 1, 0), "claimable": fields_,
            "claims": compared.get("claims") if compared else None,
            "yours": None if mine is None else {
                "verdict": mine.verdict, "step": mine.step, "sentence": mine.sentence,
                "claims": mine.claims, "current": mine.seq >= state.last_change},
            "signoff": signoff.summary(table, rows, state.last_change, lang,
                                       signoff.places_for(table, state, viewer, wait=wait)),
            "replay_url": f"/r/{table.stored_slug}" if table.stored_slug else None}


@bp.route("/<string:table_id>/signoff", methods=["GET"])
@bp.response(200, SignoffSchema, description="The engine's result beside the score sheet's "
             "fields, and who has signed it off.")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.doc(security=[{"tableToken": []}])
def read_signoff(table_id: str) -> Any:
    """The sign-off (result, score sheet, who signed)"""
    table, viewer = opened(table_id)
    return signoff_view(table, viewer, request_lang()), 200, VARY


@bp.route("/<string:table_id>/signoff", methods=["POST"])
@bp.arguments(SignoffBodySchema, unknown=RAISE)
@bp.response(201, SignoffSchema, description="Signed (a seat's new sign-off replaces its "
             "last). Also after the game is stored.")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema, description="Only a seat signs off.")
@bp.alt_response(409, schema=ErrorSchema, description="The game is not over (nor stored) yet.")
@bp.alt_response(422, schema=ErrorSchema, description="A dispute without a step in the replay or "
                 "a sentence; claims not of the score sheet's shape.")
@bp.doc(security=[{"tableToken": []}])
def give_signoff(body: dict[str, Any], table_id: str) -> Any:
    """Confirm or dispute the result (a seat)"""
    _, viewer = opened(table_id)
    answered(usecases.sign_off(deps(), table_id, viewer, verdict=body["verdict"],
                               step=body["step"], sentence=body["sentence"],
                               claims=body["claims"]))
    table = usecases.find(get_session(), table_id)
    return signoff_view(table, viewer, request_lang(), body["claims"]), 201, VARY

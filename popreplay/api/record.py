"""``/api/v1/record``: what the recorder page (``GET /record``) needs — the live check of a draft
with what may come next, saving and continuing a draft, what-if branches.

No rules here: the engine replays, ``Game.choices`` says what may come next, ``Game.cut`` where a
branch starts (docs/recorder.md, "Contracts for game panels").
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask_smorest import Blueprint
from marshmallow import RAISE, Schema, fields, validate

from .. import drafts
from ..db.models import GameRecord
from ..db.queries import MAX_ID
from ..db.session import get_session
from ..engine import ENGINE_VERSION, build_result, get_game, invalid_result
from ..logformat.pending import pending_error
from ..i18n.words import with_words
from ..jsonout import compact
from ..store.edits import LogTaken, link_branch, update_log
from ..store.ingestion import ingest
from ..store.lookups import branch_source, branches_of, find_by_ref
from ..store.records import InvalidLog
from ..store.replays import replay_stored
from .errors import ApiError
from .lang import localize, request_lang
from .owner import is_owner, require_owner
from .represent import game_view, share_url
from .schemas import CreatedGameSchema, ErrorSchema, GameSchema
from .work import engine_check, within_budget, work_wait

bp = Blueprint("record", __name__, url_prefix="/api/v1/record",
               description="The recorder: check a draft as it is entered, save and continue "
               "drafts, what-if branches.")

STEP_KEYS = ("index", "kind", "round", "turn", "note", "note_id", "note_params")
TAIL = 2  # steps sent whole at the end of a "tail" answer (the table now, and the one before)
VARY = {"Vary": "Accept-Language"}  # results' messages follow ?lang= / Accept-Language


class CheckBodySchema(Schema):
    log = fields.Dict(required=True, metadata={"description": "the draft (popreplay/1)"})
    pending = fields.Dict(load_default=None, allow_none=True,
                          metadata={"description": "the entry being built (per game)"})
    steps = fields.String(load_default="tail", validate=validate.OneOf(("tail", "none", "all")))


class CheckAnswerSchema(Schema):
    result = fields.Dict(allow_none=True)
    steps = fields.List(fields.Dict())
    choices = fields.Dict()


# out of range: 422
STEP: dict[str, Any] = {"strict": True, "validate": validate.Range(min=0, max=MAX_ID)}


class BranchOfSchema(Schema):
    slug = fields.String(required=True)
    step = fields.Integer(required=True, **STEP)


class StoreBodySchema(Schema):
    log = fields.Dict(required=True)
    branch_of = fields.Nested(BranchOfSchema, load_default=None, allow_none=True)
    visibility = fields.String(load_default=None, allow_none=True,
                               validate=validate.OneOf(("public", "unlisted")),
                               metadata={"description": "default: public, unlisted for a branch"})


class UpdateBodySchema(Schema):
    log = fields.Dict(required=True)


class BranchLinkSchema(Schema):
    slug = fields.String()
    step = fields.Integer()
    title = fields.String(allow_none=True)
    share_url = fields.String()


class CutLinkSchema(Schema):
    slug = fields.String(metadata={"description": "the game the draft is cut from"})
    step = fields.Integer(metadata={"description": "the step it is cut at"})


class CutAnswerSchema(Schema):
    log = fields.Dict(metadata={"description": "the draft (popreplay/1, not whole yet)"})
    branch_of = fields.Nested(CutLinkSchema)


class BranchSchema(Schema):
    slug = fields.String()
    step = fields.Integer()
    title = fields.String(allow_none=True)
    status = fields.String(validate=validate.OneOf(("complete", "incomplete", "illegal")))
    share_url = fields.String()


class BranchesSchema(Schema):
    branch_of = fields.Nested(BranchLinkSchema, allow_none=True, metadata={
        "description": "the game it branched from, or null"})
    branches = fields.List(fields.Nested(BranchSchema))


class DraftSchema(Schema):
    game = fields.Nested(GameSchema, metadata={"description": "the stored game (ISO 8601 dates)"})
    log = fields.Dict(metadata={"description": "the saved draft (popreplay/1)"})
    branch_of = fields.Nested(BranchLinkSchema, allow_none=True)


class CutQuerySchema(Schema):
    slug = fields.String(required=True, data_key="from")
    step = fields.Integer(required=True, validate=validate.Range(min=0, max=MAX_ID))


# --- the live check ------------------------------------------------------------------------------

def check_draft(log: dict[str, Any], pending: dict[str, Any] | None,
                steps: str) -> dict[str, Any]:
    exact, errors = drafts.draft_shape(log)
    if exact is None:
        result = invalid_result(errors, game=log.get("game"), mode=log.get("mode"))
        return {"result": None if steps == "none" else result, "steps": [],
                "choices": {"error": result["errors"][0], "next": {}}}
    game = get_game(exact["game"])
    if not hasattr(game, "choices"):
        raise ApiError(422, f"{game.title} cannot be recorded live.", errors=[
            {"code": "bad-request", "message": "no recorder for this game", "path": "/log/game"}])
    wrong = pending_error(exact["game"], pending)
    choices = {"error": wrong, "next": {}} if wrong else game.choices(exact, pending=pending)
    if steps == "none":
        return {"result": None, "steps": [], "choices": choices}
    result = build_result(exact, game.replay(exact, with_steps=True), with_steps=True)
    all_steps = result.pop("steps")
    if steps == "tail":
        all_steps = tail(all_steps)
    return {"result": result, "steps": all_steps, "choices": choices}


def checked_bytes(body: dict[str, Any], lang: str) -> bytes:
    """The check's whole answer in ``lang``, encoded (what :func:`budget.run` keeps)."""
    answer = check_draft(body["log"], body["pending"], body["steps"])
    return compact(in_language(answer, lang, log=body["log"])).encode("utf-8")


def tail(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step's note; whole: the last ``TAIL`` steps and every step of the last one's turn
    (a renderer may look back to the turn's first step, as POP!'s does for the reveal)."""
    if not steps:
        return steps
    last = steps[-1]
    turn = (last["round"], last["turn"]) if last["turn"] is not None else None
    cut = len(steps) - TAIL
    return [s if i >= cut or (turn is not None and (s["round"], s["turn"]) == turn)
            else {k: s[k] for k in STEP_KEYS} for i, s in enumerate(steps)]


@bp.route("/check", methods=["POST"])
@bp.arguments(CheckBodySchema, unknown=RAISE)
@bp.response(200, CheckAnswerSchema, description="The draft's result (without steps), its steps "
             "(`tail`: every step's note, the last two and the last turn's whole) and what may come next. A draft "
             "that breaks a rule is answered 200 with status `illegal`; a wrong shape, `invalid`.")
@bp.alt_response(422, schema=ErrorSchema, description="The body is not of this shape.")
@bp.alt_response(503, schema=ErrorSchema, description="The engine's work took longer than "
                 "POPREPLAY_REPLAY_WAIT (or the server is busy): ask again after Retry-After "
                 "seconds (the answer is kept for the retry).",
                 headers={"Retry-After": {"schema": {"type": "integer"}}})
def check(body: dict[str, Any]) -> Any:
    """Check a draft and say what may come next (nothing is stored)

    Notes and messages in the language of `?lang=`, else `Accept-Language` (`en` or `fr`).
    """
    lang = request_lang()
    key = ("check", hashlib.sha256(compact(body).encode("utf-8", "surrogatepass")).hexdigest(),
           lang, ENGINE_VERSION)
    answer = within_budget(key, checked_bytes, body, lang)
    return json.loads(answer), 200, {"Vary": "Accept-Language"}


def in_language(answer: dict[str, Any], lang: str, *, log: Any = None) -> dict[str, Any]:
    """The check's result, steps and ``choices.error`` in ``lang`` (ids and parameters kept),
    each error with its ``words`` for the page (``popreplay.i18n.words``)."""
    localized = localize({"errors": (answer["result"] or {}).get("errors", []),
                          "steps": answer["steps"],
                          "outcome": (answer["result"] or {}).get("outcome")}, lang)
    out = {**answer, "steps": localized["steps"]}
    if answer["result"] is not None:
        out["result"] = {**answer["result"], "outcome": localized["outcome"],
                         "errors": with_words(localized["errors"], log, lang)}
    error = answer["choices"].get("error") if isinstance(answer["choices"], dict) else None
    if isinstance(error, dict):
        [error] = with_words(localize({"errors": [error]}, lang)["errors"], log, lang)
        out["choices"] = {**answer["choices"], "error": error}
    return out


# --- storing and continuing ----------------------------------------------------------------------

def raw_of(log: dict[str, Any]) -> bytes:
    return compact(log).encode("utf-8")


def owned(ref: str) -> GameRecord:
    record = find_by_ref(get_session(), ref)
    if record is None:
        raise ApiError(404, f"No game {ref!r}.")
    require_owner(record, "Continuing a draft")
    return record


def not_stored(error: InvalidLog) -> ApiError:
    """422: the draft's errors in the request's language, their pointers under ``/log``."""
    errors = localize(error.result, request_lang())["errors"]
    return ApiError(422, "The draft is not a valid log yet: nothing was stored.", errors=[
        {**e, "path": "/log" + (e.get("path") or "")} for e in errors])


def branch_source_for(body: dict[str, Any]) -> GameRecord | None:
    """The game ``branch_of`` names, checked before anything is stored (issue 25, finding 8):
    404 when it is no game; 422 when the step is past its last step, or when the log is not the
    engine's cut of it at that step, continued."""
    if body["branch_of"] is None:
        return None
    session, slug, step = get_session(), body["branch_of"]["slug"], body["branch_of"]["step"]
    source = find_by_ref(session, slug)
    if source is None:
        raise ApiError(404, f"No game {slug!r} to branch from.")
    check_branch(source, step, body["log"])
    return source


def check_branch(source: GameRecord, step: int, log: dict[str, Any]) -> None:
    steps = replay_stored(get_session(), source, wait=work_wait()).step_count
    if step >= steps:
        raise ApiError(422, f"That game has {steps} steps: a branch starts at one of them.",
                       errors=[{"code": "bad-request", "path": "/branch_of/step",
                                "message": f"must be at most {max(steps - 1, 0)}"}])
    if not drafts.extends(log, cut_draft(source, step)):
        raise ApiError(422, "The log is not that game cut at that step (and continued): a "
                       "what-if branch starts from the cut GET /record/cut gives.", errors=[
                           {"code": "bad-request", "path": "/log",
                            "message": "not a continuation of the game's cut at that step"}])


@bp.route("/games", methods=["POST"])
@bp.arguments(StoreBodySchema, unknown=RAISE)
@bp.response(201, CreatedGameSchema, description="Stored (complete or not); `owner_token` is shown this "
             "once: it continues the draft from any device.")
@bp.alt_response(404, schema=ErrorSchema, description="`branch_of.slug` is no game.")
@bp.alt_response(409, schema=ErrorSchema, description="The same log is already stored.")
@bp.alt_response(422, schema=ErrorSchema, description="Not a valid log; or `branch_of` is not "
                 "a step of that game, or the log is not its cut there (continued); or a public "
                 "branch of an unlisted game.")
@bp.alt_response(503, schema=ErrorSchema, headers={"Retry-After": {"schema": {"type": "integer"}}})
def store_draft(body: dict[str, Any]) -> Any:
    """Store a draft as a game (a branch when `branch_of` is given)"""
    session = get_session()
    source = branch_source_for(body)
    visibility = body["visibility"] or ("unlisted" if source is not None else "public")
    if source is not None and source.visibility != "public" and visibility == "public":
        raise ApiError(422, "A branch of an unlisted game is unlisted.", errors=[
            {"code": "bad-request", "path": "/visibility", "message": "must be unlisted"}])
    try:
        done = ingest(session, raw_of(body["log"]), visibility=visibility,
                      checker=engine_check)
    except InvalidLog as invalid:
        raise not_stored(invalid) from None
    if not done.created:
        raise ApiError(409, "This exact log is already stored.", errors=[
            {"code": "duplicate", "message": share_url(done.record), "path": "/log"}])
    if source is not None:
        link_branch(session, done.record, source=source, step=body["branch_of"]["step"])
    view = game_view(done.record, fresh=done.result)
    view["owner_token"] = done.owner_token
    return view, 201, VARY


@bp.route("/games/<string:ref>", methods=["GET"])
@bp.response(200, DraftSchema, description="`{game, log, branch_of}`: the saved draft, for its owner to continue.")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.doc(security=[{"ownerToken": []}])
def open_draft(ref: str) -> Any:
    """Open a saved draft to continue it (owner token required)"""
    record = owned(ref)
    return {"game": game_view(record), "log": json.loads(record.log.decode("utf-8-sig")),
            "branch_of": branch_link(record, owner=True)}, 200, VARY


@bp.route("/games/<string:ref>", methods=["PUT"])
@bp.arguments(UpdateBodySchema, unknown=RAISE)
@bp.response(200, GameSchema, description="The game with its new log and result (its players, "
             "seats, title and date from the new log).")
@bp.alt_response(401, schema=ErrorSchema)
@bp.alt_response(403, schema=ErrorSchema)
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(409, schema=ErrorSchema, description="Another game has exactly this log.")
@bp.alt_response(422, schema=ErrorSchema, description="Not a valid log; or, for a branch, no "
                 "longer its source's cut (continued).")
@bp.alt_response(503, schema=ErrorSchema, headers={"Retry-After": {"schema": {"type": "integer"}}})
@bp.doc(security=[{"ownerToken": []}])
def update_draft(body: dict[str, Any], ref: str) -> Any:
    """Replace a saved draft's log (owner token required)"""
    record = owned(ref)
    source = branch_source(get_session(), record)
    if source is not None:
        check_branch(source, record.branch_step or 0, body["log"])
    try:
        result = update_log(get_session(), record, raw=raw_of(body["log"]),
                            checker=engine_check)
    except InvalidLog as invalid:
        raise not_stored(invalid) from None
    except LogTaken:
        raise ApiError(409, "Another stored game has exactly this log.") from None
    return game_view(record, fresh=result), 200, VARY


# --- what-if branches ----------------------------------------------------------------------------

def branch_link(record: GameRecord, *, owner: bool = False) -> dict[str, Any] | None:
    """The game ``record`` branched from; an unlisted one is named to the branch's owner only."""
    source = branch_source(get_session(), record)
    if source is None or not (source.visibility == "public" or owner or is_owner(record)):
        return None
    return {"slug": source.slug, "step": record.branch_step, "title": source.title,
            "share_url": share_url(source)}


def cut_bytes(raw: bytes, game: str, step: int) -> bytes:
    return compact(drafts.cut_of(raw, game, step)).encode("utf-8")


def cut_draft(record: GameRecord, step: int) -> dict[str, Any]:
    """The engine's cut of a stored game at ``step``, computed beside the request within its
    budget, once per log and step (kept for the next request: the recorder's what-if link and
    the branch's check ask for the same one)."""
    key = ("cut", record.content_hash, step, ENGINE_VERSION)
    return json.loads(within_budget(key, cut_bytes, record.log, record.game, step))


@bp.route("/cut", methods=["GET"])
@bp.arguments(CutQuerySchema, location="query", unknown=RAISE)
@bp.response(200, CutAnswerSchema, description="`{log, branch_of: {slug, step}}`: the draft a what-if branch "
             "from that step starts from (the engine's cut).")
@bp.alt_response(404, schema=ErrorSchema)
@bp.alt_response(503, schema=ErrorSchema, headers={"Retry-After": {"schema": {"type": "integer"}}})
def cut(args: dict[str, Any]) -> Any:
    """The draft of a what-if branch from a stored game's step"""
    record = find_by_ref(get_session(), args["slug"])
    if record is None:
        raise ApiError(404, f"No game {args['slug']!r}.")
    draft = cut_draft(record, args["step"])
    meta = dict(draft.get("meta") or {})
    meta["title"] = f"What if: {record.title or record.slug}, from step {args['step']}"
    draft["meta"] = meta
    return {"log": draft, "branch_of": {"slug": record.slug, "step": args["step"]}}


@bp.route("/branches/<string:ref>", methods=["GET"])
@bp.response(200, BranchesSchema, description="`{branch_of, branches}`: the game it branched from (or null; an "
             "unlisted one only with this game's owner token) and the branches stored from it "
             "(the public ones; the unlisted ones too with the game's owner token).")
@bp.alt_response(404, schema=ErrorSchema)
def branches(ref: str) -> Any:
    """A game's what-if links, both ways"""
    session = get_session()
    record = find_by_ref(session, ref)
    if record is None:
        raise ApiError(404, f"No game {ref!r}.")
    owner = is_owner(record)
    return {"branch_of": branch_link(record, owner=owner),
            "branches": [{"slug": b.slug, "step": b.branch_step, "title": b.title,
                          "status": b.status, "share_url": share_url(b)}
                         for b in branches_of(session, record)
                         if owner or b.visibility == "public"]}

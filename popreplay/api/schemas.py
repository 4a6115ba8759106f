"""marshmallow request/response shapes of the API (the OpenAPI document is generated from them).

The log itself is not described here: its shape is ``popreplay.logformat``'s, and the API takes
it as raw bytes so that it can be stored exactly as uploaded.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from ..db.models import VISIBILITIES
from ..engine import GAMES
from ..db.queries import SORTS

STATUSES = ("complete", "incomplete", "illegal", "sheet")  # sheet: docs/log-format.md


class ErrorEntrySchema(Schema):
    code = fields.String(required=True, metadata={"description": "what kind of problem"})
    message = fields.String(required=True)
    path = fields.String(metadata={"description": "JSON Pointer (RFC 6901) to the problem"})
    round = fields.Integer(allow_none=True)
    turn = fields.Integer(allow_none=True)
    message_id = fields.String(allow_none=True, metadata={
        "description": "the message language-free (null when it has none yet): render "
                       "`message_id` with `params` yourself, or ask for `?lang=`"})
    params = fields.Dict(allow_none=True, metadata={
        "description": "the message's parameters (players, cards, counts; a nested message is "
                       "`{id, params}`)"})
    words = fields.Dict(metadata={
        "description": "for pages (the check answers, the validation): `{where, text, line}` — "
                       "where it is in words (1-based round and turn, the player by name; null "
                       "outside one), the message without a pointer, and the line a page shows"})


class ErrorSchema(Schema):
    """Every error response, everywhere."""

    code = fields.Integer(required=True, metadata={"description": "the HTTP status code"})
    status = fields.String(required=True, metadata={"description": "the HTTP status name"})
    message = fields.String(required=True)
    errors = fields.List(fields.Nested(ErrorEntrySchema), required=True)


class ClaimsSchema(Schema):
    match = fields.Boolean()
    differences = fields.List(fields.Dict())


class ResultSchema(Schema):
    """The result object (docs: spec section 6)."""

    game = fields.String(allow_none=True)
    mode = fields.String(allow_none=True)
    engine = fields.String()
    status = fields.String(validate=validate.OneOf(STATUSES + ("invalid",)))
    legal = fields.Boolean()
    errors = fields.List(fields.Nested(ErrorEntrySchema))
    outcome = fields.Dict(allow_none=True, metadata={"description": "depends on game and mode"})
    claims = fields.Nested(ClaimsSchema, allow_none=True)


class ReplaySchema(ResultSchema):
    replay_format = fields.Integer(metadata={
        "description": "2 (the default): each step after the first has `state_patch`, the JSON "
                       "Patch (RFC 6902) from the step before's state, instead of `state`; absent "
                       "with ?format=1 (every step its whole `state`)"})
    steps = fields.List(fields.Dict(), metadata={"description": "one step per event, in order"})


class ValidateResultSchema(ResultSchema):
    steps = fields.List(fields.Dict(), metadata={"description": "only with ?steps=true"})


class LinksSchema(Schema):
    self = fields.String()
    log = fields.String()
    replay = fields.String()
    share = fields.String()


class SignoffSummarySchema(Schema):
    """A game recorded at a table: who signed its result off (docs/table.md "Sign-off")."""

    table = fields.String(metadata={"description": "the table it was recorded at"})
    players = fields.Integer(metadata={"description": "the seats"})
    confirmed = fields.Integer()
    confirmed_by = fields.List(fields.String())
    disputes = fields.List(fields.Dict(), metadata={
        "description": "`{player, step, sentence, at, text}` (`step`: the replay's `#step=N`)"})
    waiting = fields.List(fields.String(), metadata={
        "description": "seats that have not signed since the draft last changed"})
    text = fields.String(metadata={"description": "in the request's language",
                                   "example": "confirmed by 3 of 3"})


SIGNOFF_EXAMPLE = {
    "table": "q3V9xk2LmP0a", "players": 3, "confirmed": 2, "confirmed_by": ["Ana", "Chloé"],
    "disputes": [{"player": "Bruno", "step": 42, "sentence": "I played 21, not 17.",
                  "at": "2026-12-01T21:04:00+00:00",
                  "text": "Bruno disputes Round 2, turn 5: I played 21, not 17."}],
    "waiting": [], "text": "confirmed by 2 of 3"}


class GameSchema(Schema):
    id = fields.Integer(required=True, metadata={"description": "the game's number"})
    slug = fields.String(required=True, metadata={"description": "the share link's key"})
    share_url = fields.String(required=True)
    game = fields.String()
    mode = fields.String()
    players = fields.List(fields.String())
    title = fields.String(allow_none=True, metadata={"description": "meta.title"})
    played_at = fields.DateTime(allow_none=True, metadata={"description": "meta.played_at, UTC"})
    created_at = fields.DateTime(metadata={"description": "when the game was first stored (kept "
                                           "by an import from another server)"})
    stored_at = fields.DateTime(metadata={"description": "when this server stored it: what "
                                          "`since` and `until` compare"})
    updated_at = fields.DateTime(metadata={"description": "when its log or result last changed "
                                           "here (else `stored_at`): what `updated_since` "
                                           "compares"})
    visibility = fields.String(validate=validate.OneOf(VISIBILITIES))
    status = fields.String()
    legal = fields.Boolean()
    claims_match = fields.Boolean(allow_none=True)
    engine = fields.String(metadata={"description": "engine version that computed the result"})
    sha256 = fields.String(metadata={"description": "SHA-256 of the log as uploaded"})
    result = fields.Nested(ResultSchema)
    links = fields.Nested(LinksSchema)
    signoff = fields.Nested(SignoffSummarySchema, allow_none=True, metadata={
        "description": "recorded at a table: its sign-off (null otherwise)",
        "example": SIGNOFF_EXAMPLE})
    corrections = fields.List(fields.Dict(), metadata={
        "description": "recorded at a table: every correction of an earlier entry, `{seq, who, "
                       "at, entry, changes: [{path, pointer, old, new}], text}`",
        "example": [{"seq": 31, "who": "Bruno", "at": "2026-12-01T21:04:00+00:00", "entry": 12,
                     "changes": [{"path": "/plays/Bruno",
                                  "pointer": "/rounds/0/turns/2/plays/Bruno",
                                  "old": [17], "new": [21]}],
                     "text": "corrected by Bruno at 21:04 UTC: Round 1, turn 3 — Bruno, "
                             "17 → 21"}]})


class CreatedGameSchema(GameSchema):
    owner_token = fields.String(
        metadata={"description": "shown once, on 201 only: needed to delete the game"})


class GamePageSchema(Schema):
    items = fields.List(fields.Nested(GameSchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True, metadata={
        "description": "pass as ?cursor= for the next page. Null on the last page, except with "
                       "`sort=stored`: there the last page still carries the cursor to poll "
                       "with later for the games stored after"})
    has_more = fields.Boolean(required=True, metadata={
        "description": "more games follow now (false on the last page)"})


class UploadQuerySchema(Schema):
    lang = fields.String(metadata={"description": "Language of the result's messages (and of "
                                   "the errors of a refused log): `en` or `fr`."})
    visibility = fields.String(
        load_default="public", validate=validate.OneOf(VISIBILITIES),
        metadata={"description": "unlisted: reachable by its link only"})


LANG_FIELD_DESCRIPTION = ("Language of `message`s and `note`s: `en` or `fr` (anything else is "
                          "English). Without it, `Accept-Language` decides; English by default.")


class LangQuerySchema(Schema):
    lang = fields.String(metadata={"description": LANG_FIELD_DESCRIPTION})


class ValidateQuerySchema(LangQuerySchema):
    steps = fields.Boolean(load_default=False,
                           metadata={"description": "include the annotated steps"})


def _utc_representable(value: datetime) -> None:
    try:
        value.astimezone(timezone.utc)
    except OverflowError:
        raise ValidationError("Date out of range.") from None


def _utc_time(description: str) -> fields.AwareDateTime:
    """A query's date-time: ISO 8601, without an offset taken as UTC, one UTC can represent."""
    return fields.AwareDateTime(default_timezone=timezone.utc, validate=_utc_representable,
                                metadata={"description": description})


GAME_NAMES = tuple(GAMES)
MODE_NAMES = tuple(sorted({mode for game in GAMES.values() for mode in game.modes}))


class FilterQuerySchema(Schema):
    game = fields.String(validate=validate.OneOf(GAME_NAMES))
    mode = fields.String(validate=validate.OneOf(MODE_NAMES),
                         metadata={"description": "a mode of any game (with `game`, of that one)"})
    player = fields.String(metadata={
        "description": "a player's name as people type it: case and accents do not matter "
                       "(`cleo` finds Cléo and CLÉO); with `player_exact=true`, the exact name "
                       "(compared after NFC)"})
    player_exact = fields.Boolean(load_default=False, metadata={
        "description": "match `player` exactly (after NFC) instead of folded"})
    status = fields.String(validate=validate.OneOf(STATUSES))
    legal = fields.Boolean()
    claims_differ = fields.Boolean(
        metadata={"description": "true: claimed scores differ from the computed ones"})
    played_after = _utc_time("meta.played_at >= this (ISO 8601; no offset: UTC)")
    played_before = _utc_time("meta.played_at < this (ISO 8601; no offset: UTC)")
    since = _utc_time("stored on this server at or after this time (`stored_at`; ISO 8601; "
                      "no offset: UTC)")
    until = _utc_time("stored on this server before this time (`stored_at`)")
    updated_since = _utc_time("stored, corrected or re-checked with another result at or after "
                              "this time (`updated_at`): what a mirror asks for")


class ExportQuerySchema(FilterQuerySchema):
    with_deleted = fields.Boolean(load_default=False, metadata={
        "description": "also the games deleted in the time window (`since`/`updated_since`, "
                       "`until`), first, as tombstones `{\"deleted\": true, \"slug\": ...}`"})


class ListQuerySchema(FilterQuerySchema):
    lang = fields.String(metadata={"description": LANG_FIELD_DESCRIPTION})
    sort = fields.String(load_default="-created", validate=validate.OneOf(SORTS), metadata={
        "description": "a leading '-' sorts newest first; `stored`: the order this server "
                       "stored the games in (the one to poll)"})
    cursor = fields.String()
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PlayerGameSchema(Schema):
    id = fields.Integer()
    slug = fields.String()
    game = fields.String()
    mode = fields.String()
    title = fields.String(allow_none=True)
    played_at = fields.DateTime(allow_none=True)
    created_at = fields.DateTime()
    status = fields.String()
    score = fields.Integer(allow_none=True)
    won = fields.Boolean(allow_none=True)


class PlayerStatSchema(Schema):
    game = fields.String()
    mode = fields.String()
    games = fields.Integer(metadata={"description": "public games played, any status"})
    complete = fields.Integer(metadata={"description": "of which complete"})
    wins = fields.Integer(metadata={"description": "complete games won (shared wins count)"})
    average = fields.Float(allow_none=True, metadata={"description": "average total, complete"})
    best = fields.Integer(allow_none=True, metadata={"description": "best total, complete"})


class StrictBoolean(fields.Boolean):
    """A JSON body's boolean: ``true`` or ``false`` only (marshmallow's takes 0, 1 and "true",
    which the document, ``type: boolean``, does not allow)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class PlayerQuerySchema(Schema):
    exact = fields.Boolean(load_default=False, metadata={
        "description": "compare the exact name (after NFKC, format characters removed) instead "
                       "of folded as the list's `player` filter does"})


class PlayerSchema(Schema):
    name = fields.String(metadata={"description": "the name as the player's newest public game "
                                                  "writes it"})
    stats = fields.List(fields.Nested(PlayerStatSchema))
    games = fields.List(fields.Nested(PlayerGameSchema),
                        metadata={"description": "the 50 newest public games"})


class HealthSchema(Schema):
    status = fields.String()
    engine = fields.String()


class ReadySchema(Schema):
    ready = fields.Boolean()
    database = fields.String()

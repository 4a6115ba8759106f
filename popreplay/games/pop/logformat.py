"""The shape of a POP! log (``spec/pop.md`` section 5). Shape only: meaning is the engine's."""

from __future__ import annotations

from marshmallow import fields, validate

from ...logformat import pending
from ...logformat.envelope import EnvelopeSchema, StrictSchema, at_least_one, at_most, moves_at_most
from ...logformat.fields import JsonBoolean, JsonInteger, JsonList, JsonString, NameMap
from ...logformat.limits import MAX_CARDS, MAX_PLAYERS, MAX_ROUNDS, MAX_ROWS, MAX_TURNS
from ...engine.games.pop import POP

MODES = POP.modes  # the engine's: declared once (tests/code/test_kits.py)


def _cards(**kwargs) -> JsonList:
    return JsonList(JsonInteger(), validate=at_most(MAX_CARDS, "cards"), **kwargs)




class OptionsSchema(StrictSchema):
    two_player_variant = JsonBoolean(allow_none=True)
    difficulty = JsonInteger(allow_none=True)


class TurnSchema(StrictSchema):
    plays = NameMap(_cards(), allow_none=True)
    chief = _cards(allow_none=True)
    draws = NameMap(_cards(), allow_none=True)


class RoundSchema(StrictSchema):
    layout = JsonList(
        JsonList(JsonInteger(allow_none=True),
                 validate=validate.Length(equal=5, error="a layout row has exactly 5 entries")),
        required=True,
        validate=at_most(MAX_ROWS, "rows"),
    )
    hands = NameMap(_cards(), allow_none=True)
    kept = NameMap(JsonInteger(), allow_none=True)
    turns = JsonList(fields.Nested(TurnSchema), required=True,
                     validate=moves_at_most(MAX_TURNS, "turns", "in one round"))


class ClaimedRoundSchema(StrictSchema):
    scores = NameMap(JsonInteger(allow_none=True), allow_none=True)
    collected = NameMap(_cards(allow_none=True), allow_none=True)
    kept = NameMap(JsonInteger(allow_none=True), allow_none=True)
    chief_pending = _cards(allow_none=True)


class ClaimedSchema(StrictSchema):
    """Any part of a POP! outcome, of any mode; a key of another mode just differs."""

    rounds = JsonList(fields.Nested(ClaimedRoundSchema), allow_none=True,
                      validate=at_most(MAX_ROUNDS, "rounds"))
    totals = NameMap(JsonInteger(allow_none=True), allow_none=True)
    winners = JsonList(JsonString(), allow_none=True, validate=at_most(MAX_PLAYERS, "players"))
    tie_break = JsonString(allow_none=True, validate=validate.OneOf(
        ["kept-card", "shared", "unknown"]))
    result = JsonString(allow_none=True, validate=validate.OneOf(["won", "lost"]))
    level = JsonString(allow_none=True, validate=validate.OneOf(
        ["beginner", "apprentice", "skilled", "expert", "legendary"]))
    failed_turn = JsonInteger(allow_none=True)
    cards_left = JsonInteger(allow_none=True)
    title = JsonString(allow_none=True, validate=validate.OneOf(
        ["novice", "mean", "evil", "renegade"]))
    difficulty = JsonInteger(allow_none=True)
    cards_left_in_play = JsonInteger(allow_none=True)
    turns_played = JsonInteger(allow_none=True)
    solved = JsonBoolean(allow_none=True)
    layout_cards_left = JsonInteger(allow_none=True)


class PopLogSchema(EnvelopeSchema):
    mode = JsonString(required=True, validate=validate.OneOf(MODES))
    options = fields.Nested(OptionsSchema, allow_none=True)
    claimed = fields.Nested(ClaimedSchema, allow_none=True)
    rounds = JsonList(fields.Nested(RoundSchema), required=True,
                      validate=[at_least_one("round"),  # a recorder's draft may have none yet
                                at_most(MAX_ROUNDS, "rounds")])


# The recorder's pending entry (docs/recorder.md; popreplay/logformat/pending.py): POP!'s cards
# are numbers.
_CARD = (pending.or_null(pending.integer), "shape.integer")
PENDING: dict[str, pending.Field] = {
    "entry": (pending.string, "shape.string", None, None),
    "cards": (pending.list_, "shape.list", *_CARD),
    "hands": (pending.boolean, "shape.boolean", None, None),
    "rows": (pending.integer, "shape.integer", None, None),
}

"""The shape of a cube log (``docs/formats/cube.md``). Shape only: meaning is the engine's.

Mirrored by the published JSON Schema ``schemas/popreplay/1/cube.schema.json``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ...logformat import pending
from ...logformat.envelope import EnvelopeSchema, StrictSchema, at_most, moves_at_most
from ...logformat.fields import JsonBoolean, JsonInteger, JsonList, JsonString, NameMap
from ...logformat.limits import (MAX_CARDS, MAX_NAME_LENGTH, MAX_PLAYERS)
from ...engine.games.cube import CUBE

MODES = CUBE.modes  # the engine's: declared once (tests/code/test_kits.py)
STEPS = ("CROSS", "F2L", "OLL", "PLL")
FMC_MARKS = ("XCROSS", "1st F2L", "2nd F2L", "3rd F2L", "OLL", "T-PERM")
ACTIONS = ("play", "discard", "show")
MAX_TURNS = 2000  # a long 4-player game has a few hundred turns
MAX_EVENTS = 64  # in one turn
MAX_ID_LENGTH = 40  # a card id, e.g. "CORNER-TWIST-4"


def _card(**kwargs: Any) -> JsonString:
    return JsonString(validate=validate.Length(max=MAX_ID_LENGTH), **kwargs)


def _name(**kwargs: Any) -> JsonString:
    return JsonString(validate=validate.Length(max=MAX_NAME_LENGTH), **kwargs)


def _cards(**kwargs: Any) -> JsonList:
    """A list of card ids."""
    return JsonList(_card(), validate=at_most(MAX_CARDS, "cards"), **kwargs)


def _maybe_cards(**kwargs: Any) -> JsonList:
    """A list of card ids, ``null`` for a card whose identity the log does not give."""
    return JsonList(_card(allow_none=True), validate=at_most(MAX_CARDS, "cards"), **kwargs)



class OptionsSchema(StrictSchema):
    """cube has no options; an empty object is accepted."""


FmcSchema = StrictSchema.from_dict({mark: _cards() for mark in FMC_MARKS}, name="FmcSchema")


class DeckSchema(StrictSchema):
    fmc = fields.Nested(FmcSchema, allow_none=True)


class EventSchema(StrictSchema):
    play = _card()
    step = JsonString(allow_none=True, validate=validate.OneOf(STEPS))
    target = _name(allow_none=True)
    draw = _maybe_cards(allow_none=True)
    take = _maybe_cards(allow_none=True)
    give = _card(allow_none=True)
    discard = _cards()
    show = _cards()
    player = _name(allow_none=True)  # who shows the F.M.C. (any player, at any moment)

    @validates_schema
    def one_action(self, data: dict[str, Any], **kwargs: Any) -> None:
        actions = [action for action in ACTIONS if action in data]
        if len(actions) != 1:
            raise ValidationError("an event has exactly one of \"play\", \"discard\", \"show\"")
        if actions[0] != "play":
            allowed = {actions[0], "player"} if actions[0] == "show" else {actions[0]}
            extra = sorted(key for key in data if key not in allowed)
            if extra:
                raise ValidationError({extra[0]: [f"only a played card has {extra[0]!r}"]})


class TurnSchema(StrictSchema):
    player = _name(required=True)
    draw = _maybe_cards(allow_none=True)
    lay = _cards(allow_none=True)
    events = JsonList(fields.Nested(EventSchema), allow_none=True,
                      validate=moves_at_most(MAX_EVENTS, "events", "in one turn"))


class ClaimedStepSchema(StrictSchema):
    card = JsonString(allow_none=True)
    colours = JsonList(JsonString(), allow_none=True, validate=at_most(MAX_CARDS, "cards"))
    timer = JsonString(allow_none=True)
    complete = JsonBoolean(allow_none=True)


ClaimedTableSchema = StrictSchema.from_dict(
    {step: fields.Nested(ClaimedStepSchema, allow_none=True) for step in STEPS},
    name="ClaimedTableSchema")


class ClaimedSchema(StrictSchema):
    """Any part of a cube outcome."""

    winners = JsonList(JsonString(), allow_none=True, validate=at_most(MAX_PLAYERS, "players"))
    won_by = JsonString(allow_none=True, validate=validate.OneOf(["steps", "fmc"]))
    turn = JsonInteger(allow_none=True)
    round = JsonInteger(allow_none=True)
    steps = NameMap(fields.Nested(ClaimedTableSchema), allow_none=True)
    completed = NameMap(JsonInteger(allow_none=True), allow_none=True)


class CubeLogSchema(EnvelopeSchema):
    mode = JsonString(required=True, validate=validate.OneOf(MODES))
    options = fields.Nested(OptionsSchema, allow_none=True)
    deck = fields.Nested(DeckSchema, allow_none=True)
    deal = NameMap(_maybe_cards(), required=True)
    turns = JsonList(fields.Nested(TurnSchema), required=True,
                     validate=moves_at_most(MAX_TURNS, "turns"))
    claimed = fields.Nested(ClaimedSchema, allow_none=True)


# The recorder's pending entry (docs/recorder.md; popreplay/logformat/pending.py): cube's cards
# are ids.
_CARD = (pending.or_null(pending.string), "shape.string")
PENDING: dict[str, pending.Field] = {
    "deal": (pending.object_, "shape.by-player", *_CARD),
    "player": (pending.string, "shape.string", None, None),
    "draw": (pending.list_, "shape.list", *_CARD),
    "play": (pending.string, "shape.string", None, None),
}

"""The shape of a Bloops log (``docs/formats/bloops.md``). Shape only: meaning is the engine's.

Events are objects told apart by ``type``; each type has its own keys, and an unknown key is a shape
error like anywhere else outside ``meta``.
"""

from __future__ import annotations

from typing import Any, cast

from marshmallow import Schema, ValidationError, fields, validate

from ...logformat.envelope import EnvelopeSchema, StrictSchema, at_most, moves_at_most
from ...logformat.fields import JsonBoolean, JsonInteger, JsonList, JsonString, NameMap
from ...engine.games.bloops import BLOOPS

MODES = BLOOPS.modes  # the engine's: declared once (tests/code/test_kits.py)
ENDINGS = ("twenty", "bloops", "pile-empty")

# Sizes beyond anything a real game needs (as ``limits.py`` does for POP!); past them a log is
# invalid. A game draws at most 64 cards, but wrong counter-discards on an empty pile are not
# bounded by the cards, hence a cap on events.
MAX_PLAYERS = 16
MAX_NAME_LENGTH = 100
MAX_EVENTS = 2000
MAX_CARDS = 64
UNKNOWN_ORDER = "unknown"


class Order(fields.Field):
    """A rearrangement's new order: a list of place numbers, or ``"unknown"`` (or null)."""

    default_error_messages = {"invalid": "must be a list of place numbers or \"unknown\""}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_none=True, **kwargs)
        self.places = JsonList(JsonInteger(), validate=at_most(MAX_CARDS, "places"))

    def _deserialize(self, value: Any, attr, data, **kwargs) -> list[int] | str:
        if value == UNKNOWN_ORDER:
            return value
        if not isinstance(value, list):
            raise self.make_error("invalid")
        return cast(list[int], self.places.deserialize(value))  # JsonInteger's, none null

class _Event(StrictSchema):
    type = JsonString(required=True)
    player = JsonString(required=True)


class DrawSchema(_Event):
    value = JsonInteger(allow_none=True)


class DiscardSchema(_Event):
    value = JsonInteger(required=True)


class KeepSchema(_Event):
    place = JsonInteger(required=True)
    value = JsonInteger(required=True)


class CounterSchema(_Event):
    place = JsonInteger(required=True)
    value = JsonInteger(required=True)
    penalty = JsonInteger(allow_none=True)


class GiveSchema(_Event):
    target = JsonString(required=True)
    value = JsonInteger(allow_none=True)


class LookSchema(_Event):
    target = JsonString(required=True)
    place = JsonInteger(required=True)
    value = JsonInteger(allow_none=True)


class SwapSchema(_Event):
    place = JsonInteger(required=True)
    target = JsonString(required=True)
    target_place = JsonInteger(required=True)


class BloopsCallSchema(_Event):
    pass


class RearrangeSchema(_Event):
    order = Order()


EVENTS: dict[str, type[Schema]] = {
    "draw": DrawSchema, "discard": DiscardSchema, "keep": KeepSchema, "counter": CounterSchema,
    "give": GiveSchema, "look": LookSchema, "swap": SwapSchema, "bloops": BloopsCallSchema,
    "rearrange": RearrangeSchema,
}
_event_schemas: dict[str, Schema] = {}


class Event(fields.Field):
    """One event: its ``type`` chooses the schema of the rest."""

    default_error_messages = {
        "invalid": "must be an object",
        "type": "\"type\" must be one of: " + ", ".join(EVENTS),
    }

    def _deserialize(self, value: Any, attr, data, **kwargs) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        kind = value.get("type")
        if "type" not in value:
            raise ValidationError({"type": ["Missing data for required field."]})
        if not isinstance(kind, str) or kind not in EVENTS:
            raise ValidationError({"type": [self.error_messages["type"]]})
        schema = _event_schemas.get(kind)
        if schema is None:
            schema = _event_schemas[kind] = EVENTS[kind]()
        return schema.load(value)


class OptionsSchema(StrictSchema):
    """Bloops has no options: any key is an unknown key."""


class ClaimedSchema(StrictSchema):
    """Any part of a Bloops outcome."""

    ended_by = JsonString(allow_none=True, validate=validate.OneOf(ENDINGS))
    bloops = JsonString(allow_none=True)
    turns = JsonInteger(allow_none=True)
    places = NameMap(NameMap(JsonInteger(allow_none=True)), allow_none=True)
    stars = NameMap(JsonInteger(allow_none=True), allow_none=True)
    scores = NameMap(JsonInteger(allow_none=True), allow_none=True)
    winners = JsonList(JsonString(), allow_none=True, validate=at_most(MAX_PLAYERS, "players"))
    shared = JsonBoolean(allow_none=True)
    notes = JsonList(JsonString(), allow_none=True)


class BloopsLogSchema(EnvelopeSchema):
    mode = JsonString(required=True, validate=validate.OneOf(MODES))
    options = fields.Nested(OptionsSchema, allow_none=True)
    claimed = fields.Nested(ClaimedSchema, allow_none=True)
    deck = NameMap(JsonInteger(), allow_none=True)
    deal = NameMap(JsonList(JsonInteger(allow_none=True), validate=at_most(MAX_CARDS, "cards")),
                   allow_none=True)
    events = JsonList(Event(), required=True, validate=moves_at_most(MAX_EVENTS, "events"))
    reveal = NameMap(NameMap(JsonInteger()), allow_none=True)

"""The shape of a slap log (``docs/formats/slap.md``). Shape only: meaning is the engine's."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ...logformat.envelope import EnvelopeSchema, StrictSchema, at_most, moves_at_most
from ...logformat.fields import JsonBoolean, JsonInteger, JsonList, JsonString, NameMap, json_integer
from ...logformat.limits import MAX_PLAYERS
from ...engine.games.slap import SLAP

MODES = SLAP.modes  # the engine's: declared once (tests/code/test_kits.py)
PILES = ("central", "folies")
EVENT_KINDS = ("flip", "slap", "time_up")
# Size limits beyond anything a real game needs (a slap game is a few hundred events).
MAX_EVENTS = 5_000  # bounds a replay's work: docs/reliability.md, "Work per replay"
MAX_DEAL = 128  # entries in one dealt pile (a real pile has at most 51)


class DealPile(fields.Field):
    """One player's dealt pile: a card count, or the cards top first (``null`` = not known)."""

    default_error_messages = {
        "invalid": "must be a card count or a list of cards (strings or null)",
    }

    def _deserialize(self, value: Any, attr, data, **kwargs) -> int | list[str | None]:
        if isinstance(value, list):
            if len(value) > MAX_DEAL:
                raise ValidationError(f"at most {MAX_DEAL} cards")
            errors = {k: ["must be a card (a string) or null"] for k, card in enumerate(value)
                      if card is not None and not isinstance(card, str)}
            if errors:
                raise ValidationError(errors)
            return list(value)
        count = json_integer(value)
        if count is None:
            raise self.make_error("invalid")
        return count


class EventSchema(StrictSchema):
    flip = JsonString()
    card = JsonString()
    slap = JsonString()
    pile = JsonString(validate=validate.OneOf(PILES))
    time_up = JsonBoolean(validate=validate.Equal(True, error="must be true"))

    @validates_schema
    def one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        kinds = [kind for kind in EVENT_KINDS if kind in data]
        if len(kinds) != 1:
            raise ValidationError("an event has exactly one of \"flip\", \"slap\", \"time_up\"")
        kind = kinds[0]
        if kind == "flip" and "card" not in data:
            raise ValidationError({"card": ["required key is missing"]})
        if kind != "flip" and "card" in data:
            raise ValidationError({"card": ["only a flip reveals a card"]})
        if kind != "slap" and "pile" in data:
            raise ValidationError({"pile": ["only a slap lands on a pile"]})


class OptionsSchema(StrictSchema):
    """slap has no options yet; an empty object is accepted."""


class ClaimedSchema(StrictSchema):
    """Any part of a slap outcome."""

    winners = JsonList(JsonString(), allow_none=True, validate=at_most(MAX_PLAYERS, "players"))
    ended_by = JsonString(allow_none=True,
                          validate=validate.OneOf(["elimination", "time", "no-cards"]))
    cards = NameMap(JsonInteger(allow_none=True), allow_none=True)
    eliminated = JsonList(JsonString(), allow_none=True,
                          validate=at_most(MAX_PLAYERS, "players"))
    central_pile = JsonInteger(allow_none=True)
    folies_pile = JsonInteger(allow_none=True)
    flips = JsonInteger(allow_none=True)
    slaps = JsonInteger(allow_none=True)


class SlapLogSchema(EnvelopeSchema):
    mode = JsonString(required=True, validate=validate.OneOf(MODES))
    options = fields.Nested(OptionsSchema, allow_none=True)
    claimed = fields.Nested(ClaimedSchema, allow_none=True)
    deal = NameMap(DealPile(), allow_none=True)
    events = JsonList(fields.Nested(EventSchema), required=True,
                      validate=moves_at_most(MAX_EVENTS, "events"))

"""The common envelope of every log: ``format``, ``game``, ``mode``, ``players``, ``options``,
``meta``, ``claimed``. Each game's schema extends it with its own body."""

from __future__ import annotations

from marshmallow import RAISE, Schema, validate

from .fields import FreeObject, JsonList, JsonString

FORMAT = "popreplay/1"


class EnvelopeSchema(Schema):
    class Meta:
        unknown = RAISE

    format = JsonString(required=True, validate=validate.Equal(
        FORMAT, error=f"must be \"{FORMAT}\""))
    game = JsonString(required=True)
    mode = JsonString(required=True)
    players = JsonList(JsonString(), required=True)
    meta = FreeObject(allow_none=True)


class LooseEnvelopeSchema(EnvelopeSchema):
    """Only the envelope, for a log whose game is not known: its body is not looked at."""

    class Meta:
        unknown = "exclude"

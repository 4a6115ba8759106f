"""The common envelope of every log: ``format``, ``game``, ``mode``, ``players``, ``options``,
``meta``, ``claimed``. Each game's schema extends it with its own body."""

from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, validate

from .fields import FreeObject, JsonList, JsonString
from .limits import MAX_NAME_LENGTH, MAX_PLAYERS

FORMAT = "popreplay/1"


def at_most(limit: int, what: str) -> validate.Length:
    """A size limit on a list (``docs/reliability.md``)."""
    return validate.Length(max=limit, error=f"at most {limit} {what}")


AT_LEAST_ONE = "a log has at least one "  # + what: a list a whole log needs an entry of


def at_least_one(what: str) -> validate.Length:
    """A list a whole log needs one entry of (``rounds``) and a recorder's draft may still have
    empty: a draft is let through with this error alone (:func:`draft_may_lack`)."""
    return validate.Length(min=1, error=AT_LEAST_ONE + what)


def draft_may_lack(message: str) -> bool:
    """Whether a shape error is one a draft may have where a whole log may not (``drafts.py``)."""
    return message.startswith(AT_LEAST_ONE)


class MovesAtMost(validate.Validator):
    """A limit on a list of moves (events, turns), which bounds a replay's work: past it, the error
    points at the first move past the limit (``/events/5000``), where the log is to be cut."""

    def __init__(self, limit: int, what: str, within: str) -> None:
        self.limit = limit
        self.what = what
        self.within = within

    def __call__(self, value: list) -> list:
        if len(value) > self.limit:
            raise ValidationError({self.limit: [
                f"at most {self.limit} {self.what} {self.within}: this one is past the limit"]})
        return value


def moves_at_most(limit: int, what: str, within: str = "in one log") -> MovesAtMost:
    return MovesAtMost(limit, what, within)


class StrictSchema(Schema):
    """A JSON object whose unknown keys are shape errors (a misspelt key must not pass)."""

    class Meta:
        unknown = RAISE


class EnvelopeSchema(StrictSchema):
    format = JsonString(required=True, validate=validate.Equal(
        FORMAT, error=f"must be \"{FORMAT}\""))
    game = JsonString(required=True)
    mode = JsonString(required=True)
    players = JsonList(JsonString(validate=validate.Length(max=MAX_NAME_LENGTH)), required=True,
                       validate=at_most(MAX_PLAYERS, "players"))
    meta = FreeObject(allow_none=True)


class LooseEnvelopeSchema(EnvelopeSchema):
    """Only the envelope, for a log whose game is not known: its body is not looked at."""

    class Meta:
        unknown = "exclude"

"""marshmallow fields with JSON's own types: no strings taken for numbers, no 1 for ``true``."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields


class JsonInteger(fields.Field):
    """A JSON integer. As in JSON Schema, ``3.0`` is the integer 3; ``true`` and ``"3"`` are not."""

    default_error_messages = {"invalid": "must be an integer"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> int:
        number = json_integer(value)
        if number is None:
            raise self.make_error("invalid")
        return number


def json_integer(value: Any) -> int | None:
    """``value`` as the integer JSON Schema says it is (``3.0`` is 3), or ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


class JsonBoolean(fields.Field):
    default_error_messages = {"invalid": "must be true or false"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")


class JsonString(fields.Field):
    default_error_messages = {"invalid": "must be a string"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> str:
        if isinstance(value, str):
            return value
        raise self.make_error("invalid")


class JsonList(fields.List):
    default_error_messages = {"invalid": "must be a list"}


class NameMap(fields.Field):
    """An object keyed by free strings (player names) whose values share one field.

    Errors nest directly under the key (``/plays/Alice/0``), without marshmallow's ``value`` level.
    """

    default_error_messages = {"invalid": "must be an object keyed by player name"}

    def __init__(self, values: fields.Field, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value_field = values

    def _bind_to_schema(self, field_name, parent) -> None:
        super()._bind_to_schema(field_name, parent)
        self.value_field._bind_to_schema(field_name, self)

    def _deserialize(self, value: Any, attr, data, **kwargs) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        out: dict[str, Any] = {}
        errors: dict[str, Any] = {}
        for key, item in value.items():
            try:
                out[key] = self.value_field.deserialize(item)
            except ValidationError as error:
                errors[key] = error.messages
        if errors:
            raise ValidationError(errors)
        return out


class FreeObject(fields.Field):
    """Any JSON object, stored and returned as given (``meta``)."""

    default_error_messages = {"invalid": "must be an object"}

    def _deserialize(self, value: Any, attr, data, **kwargs) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return value

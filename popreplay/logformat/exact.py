"""The exact path of the shape check: marshmallow, every error with its JSON Pointer.

Imported only when needed (a log the fast path rejects, or :func:`popreplay.logformat.check_shape`),
so that checking a good log imports no marshmallow (``docs/performance.md``, *Start-up*).
"""

from __future__ import annotations

import difflib
import functools
from typing import Any, Iterator, Mapping

from marshmallow import Schema, ValidationError
from marshmallow import fields as marshmallow_fields

from ..engine.messages import msg, shape_text
from ..engine.pointer import join
from ..engine.replay import Violation
from ..games import KITS
from .envelope import LooseEnvelopeSchema
from .errors import ShapeError


class _Shapes(Mapping[str, "type[Schema]"]):
    """Game -> the marshmallow schema of its logs: each kit's ``shape`` (``popreplay/games``),
    imported when first asked for."""

    def __getitem__(self, game: str) -> type[Schema]:
        kit = KITS[game]
        return _shape_of(kit.name)

    def __iter__(self) -> Iterator[str]:
        return iter(KITS)

    def __len__(self) -> int:
        return len(KITS)


@functools.cache
def _shape_of(game: str) -> type[Schema]:
    return KITS[game].load("shape")


SHAPES: Mapping[str, type[Schema]] = _Shapes()

_schemas: dict[str, Schema] = {}

UNKNOWN_KEY = "unknown key (free data belongs in \"meta\")"
UNKNOWN_FIELD = "Unknown field."  # marshmallow's message for a key its schema does not know
_MESSAGES = {
    "Missing data for required field.": "required key is missing",
    UNKNOWN_FIELD: UNKNOWN_KEY,
    "Invalid input type.": "must be an object",
    "Field may not be null.": "must not be null",
}


def load_exactly(data: Any) -> dict[str, Any]:
    """The log loaded by its game's marshmallow schema (JSON's types made exact, keys in the
    written order), or :class:`ShapeError` with every problem; the limits on ``meta`` and on the
    moves are the caller's (both paths check them)."""
    if not isinstance(data, dict):
        raise ShapeError([Violation("schema", msg("shape.log-object"), "")])
    game, mode = data.get("game"), data.get("mode")
    schema_class = SHAPES.get(game) if isinstance(game, str) else None
    if schema_class is None:
        errors = _errors(_schema(LooseEnvelopeSchema).validate(data))
        if "game" in data:
            errors.append(Violation("schema", msg("shape.unknown-game", game=game,
                                                  known=sorted(SHAPES)), "/game"))
        errors.sort(key=lambda e: e.path)
        raise ShapeError(errors, game=game, mode=mode)
    schema = _schema(schema_class)
    try:
        loaded = schema.load(data)
    except ValidationError as error:
        errors = [_with_suggestion(schema, e) for e in _errors(error.messages, written=data)]
        raise ShapeError(errors, game=game, mode=mode) from None
    if isinstance(loaded.get("claimed"), dict) and isinstance(data.get("claimed"), dict):
        loaded["claimed"] = in_written_order(loaded["claimed"], data["claimed"])
    return loaded


def in_written_order(loaded: Any, written: Any) -> Any:
    """``loaded`` (what marshmallow made of ``written``) with every object's keys in the order the
    log wrote them: marshmallow gives a schema's declared order, and claims are compared, and their
    differences listed, in the order the claim gives its keys; both shape paths must agree."""
    if isinstance(loaded, dict) and isinstance(written, dict):
        ordered = {key: in_written_order(loaded[key], written[key])
                   for key in written if key in loaded}
        ordered.update((key, value) for key, value in loaded.items() if key not in ordered)
        return ordered
    if isinstance(loaded, list) and isinstance(written, list) and len(loaded) == len(written):
        return [in_written_order(a, b) for a, b in zip(loaded, written)]
    return loaded


def _schema(schema_class: type[Schema]) -> Schema:
    schema = _schemas.get(schema_class.__name__)
    if schema is None:
        schema = _schemas[schema_class.__name__] = schema_class()
    return schema


def _with_suggestion(schema: Schema, error: Violation) -> Violation:
    """An unknown key close to a known one (``claimed.winner`` for ``winners``) names it."""
    if error.message != UNKNOWN_KEY:
        return error
    parent, _, key = error.path.rpartition("/")
    close = difflib.get_close_matches(unescape(key), _keys_at(schema, parent), n=1, cutoff=0.75)
    if not close:
        return error
    return Violation(error.code, msg("shape.did-you-mean", key=close[0]), error.path,
                     error.round, error.turn)


def _keys_at(schema: Schema, pointer: str) -> list[str]:
    """The keys the schema allows in the object at ``pointer`` (none when it cannot say)."""
    node: Any = schema
    for part in pointer.split("/")[1:]:
        if isinstance(node, marshmallow_fields.List):  # this part is an index
            node = node.inner
            continue
        if isinstance(node, marshmallow_fields.Nested):
            node = node.schema
        key = unescape(part)
        if not isinstance(node, Schema) or key not in node.fields:
            return []
        node = node.fields[key]
    if isinstance(node, marshmallow_fields.Nested):
        node = node.schema
    return sorted(node.fields) if isinstance(node, Schema) else []


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _errors(messages: Any, path: str = "", written: Any = None) -> list[Violation]:
    """Flatten marshmallow's nested error messages into violations with JSON Pointers, unknown
    keys in the order the log wrote them (``written``: the data at ``path``): marshmallow finds
    them as a set difference, whose order changes with Python's hash seed, and the same log
    must give the same result, byte for byte."""
    out: list[Violation] = []
    if isinstance(messages, dict):
        for key in _written_order(messages, written):
            if key == "_schema":  # about the object itself
                out.extend(_errors(messages[key], path, written))
            else:
                out.extend(_errors(messages[key], join(path, key), _child(written, key)))
    elif isinstance(messages, list):
        for message in messages:
            if isinstance(message, (dict, list)):
                out.extend(_errors(message, path, written))
            else:
                out.append(Violation("schema", shape_text(str(_MESSAGES.get(message, message))), path))
    else:
        out.append(Violation("schema", shape_text(_MESSAGES.get(messages, str(messages))),
                             path))
    return out


def _written_order(messages: dict[Any, Any], written: Any) -> list[Any]:
    """The keys of an error dict in marshmallow's order (the schema's fields as declared, then
    the unknown keys), the unknown keys in the order the log wrote them."""
    unknown = [key for key, value in messages.items() if value == [UNKNOWN_FIELD]]
    if not unknown:
        return list(messages)
    if isinstance(written, dict):
        place = {key: n for n, key in enumerate(written)}
        unknown.sort(key=lambda key: place.get(key, len(place)))
    else:
        unknown.sort(key=str)
    taken = set(unknown)
    return [key for key in messages if key not in taken] + unknown


def _child(written: Any, key: Any) -> Any:
    if isinstance(written, dict):
        return written.get(key)
    if isinstance(written, list) and isinstance(key, int) and 0 <= key < len(written):
        return written[key]
    return None

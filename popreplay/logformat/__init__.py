"""Reading a log: JSON text to a shape-checked object, or the list of what is wrong with it.

The shape layer checks types, required keys, enums and rows of 5, with marshmallow. Every error is a
:class:`~popreplay.engine.Violation` with code ``json`` or ``schema`` and a JSON Pointer. Meaning
(card ranges, counts, names) is left to the engine.
"""

from __future__ import annotations

import difflib
import functools
import json
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import fastjsonschema
from marshmallow import Schema, ValidationError
from marshmallow import fields as marshmallow_fields

from ..engine.messages import Msg, msg, shape_text
from ..engine.pointer import join
from ..engine.replay import Violation
from ..games import KITS
from .envelope import LooseEnvelopeSchema
from .limits import MAX_DEPTH, SURROGATE_ESCAPE, depth_exceeds, lone_surrogate_at, meta_problem

try:  # the compiled (Rust) validator: about 20 times faster than fastjsonschema on a log
    import jsonschema_rs
except ImportError:  # pragma: no cover - a platform without its wheel keeps fastjsonschema
    jsonschema_rs = None



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


@functools.cache
def _bound_of(game: str) -> Callable[[Any], tuple[str, str] | None] | None:
    kit = KITS[game]
    return kit.load("bound") if kit.bound else None


SHAPES: Mapping[str, type[Schema]] = _Shapes()

_schemas: dict[str, Schema] = {}

UNKNOWN_KEY = "unknown key (free data belongs in \"meta\")"
_MESSAGES = {
    "Missing data for required field.": "required key is missing",
    "Unknown field.": UNKNOWN_KEY,
    "Invalid input type.": "must be an object",
    "Field may not be null.": "must not be null",
}


class ShapeError(Exception):
    """A log that is not JSON or not of the right shape; ``errors`` lists every problem."""

    def __init__(self, errors: list[Violation], *, game: Any = None, mode: Any = None) -> None:
        super().__init__("; ".join(f"{e.path or '/'}: {e.message}" for e in errors))
        self.errors = errors
        self.game = game
        self.mode = mode


def parse_json(text: str | bytes) -> Any:
    """Parse JSON text; raise :class:`ShapeError` (code ``json``) with the place of the fault.

    A number written with a fraction part of zero (``3.0``) is read as the integer it is, as JSON
    Schema counts it, so that the engine only ever sees integers.
    """
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        elif text.startswith("\ufeff"):
            text = text[1:]
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_number)
    except UnicodeDecodeError as error:
        raise _json_error(msg("json.not-utf8", byte=error.start)) from None
    except json.JSONDecodeError as error:
        # The line and column count characters (code points) as an editor shows them: an emoji
        # is one column (not two UTF-16 units, nor four bytes). Python's messages that end in
        # "at" ("Invalid control character at") get the place once.
        raise _json_error(msg("json.not-json", detail=error.msg.removesuffix(" at"),
                              line=error.lineno, column=error.colno)) from None
    except RecursionError:
        raise _json_error(msg("json.too-deep")) from None
    except ValueError as error:  # NaN/Infinity, or an integer with too many digits
        raise _json_error(msg("json.not-accepted", detail=str(error))) from None
    if SURROGATE_ESCAPE.search(text):
        where = lone_surrogate_at(data)
        if where is not None:
            raise ShapeError([Violation("json", msg("json.lone-surrogate"), where)])
    return data


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json_error(message: Msg) -> ShapeError:
    return ShapeError([Violation("json", message, "")])


def check_shape(data: Any) -> dict[str, Any]:
    """Return the log with JSON's types made exact, or raise :class:`ShapeError`."""
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
        errors = [_with_suggestion(schema, e) for e in _errors(error.messages)]
        raise ShapeError(errors, game=game, mode=mode) from None
    _check_meta(data, game, mode)
    _check_moves(data, game, mode)
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


def _check_meta(data: dict[str, Any], game: Any, mode: Any) -> None:
    """The limits on free ``meta`` (depth, sizes: :mod:`.limits`), on both paths."""
    meta = data.get("meta")
    if meta is None:
        return
    if depth_exceeds(meta, MAX_DEPTH - 1):
        raise ShapeError([Violation("schema", msg("shape.too-deep", depth=MAX_DEPTH),
                                    "/meta")], game=game, mode=mode)
    problem = meta_problem(meta)
    if problem is not None:
        raise ShapeError([Violation("schema", problem[1], problem[0])], game=game, mode=mode)


def _check_moves(data: dict[str, Any], game: Any, mode: Any) -> None:
    """The bound on a replay's work that one list's length cannot say (:mod:`.limits`): cube's
    events of all turns together: its kit's ``bound``. Both paths (a JSON Schema cannot count
    across lists)."""
    bound = _bound_of(game)
    problem = bound(data) if bound is not None else None
    if problem is not None:
        raise ShapeError([Violation("schema", problem[1], problem[0])], game=game, mode=mode)


SCHEMA_DIR = Path(__file__).resolve().parent.parent / "jsonschemas" / "popreplay" / "1"


@functools.cache
def published_schema(game: str) -> dict[str, Any]:
    """The published JSON Schema of a game's log (``schemas/popreplay/1/<game>.schema.json``)."""
    return json.loads((SCHEMA_DIR / f"{game}.schema.json").read_text("utf-8"))


@functools.cache
def _fast_validator(game: str) -> Callable[[Any], bool] | None:
    """``is_valid`` of the published schema, compiled once per game (``None``: no schema)."""
    try:
        schema = published_schema(game)
    except FileNotFoundError:
        return None
    if jsonschema_rs is not None:
        return jsonschema_rs.validator_for(schema).is_valid
    compiled = fastjsonschema.compile(schema)

    def is_valid(data: Any) -> bool:
        try:
            compiled(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return is_valid


def check_parsed_shape(data: Any) -> dict[str, Any]:
    """:func:`check_shape` for freshly parsed JSON (integers already exact), on a fast path.

    The published JSON Schema, compiled (``jsonschema_rs``, else ``fastjsonschema``), accepts a
    good log quickly; only a log it rejects, or cannot read, goes through marshmallow, which lists
    every error with its pointer and has the last word. The two agree on every verdict
    (``tests/logformat/test_schema_agreement.py``, ``tests/bench/test_fast_shape.py``); the ``meta``
    depth limit is checked on both paths.
    """
    game = data.get("game") if isinstance(data, dict) else None
    is_valid = _fast_validator(game) if isinstance(game, str) and game in SHAPES else None
    if is_valid is not None:
        try:
            valid = is_valid(data)
        except Exception:  # noqa: BLE001 - anything it cannot read takes the exact path
            valid = False
        if valid:
            _check_meta(data, game, data.get("mode"))
            _check_moves(data, game, data.get("mode"))
            return data
    return check_shape(data)


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


def _errors(messages: Any, path: str = "") -> list[Violation]:
    """Flatten marshmallow's nested error messages into violations with JSON Pointers."""
    out: list[Violation] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            out.extend(_errors(value, path if key == "_schema" else join(path, key)))
    elif isinstance(messages, list):
        for message in messages:
            if isinstance(message, (dict, list)):
                out.extend(_errors(message, path))
            else:
                out.append(Violation("schema", shape_text(_MESSAGES.get(message, message)), path))
    else:
        out.append(Violation("schema", shape_text(_MESSAGES.get(messages, str(messages))),
                             path))
    return out

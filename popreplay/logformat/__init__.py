"""Reading a log: JSON text to a shape-checked object, or the list of what is wrong with it.

The fast path (:func:`check_parsed_shape`: the published JSON Schema, compiled) imports no
marshmallow; a log it rejects takes the exact path (:mod:`.exact`), imported then.

The shape layer checks types, required keys, enums and rows of 5, with marshmallow. Every error is a
:class:`~popreplay.engine.Violation` with code ``json`` or ``schema`` and a JSON Pointer. Meaning
(card ranges, counts, names) is left to the engine.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Callable

from ..engine.messages import Msg, msg
from ..engine.replay import Violation
from ..games import KITS
from .errors import ShapeError
from .limits import MAX_DEPTH, SURROGATE_ESCAPE, depth_exceeds, lone_surrogate_at, meta_problem

__all__ = ["SHAPES", "ShapeError", "check_parsed_shape", "check_shape", "parse_json",
           "published_schema"]


def __getattr__(name: str) -> Any:
    """``SHAPES`` (game -> its marshmallow schema) comes from :mod:`.exact`, imported when
    asked for: the fast path below reads no marshmallow schema."""
    if name == "SHAPES":
        from .exact import SHAPES

        return SHAPES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _bound_of(game: str) -> Callable[[Any], tuple[str, str] | None] | None:
    kit = KITS[game]
    return kit.load("bound") if kit.bound else None


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
    """Return the log with JSON's types made exact, or raise :class:`ShapeError` listing every
    problem (the exact path: marshmallow, imported when first needed, :mod:`.exact`)."""
    from .exact import load_exactly

    loaded = load_exactly(data)
    game, mode = data["game"], data.get("mode")
    _check_meta(data, game, mode)
    _check_moves(data, game, mode)
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
    try:  # the compiled (Rust) validator: about 20 times faster than fastjsonschema on a log
        import jsonschema_rs
    except ImportError:  # pragma: no cover - a platform without its wheel keeps fastjsonschema
        pass
    else:
        return jsonschema_rs.validator_for(schema).is_valid
    import fastjsonschema

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
    is_valid = _fast_validator(game) if isinstance(game, str) and game in KITS else None
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

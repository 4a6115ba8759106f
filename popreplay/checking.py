"""From a log (text or parsed JSON) to its result object: shape check, then replay.

This is the one way in used by the command line, the API and the importer.
"""

from __future__ import annotations

from typing import Any

from .engine import invalid_result, replay_log
from .logformat import ShapeError, check_parsed_shape, check_shape, parse_json
from .logformat.sheet import is_sheet, sheet_result
from .logformat.types import Result, as_result


def check_log(data: Any, *, with_steps: bool = False) -> Result:
    """The result object of a parsed log (``invalid`` when its shape is wrong)."""
    if is_sheet(data):
        return _sheet(data, with_steps=with_steps)
    try:
        log = check_shape(data)
    except ShapeError as error:
        return as_result(invalid_result(error.errors, game=error.game, mode=error.mode))
    return as_result(replay_log(log, with_steps=with_steps))


def check_json(data: Any, *, with_steps: bool = False) -> Result:
    """The result object of freshly parsed JSON (:func:`popreplay.logformat.parse_json`)."""
    if is_sheet(data):
        return _sheet(data, with_steps=with_steps)
    try:
        log = check_parsed_shape(data)
    except ShapeError as error:
        return as_result(invalid_result(error.errors, game=error.game, mode=error.mode))
    return as_result(replay_log(log, with_steps=with_steps))


def _sheet(data: Any, *, with_steps: bool) -> Result:
    """A score sheet (``logformat/sheet.py``): its claims are its outcome; no steps."""
    result = sheet_result(data)
    if with_steps:
        result["steps"] = []
    return as_result(result)


def check_text(text: str | bytes, *, with_steps: bool = False) -> Result:
    """The result object of a log given as JSON text (``invalid`` when it is not JSON)."""
    try:
        data = parse_json(text)
    except ShapeError as error:
        return as_result(invalid_result(error.errors, game=error.game, mode=error.mode))
    return check_json(data, with_steps=with_steps)

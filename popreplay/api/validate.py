"""``POST /api/v1/validate``: a dry run; nothing is stored."""

from __future__ import annotations

import io
from functools import partial
from typing import IO, Any, Iterator, cast

from flask import Response, current_app, request, stream_with_context
from flask_smorest import Blueprint
from marshmallow import RAISE

from ..budget import beside
from ..checking import check_text
from ..engine import ENGINE_VERSION
from .body import read_body
from .errors import ApiError
from .games import dumps_line
from .lang import localize, request_lang, vary
from .schemas import ErrorSchema, ValidateQuerySchema, ValidateResultSchema
from .work import text_check

bp = Blueprint("validate", __name__, url_prefix="/api/v1/validate",
               description="Check logs without storing them.")

NDJSON = "application/x-ndjson"

BODY = {
    "required": True,
    "description": "One log (JSON), or with Content-Type application/x-ndjson one log per line.",
    "content": {"application/json": {"schema": {"type": "object"}},
                NDJSON: {"schema": {"type": "string"}}},
}


@bp.route("", methods=["POST"])
@bp.arguments(ValidateQuerySchema, location="query", unknown=RAISE)
@bp.doc(requestBody=BODY)
@bp.response(200, ValidateResultSchema, description="The result object, whatever the status "
             "(invalid included). For NDJSON: one result per line, with `line`, streamed.")
@bp.alt_response(413, schema=ErrorSchema)
@bp.alt_response(415, schema=ErrorSchema, description="Neither application/json nor "
                 "application/x-ndjson.")
@bp.alt_response(422, schema=ErrorSchema, description="steps=true with an NDJSON body.")
@bp.alt_response(403, schema=ErrorSchema, description="A browser's cross-site write.")
def validate(args: dict[str, Any]) -> Any:
    """Validate logs (dry run)"""
    if request.mimetype == NDJSON:
        if args["steps"]:
            # A replay with steps is ~100 times its log: 5 MB of NDJSON gave 451 MB of output.
            raise ApiError(422, "steps=true is for one log; NDJSON validation returns results "
                           "without steps (fetch a replay per game).", errors=[
                               {"code": "bad-query", "path": "/steps",
                                "message": "not with application/x-ndjson"}])
        request.max_content_length = current_app.config["MAX_NDJSON_BODY"]
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        # Werkzeug's stream reads a line a byte at a time; a buffer makes that 5x faster
        # (the stream is Werkzeug's LimitedStream, an io.RawIOBase)
        stream = io.BufferedReader(cast(io.RawIOBase, request.stream), 65536)
        lines = _results(stream, limit, with_steps=args["steps"],
                         max_lines=current_app.config["MAX_NDJSON_LINES"], lang=request_lang())
        return vary(Response(stream_with_context(lines), mimetype=NDJSON))
    body = text_check(read_body(), args["steps"], request_lang())
    return vary(Response(body, mimetype="application/json"))


# Lines are checked in batches, one hand-over to the engine's thread each: handing each line over
# alone cost more than checking a small log (0.25 ms of 0.37 ms for a line `{}`). A batch ends
# at BATCH_LINES lines or once it holds BATCH_BYTES, so its results are sent soon and a large
# log is checked alone as before.
BATCH_LINES = 32
BATCH_BYTES = 64 * 1024


def _results(stream: IO[bytes], limit: int, *, with_steps: bool,
             max_lines: int, lang: str = "en") -> Iterator[str]:
    """One result line per log line; past ``max_lines`` lines (blank ones count), one last
    ``invalid`` line says where reading stopped, and the rest of the body is not read."""
    check = partial(_checked_lines, with_steps=with_steps, max_lines=max_lines, limit=limit,
                    lang=lang)
    for batch in _batches(_lines(stream, limit, max_lines)):
        yield from beside(check, batch)


def _batches(lines: Iterator[tuple[int, bytes | None]]
             ) -> Iterator[list[tuple[int, bytes | None]]]:
    batch: list[tuple[int, bytes | None]] = []
    size = 0
    for number, line in lines:
        batch.append((number, line))
        size += len(line or b"")
        if len(batch) >= BATCH_LINES or size >= BATCH_BYTES or line is TOO_MANY:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _checked_lines(batch: list[tuple[int, bytes | None]], *, with_steps: bool, max_lines: int,
                   limit: int, lang: str) -> list[str]:
    """The result lines of a batch (in the engine's thread: checking, wording, JSON)."""
    out = []
    for number, line in batch:
        if line is TOO_MANY:
            result = _invalid(
                f"More than {max_lines} lines in one request: this line and the ones after it "
                "were not read; send them in another request.")
        elif line is None:
            result = _too_long(limit)
        else:
            result = localize(check_text(line, with_steps=with_steps), lang)
        out.append(dumps_line({"line": number, **result}))
    return out


TOO_MANY = b"too many lines"  # compared by identity


def _lines(stream: IO[bytes], limit: int,
           max_lines: int) -> Iterator[tuple[int, bytes | None]]:
    """Non-blank lines with their 1-based numbers; None for a line longer than ``limit``;
    ``TOO_MANY`` (and the end) for line ``max_lines + 1``, blank lines counted."""
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if number > max_lines:
            yield number, TOO_MANY
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:
                rest = stream.readline(65536)
                if not rest or rest.endswith(b"\n"):
                    break
            yield number, None
        elif line.strip():
            yield number, line


def _too_long(limit: int) -> dict[str, Any]:
    return _invalid(f"The log is longer than {limit} bytes.")


def _invalid(message: str) -> dict[str, Any]:
    return {"game": None, "mode": None, "engine": ENGINE_VERSION, "status": "invalid",
            "legal": False,
            "errors": [{"code": "json", "message": message, "round": None, "turn": None,
                        "path": ""}],
            "outcome": None, "claims": None}

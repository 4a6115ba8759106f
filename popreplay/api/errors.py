"""One error shape for every error, everywhere: ``{code, status, message, errors}``.

``code`` is the HTTP status code, ``status`` its name, ``message`` one sentence for people, and
``errors`` a list of ``{code, message, path}`` entries (JSON Pointers), possibly empty.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, jsonify
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, SecurityError

from ..engine.pointer import join

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class ApiError(HTTPException):
    """An HTTP error with the shape's ``errors`` list and optional headers."""

    def __init__(self, code: int, message: str, *, errors: list[dict[str, Any]] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(description=message)
        self.code = code
        self.errors = errors or []
        self.extra_headers = headers or {}


def error_response(code: int, message: str, errors: list[dict[str, Any]] | None = None,
                   headers: dict[str, str] | None = None, **extra: Any) -> Response:
    body = {"code": code, "status": HTTPStatus(code).phrase, "message": message,
            "errors": errors or [], **extra}
    response = jsonify(body)
    response.status_code = code
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _messages_to_errors(messages: Any, path: str = "", location: str = "") -> list[dict[str, Any]]:
    """webargs/marshmallow messages (``{"query": {"limit": ["..."]}}``) as error entries."""
    out: list[dict[str, Any]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            if not path and not location and key in ("query", "json", "headers", "form", "files",
                                                     "view_args", "path"):
                out.extend(_messages_to_errors(value, "", key))
            elif key == "_schema":
                out.extend(_messages_to_errors(value, path, location))
            else:
                out.extend(_messages_to_errors(value, join(path, key), location))
    elif isinstance(messages, list):
        for message in messages:
            out.extend(_messages_to_errors(message, path, location))
    else:
        message = str(messages)
        if message == "Unknown field.":
            message = "unknown parameter (misspelt?)"
        out.append({"code": f"bad-{location or 'request'}".replace("view_args", "path"),
                    "message": message, "path": path})
    return out


def handle_http_exception(error: HTTPException) -> Response:
    code = error.code or 500
    if isinstance(error, ApiError):
        return error_response(code, error.description or "", error.errors, error.extra_headers)
    if isinstance(error, SecurityError):  # a Host header outside TRUSTED_HOSTS (api/guard.py)
        return error_response(400, "This server does not answer for that host name "
                              "(POPREPLAY_ALLOWED_HOSTS lists the ones it does).")
    data = getattr(error, "data", None) or {}
    errors = data.get("errors") or _messages_to_errors(data.get("messages") or {})
    message = data.get("message") or _default_message(error)
    headers = dict(error.get_headers()) if code in (405, 401) else {}
    headers.pop("Content-Type", None)
    if code == 422 and not data.get("message"):
        message = "The request's parameters are not valid."
    return error_response(code, message, errors, headers)


def _default_message(error: HTTPException) -> str:
    if error.code == 404:
        return "Nothing here: the address is not known to popreplay."
    if error.code == 413:
        return "The request body is larger than this server accepts."
    return error.description or HTTPStatus(error.code or 500).phrase


def handle_database_down(error: Exception) -> Response:
    log.warning("database unavailable: %s", error)
    return error_response(503, "The database does not answer; try again shortly.",
                          headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def handle_replay_pending(error: Exception) -> Response:
    from ..store.replays import RETRY_PENDING_SECONDS

    return error_response(503, "This game's replay is still being computed (a long game, a busy "
                          f"server); try again in {RETRY_PENDING_SECONDS} seconds.",
                          headers={"Retry-After": str(RETRY_PENDING_SECONDS)})


def handle_busy(error: Exception) -> Response:
    from ..budget import RETRY_SECONDS

    return error_response(503, "This request's work takes longer than the server gives one "
                          f"request (a heavy game, a busy server); try again in {RETRY_SECONDS} "
                          "seconds: the answer is being computed and will be kept.",
                          errors=[{"code": "busy", "path": "", "message": getattr(
                              error, "why", "") or "past this request's budget"}],
                          headers={"Retry-After": str(RETRY_SECONDS)})


def handle_unexpected(error: Exception) -> Response:
    log.exception("unexpected error", exc_info=error)
    return error_response(500, "Something went wrong on the server.")


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    for kind in (OperationalError, InterfaceError, PoolTimeout):
        app.register_error_handler(kind, handle_database_down)
    from ..store.replays import ReplayPending

    from ..budget import Busy

    app.register_error_handler(ReplayPending, handle_replay_pending)
    app.register_error_handler(Busy, handle_busy)
    app.register_error_handler(Exception, handle_unexpected)

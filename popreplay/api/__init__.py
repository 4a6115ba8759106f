"""The REST API under ``/api/v1`` (flask-smorest): one blueprint per resource; the views turn HTTP
into calls to ``popreplay.store`` / ``popreplay.db.queries`` and back. No rules here."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from . import (contract, cors, docs, errors, games, groups, guard, health, players, ratelimit,
               record, tables, validate)
from . import group_games, group_sheets, group_webhooks  # noqa: F401  (routes of groups.bp)
from . import table_signoff  # noqa: F401  (the corrections and sign-off routes of tables.bp)
from . import table_stream  # noqa: F401  (the live stream's route of tables.bp)
from .schemas import ErrorSchema


class PopreplayApi(Api):
    ERROR_SCHEMA = ErrorSchema  # the one error shape, also in the generated document


def init_app(app: Flask) -> Api:
    api = PopreplayApi(app, spec_kwargs={
        "info": {"description": "Replay card-game logs, check every move, recompute the scores."},
    })
    app.url_map.converters["ref"] = games.RefConverter  # before the routes are registered
    api.register_converter(games.RefConverter,
                           lambda _converter: {"type": "string", "minLength": 1})
    api.spec.components.security_scheme(
        "ownerToken", {"type": "http", "scheme": "bearer",
                       "description": "The owner token returned once by POST /games."})
    api.spec.components.security_scheme(
        "tableToken", {"type": "http", "scheme": "bearer",
                       "description": "A table's host token, a seat token or the join key."})
    api.spec.components.security_scheme(
        "groupToken", {"type": "http", "scheme": "bearer",
                       "description": "A group's admin token, its invite key or one of its API "
                                      "tokens (docs/groups.md)."})
    for blueprint in (games.bp, validate.bp, players.bp, health.bp, record.bp, tables.bp,
                      groups.bp):
        api.register_blueprint(blueprint)
    ratelimit.limited(games.bp, "writes", methods=["POST"])  # POST /games (docs/deploy.md)
    ratelimit.limited(record.bp, "writes")  # the recorder's POST/PUT: the same budget
    ratelimit.limited(tables.bp, "entries", "120/minute;3000/hour", methods=["POST"],
                      key=ratelimit.phone_key)  # each phone (its token), docs/deploy.md
    ratelimit.limited(tables.bp, "rooms", "1200/minute;20000/hour", methods=["POST"])  # an address
    ratelimit.limited(groups.bp, "writes", methods=["POST", "PUT", "PATCH", "DELETE"])
    # the log schemas (schemas/), the links between operations, ids, 429 and 503 answers
    contract.complete(api.spec, ratelimit.guarded(api.spec._paths))
    app.register_blueprint(docs.bp)
    health.init_root(app)
    errors.init_app(app)  # after Api(): replaces its error handler with the one shape
    ratelimit.init_app(app)
    app.register_error_handler(ratelimit.Over, ratelimit.handle_over)
    cors.init_app(app)
    guard.init_app(app)
    return api

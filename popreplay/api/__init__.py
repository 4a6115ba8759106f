"""The REST API under ``/api/v1`` (flask-smorest): one blueprint per resource; the views turn HTTP
into calls to ``popreplay.store`` / ``popreplay.db.queries`` and back. No rules here."""

from __future__ import annotations

import json
from typing import Any, Mapping

from apispec import APISpec
from flask import Flask
from flask_smorest import Api
from flask_smorest.spec import openapi_cli

from . import (contract, cors, docs, errors, games, groups, guard, health, players, ratelimit,
               record, tables, validate)
from . import group_games, group_sheets, group_webhooks  # noqa: F401  (routes of groups.bp)
from . import table_signoff  # noqa: F401  (the corrections and sign-off routes of tables.bp)
from . import table_stream  # noqa: F401  (the live stream's route of tables.bp)
from .schemas import ErrorSchema


# The flask-smorest settings that shape the generated OpenAPI document (besides the code).
DOCUMENT_SETTINGS = ("API_TITLE", "API_VERSION", "OPENAPI_VERSION", "API_SPEC_OPTIONS",
                     "ETAG_DISABLED")

# The document built by the first app of this process, per those settings: every app of the
# process makes the same routes from the same code, so a later app (the tests make thousands)
# takes it instead of building it again (about 0.1 s each on a 2-core machine). It is not
# changed once built (``docs.attach`` sets the same examples again).
_documents: dict[str, APISpec] = {}


def document_key(config: Mapping[str, Any]) -> str:
    return json.dumps([config.get(name) for name in DOCUMENT_SETTINGS], sort_keys=True,
                      default=repr)


class PopreplayApi(Api):
    ERROR_SCHEMA = ErrorSchema  # the one error shape, also in the generated document
    built = False  # the document is one this process built already: only the routes are added

    def _init_spec(self, **kwargs: Any) -> None:
        """Take the document this process built for the same settings, if any, instead of
        starting another one (its default responses resolved again: about 10 ms an app)."""
        built = _documents.get(document_key(self._app.config))
        if built is None:
            super()._init_spec(**kwargs)
            return
        self.spec, self.built = built, True
        self.flask_plugin, self.ma_plugin = built.plugins[:2]
        self._app.cli.add_command(openapi_cli)

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        if not self.built:
            super().register_blueprint(blp, parameters=parameters, **options)
            return
        self._app.extensions["flask-smorest"]["blp_name_to_api"][options.get("name", blp.name)] = self
        self._app.register_blueprint(blp, **options)


def init_app(app: Flask) -> Api:
    api = PopreplayApi(app, spec_kwargs={
        "info": {"description": "Replay card-game logs, check every move, recompute the scores."},
    })
    app.url_map.converters["ref"] = games.RefConverter  # before the routes are registered
    key = document_key(app.config)
    built = _documents.get(key) if api.built else None
    if built is None:
        _describe(api)
    for blueprint in (games.bp, validate.bp, players.bp, health.bp, record.bp, tables.bp,
                      groups.bp):
        api.register_blueprint(blueprint)
    ratelimit.limited(games.bp, "writes", methods=["POST"])  # POST /games (docs/deploy.md)
    ratelimit.limited(record.bp, "writes")  # the recorder's POST/PUT: the same budget
    ratelimit.limited(tables.bp, "entries", "120/minute;3000/hour", methods=["POST"],
                      key=ratelimit.phone_key)  # each phone (its token), docs/deploy.md
    ratelimit.limited(tables.bp, "rooms", "1200/minute;20000/hour", methods=["POST"])  # an address
    ratelimit.limited(groups.bp, "writes", methods=["POST", "PUT", "PATCH", "DELETE"])
    if built is None:
        # the log schemas (schemas/), the links between operations, ids, 429 and 503 answers
        contract.complete(api.spec, ratelimit.guarded(api.spec._paths))
        _documents[key] = api.spec
    app.register_blueprint(docs.bp)
    health.init_root(app)
    errors.init_app(app)  # after Api(): replaces its error handler with the one shape
    ratelimit.init_app(app)
    app.register_error_handler(ratelimit.Over, ratelimit.handle_over)
    cors.init_app(app)
    guard.init_app(app)
    return api


def _describe(api: Api) -> None:
    """What the document says besides the routes: the path converter, the security schemes."""
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

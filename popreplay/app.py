"""The Flask app factory's body (``popreplay.create_app`` imports this lazily)."""

from __future__ import annotations

import logging
from typing import Any, Mapping

from flask import Flask
from werkzeug.routing import Rule
from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket

from . import api
from .jsonout import SafeJSONProvider
from .config import Config
from .db import session as db_session
from .queue import remote_replay, send_task
from .tables.outcomes import Deps, Limits

log = logging.getLogger(__name__)


class SharedBytecode(BytecodeCache):
    """The pages' compiled templates, kept in memory for the process and shared by its apps (the
    tests make hundreds: each compiled every template again, about 50 ms for the home page). A
    template is taken from here only when its source is unchanged (Jinja's checksum) and the app's
    environment has the same extensions and syntax (the code Jinja generates depends on them)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def get_bucket(self, environment: Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        shape = repr((sorted(environment.extensions), environment.block_start_string,
                      environment.variable_start_string, environment.comment_start_string,
                      environment.line_statement_prefix, environment.trim_blocks,
                      environment.lstrip_blocks, environment.newline_sequence,
                      environment.keep_trailing_newline, environment.optimized,
                      environment.finalize is None, environment.is_async,
                      environment.autoescape if isinstance(environment.autoescape, bool)
                      else environment.autoescape(name)))
        bucket = Bucket(environment, self.get_cache_key(f"{name}\0{shape}", filename),
                        self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


class SharedRule(Rule):
    """werkzeug's URL rule, its URL builders shared by the process's apps. Each rule of each new
    app compiled two Python functions (``url_for``'s builders: an AST, then ``compile``): 80 % of
    ``create_app``'s time, and the tests make hundreds of apps. A builder's code depends only on
    the rule's parsed parts (``_trace``: its static text and variable names, host or subdomain
    first), on which variables have defaults, and on ``append_unknown``; it reads the rule's own
    converters through ``self`` when called. So a builder compiled for one rule serves every rule
    with the same parts, bound to that rule. A rule with a default for one of its variables has a
    converter's output compiled in: it is compiled for itself, as werkzeug does."""

    _builders: dict[tuple[Any, ...], Any] = {}

    def _compile_builder(self, append_unknown: bool = True) -> Any:
        defaults = self.defaults or {}
        if any(dynamic and data in defaults for dynamic, data in self._trace):
            return super()._compile_builder(append_unknown)
        key = (self.rule, tuple(self._trace), tuple(defaults), append_unknown)
        builder = self._builders.get(key)
        if builder is None:
            builder = self._builders[key] = super()._compile_builder(append_unknown)
        return builder


class PopreplayFlask(Flask):
    json_provider_class = SafeJSONProvider
    url_rule_class = SharedRule
    jinja_options = {"bytecode_cache": SharedBytecode()}


def build_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = PopreplayFlask("popreplay")
    app.config.update(Config.load(config))
    db_session.init_app(app)
    api.init_app(app)
    # a first replay on a worker when a broker is configured (store/replays.py asks for it)
    app.extensions["popreplay_remote_replay"] = remote_replay
    wire_tables(app)
    app.extensions["popreplay_send_task"] = send_task  # webhooks/delivery.py, with a broker
    _register_viewer(app)
    return app


def wire_tables(app: Flask) -> Deps:
    """The tables' use cases' dependencies, built once (``tables/usecases.py``): the request's
    unit of work, the engine's budget, the fan-out (told after each commit; a failure of it is
    logged, never the request's answer) and the limits. Call again after changing the config."""
    from .logformat.limits import MAX_DEPTH
    from .tables import fanout

    url = app.config.get("REDIS_URL")

    def publish(message: dict[str, Any]) -> None:
        try:
            fanout.for_url(url).publish(message)
        except Exception:  # what took effect is answered as such: the streams catch up by polling
            log.warning("table %s: the fan-out did not take the news of %s", message.get("table"),
                        message, exc_info=True)

    deps = Deps(session=db_session.get_session, wait=app.config.get("REPLAY_WAIT"),
                publish=publish, limits=Limits(
                    max_entries=app.config.get("TABLE_MAX_ENTRIES"),
                    max_draft_bytes=app.config.get("TABLE_MAX_DRAFT_BYTES"),
                    max_entry_bytes=app.config.get("TABLE_MAX_ENTRY_BYTES"), max_depth=MAX_DEPTH))
    app.extensions["popreplay_tables"] = deps
    return deps


def _register_viewer(app: Flask) -> None:
    """The replay viewer (``popreplay.web``): ``/`` and the share links ``/r/<slug>``."""
    try:
        from .web import bp
    except ImportError as error:  # only while the viewer is not written yet
        if error.name != f"{__package__}.web":
            raise
        log.warning("popreplay.web is missing: share links /r/<slug> will answer 404")
        return
    app.register_blueprint(bp)
    from .web.rules import bp as rules  # the rules pages, /rules/<game> (docs/rules, docs/fr/rules)
    app.register_blueprint(rules)
    from .web import lang  # the pages' language (Flask-Babel): docs/i18n.md

    lang.init_app(app)

"""The Flask app factory's body (``popreplay.create_app`` imports this lazily)."""

from __future__ import annotations

import logging
from typing import Any, Mapping

from flask import Flask

from . import api
from .jsonout import SafeJSONProvider
from .config import Config
from .db import session as db_session
from .queue import remote_replay, send_task
from .tables.outcomes import Deps, Limits

log = logging.getLogger(__name__)


class PopreplayFlask(Flask):
    json_provider_class = SafeJSONProvider


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

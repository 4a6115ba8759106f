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
    app.extensions["popreplay_send_task"] = send_task  # webhooks/delivery.py, with a broker
    _register_viewer(app)
    return app


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

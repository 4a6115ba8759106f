"""The pages' language: ``?lang=fr|en``, then the ``lang`` cookie (set by the header's switch,
which is a link carrying ``?lang=``), then ``Accept-Language``; English is the fallback.

Flask-Babel asks :func:`select` for every request (pages, the API docs page). A ``?lang=`` in the
address also sets the cookie, so the switch is a plain link that keeps the path, the query and
(through the page's JavaScript) ``#step=N``. See docs/i18n.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Response, g, request
from flask_babel import Babel

from ..i18n import negotiate as i18n_negotiate

LANGS = ("en", "fr")
DEFAULT = "en"
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


def _clean(value: str | None) -> str | None:
    if not value:
        return None
    value = value.strip().lower().replace("_", "-").split("-")[0]
    return value if value in LANGS else None


def negotiate(query_lang: str | None, accept_language: str | None,
              cookie_lang: str | None = None) -> str:
    """``"en"`` or ``"fr"``: the query, then the cookie, then Accept-Language, then English."""
    # the cookie ranks with ?lang= (before Accept-Language): one negotiation for pages and API
    return i18n_negotiate(_clean(query_lang) or _clean(cookie_lang), accept_language)


def current() -> str:
    """This request's language (computed once per request)."""
    try:
        return g._popreplay_lang
    except AttributeError:
        pass
    lang = negotiate(request.args.get("lang"), request.headers.get("Accept-Language"),
                     request.cookies.get(COOKIE))
    g._popreplay_lang = lang
    return lang


def _remember(response: Response) -> Response:
    """``?lang=`` sets the cookie; every HTML page varies with what chose its language."""
    asked = _clean(request.args.get("lang"))
    if asked and request.cookies.get(COOKIE) != asked and response.mimetype == "text/html":
        response.set_cookie(COOKIE, asked, max_age=COOKIE_AGE, samesite="Lax",
                            secure=request.is_secure, httponly=True)
    if response.mimetype == "text/html":
        response.vary.add("Cookie")
        response.vary.add("Accept-Language")
    return response


def switch_url(lang: str) -> str:
    """This page's address in ``lang``: the path and the query, ``lang`` replaced."""
    args: list[tuple[str, Any]] = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    args.append(("lang", lang))
    from urllib.parse import urlencode
    return request.path + "?" + urlencode(args)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=current,
          default_translation_directories=str(TRANSLATIONS), default_domain="messages")
    app.after_request(_remember)
    app.jinja_env.globals.update(current_lang=current, switch_url=switch_url, LANGS=LANGS)

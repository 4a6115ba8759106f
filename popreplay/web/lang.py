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


def _negotiate_accept(accept_language: str | None) -> str | None:
    """The best of ``LANGS`` by ``Accept-Language`` (q-values honoured), or None."""
    if not accept_language:
        return None
    best: tuple[float, int, str] | None = None
    for position, part in enumerate(accept_language.split(",")):
        fields = part.strip().split(";")
        lang = _clean(fields[0])
        q = 1.0
        for field in fields[1:]:
            name, _, value = field.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if lang and q > 0 and (best is None or (q, -position) > (best[0], best[1])):
            best = (q, -position, lang)
    return best[2] if best else None


def negotiate(query_lang: str | None, accept_language: str | None,
              cookie_lang: str | None = None) -> str:
    """``"en"`` or ``"fr"``: the query, then the cookie, then Accept-Language, then English."""
    return (_clean(query_lang) or _clean(cookie_lang) or _negotiate_accept(accept_language)
            or DEFAULT)


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

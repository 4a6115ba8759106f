"""The replay viewer and the upload page: server-rendered pages plus a little plain JavaScript.

``bp`` serves ``/`` (recent public games, the upload form, the examples), ``/r/<slug>`` (a stored
game's annotated replay) and ``/examples/<mode>`` (the shipped example games). The pages read
games through :mod:`popreplay.store` and upload through the JSON API. See ``docs/viewer.md``.

Every response of the app, not only the viewer's, gets ``X-Content-Type-Options: nosniff``; an
HTML page from outside the viewer (``/api/v1/docs``) gets a policy that allows no script at all
and its own inline style sheet (docs/reliability.md, "Access").
"""

from flask import Response

from . import embed, images  # noqa: F401  (their routes are on bp)
from .views import SECURITY_HEADERS, bp
from . import table_page  # noqa: E402,F401  (/t/<id>: a table recorded together)
from . import group_pages, group_record, sheet_page  # noqa: E402,F401  (/g/<slug>: a group's pages)

OTHER_HTML_HEADERS = {
    **SECURITY_HEADERS,
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    ),
}


@bp.after_app_request
def _headers_everywhere(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html" and "Content-Security-Policy" not in response.headers:
        for name, value in OTHER_HTML_HEADERS.items():
            response.headers.setdefault(name, value)
    return response


__all__ = ["bp"]

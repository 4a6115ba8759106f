"""``popreplay serve``'s access log keeps no secret of a table (issue 36; docs/table.md,
"Streams").

Tokens travel in the ``Authorization`` header and in URL fragments, never in a query string;
as defence in depth the access log writes no query string of a table's routes (``/api/v1/tables``,
``/t/``), and elsewhere writes ``token``, ``key`` and ``ticket`` parameters without their value.
Request headers are never logged (the format names none; ``Authorization`` and ``Cookie`` are
dropped from the atoms all the same).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlencode

from gunicorn.glogging import Logger

PRIVATE_PATHS = ("/api/v1/tables", "/t/")
SECRET_PARAMETERS = frozenset({"token", "key", "ticket"})
SECRET_HEADERS = ("{authorization}i", "{cookie}i", "{proxy-authorization}i")


def quiet(target: str, *, path: str | None = None) -> str:
    """``target`` (a path with its query, or a whole URL) as the log may show it."""
    head, mark, query = target.partition("?")
    if not mark:
        return target
    if _path_of(path or head).startswith(PRIVATE_PATHS):
        return head
    pairs = [(k, "-" if k.lower() in SECRET_PARAMETERS else v)
             for k, v in parse_qsl(query, keep_blank_values=True)]
    return f"{head}?{urlencode(pairs, safe='-')}"


def _path_of(target: str) -> str:
    if "://" in target:
        rest = target.split("://", 1)[1]
        return "/" + rest.split("/", 1)[1] if "/" in rest else "/"
    return target


class AccessLogger(Logger):  # type: ignore[misc]
    """gunicorn's logger, its access atoms made quiet (``logger_class`` of ``popreplay serve``)."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> Any:
        atoms = super().atoms(resp, req, environ, request_time)
        path = environ.get("PATH_INFO") or ""
        raw = environ.get("RAW_URI") or path
        atoms["r"] = f"{environ.get('REQUEST_METHOD')} {quiet(raw, path=path)} " \
                     f"{environ.get('SERVER_PROTOCOL')}"
        private = path.startswith(PRIVATE_PATHS)
        if private:
            atoms["q"] = ""
        atoms["f"] = quiet(atoms.get("f") or "-")
        for name in list(atoms):  # the environment's and the headers' atoms too
            lower = name.lower()
            if lower in SECRET_HEADERS or lower in ("{http_authorization}e", "{http_cookie}e"):
                atoms.pop(name)
            elif lower in ("{raw_uri}e", "{request_uri}e", "{http_referer}e", "{referer}i"):
                atoms[name] = quiet(str(atoms[name]), path=path if "uri" in lower else None)
            elif lower == "{query_string}e":
                atoms[name] = "" if private else quiet("?" + str(atoms[name]))[1:]
        return atoms

"""Who may talk to the service: the Host headers it answers, and what a write must look like.

* Hosts (issue 15, finding 8): share links, ``Location`` and page links are built from the
  request's host when ``POPREPLAY_PUBLIC_URL`` is unset, so a forged ``Host`` was reflected into
  them. Outside debug, only ``POPREPLAY_ALLOWED_HOSTS`` (default: this machine's loopback names)
  and the host of ``POPREPLAY_PUBLIC_URL`` are answered; any other is a 400 (Flask's
  ``TRUSTED_HOSTS``).
* Writes (finding 9): a body must be declared JSON (or NDJSON where accepted), else 415, so that
  a cross-site ``<form>`` or a "simple" cross-site request (``text/plain``, no preflight) cannot
  store anything; and a browser's cross-site write (``Sec-Fetch-Site: cross-site``, or an
  ``Origin`` that is neither this host nor one of ``POPREPLAY_CORS_ORIGINS``) is a 403.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, request

from .errors import ApiError

LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")
WRITES = ("POST", "PUT", "PATCH", "DELETE")
BODY_TYPES = ("application/json", "application/x-ndjson")


def trusted_hosts(config: dict) -> list[str] | None:
    """The hosts answered (None: any, in debug only)."""
    if config.get("DEBUG"):
        return None
    hosts = list(config.get("ALLOWED_HOSTS") or LOOPBACK)
    public = config.get("PUBLIC_BASE_URL")
    if public:
        hosts.append(urlsplit(public).hostname or "")
    return [h for h in hosts if h]


def _same_origin(origin: str) -> bool:
    allowed = current_app.config.get("CORS_ORIGINS") or ()
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    # scheme too: an https page is another origin than this http service (issue 25); behind a
    # proxy that ends TLS, the scheme of POPREPLAY_PUBLIC_URL is this service's too
    public = urlsplit(current_app.config.get("PUBLIC_BASE_URL") or "").scheme
    return (bool(parts.netloc) and parts.netloc == request.host
            and parts.scheme in (request.scheme, public))


def check_write() -> None:
    if (request.method not in WRITES or not request.path.startswith("/api/")
            or request.routing_exception is not None):
        return  # no such route or method: routing's own 404 or 405 (with Allow), not a 415
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or (
            request.headers.get("Origin") and not _same_origin(request.headers["Origin"])):
        raise ApiError(403, "Cross-site writes are refused: send the request from this site, "
                       "or list your page's origin in POPREPLAY_CORS_ORIGINS.")
    if request.method == "POST" and request.mimetype not in BODY_TYPES:
        raise ApiError(415, "Send the log with Content-Type: application/json (or "
                       "application/x-ndjson for several logs to /validate).", errors=[
                           {"code": "bad-headers", "path": "",
                            "message": f"Content-Type {request.mimetype or '(none)'} is not "
                                       "accepted"}])


def init_app(app: Flask) -> None:
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config)
    app.before_request(check_write)

"""CORS, only where configured: ``POPREPLAY_CORS_ORIGINS`` (default none) lists the origins whose
browser pages may call ``/api/`` (``*``: any). Without it no response carries CORS headers, so a
browser lets only pages of the service's own origin read the API."""

from __future__ import annotations

from flask import Flask, Response, current_app, request

ALLOW_METHODS = "GET, POST, DELETE"
ALLOW_HEADERS = "Authorization, Content-Type, If-None-Match"
EXPOSE_HEADERS = "ETag, Location, Retry-After"


def add_cors_headers(response: Response) -> Response:
    origins = current_app.config.get("CORS_ORIGINS") or ()
    origin = request.headers.get("Origin")
    if not origins or not origin or not request.path.startswith("/api/"):
        return response
    response.vary.add("Origin")
    if "*" not in origins and origin not in origins:
        return response
    response.headers["Access-Control-Allow-Origin"] = "*" if "*" in origins else origin
    response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
    if request.method == "OPTIONS":
        response.headers["Access-Control-Allow-Methods"] = ALLOW_METHODS
        response.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
        response.headers["Access-Control-Max-Age"] = "600"
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_cors_headers)

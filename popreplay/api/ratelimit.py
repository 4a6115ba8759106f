"""Per-client rate limits (Flask-Limiter): named limits shared by the routes they guard.

| name      | guards                                                        | default            |
|-----------|---------------------------------------------------------------|--------------------|
| writes    | POST /api/v1/games, POST/PUT /api/v1/record/* (one budget)    | 60/minute;600/hour |
| replays   | a replay that must be computed (not stored yet): API and /r/  | 30/minute          |
| exports   | GET /api/v1/games/export, /export.csv                         | 10/minute          |
| entries   | POST under /api/v1/tables (a table, a seat, an entry, storing), per phone | 120/minute;3000/hour |
| rooms     | the same POSTs, per address: the ceiling of one café's tables  | 1200/minute;20000/hour |

A client is its address (``POPREPLAY_TRUSTED_PROXIES``: the address the proxies in front name);
a table's phone is its token (a seat's, the host's, the join link's key: :func:`phone_key`), so the
phones of one café, which share its address, each have their own budget, under the address's
ceiling (``rooms``: an invented token gets a budget of its own, but not past the ceiling).
Counts live in Redis when ``POPREPLAY_REDIS_URL`` is set, so every host counts against the same
budget; in memory otherwise, each process its own, counting its share of every limit
(``popreplay serve --workers N``: 1/N, rounded up), so that one host gives a client the
documented limit whatever its worker count. Over a limit: 429 in the one error shape,
with ``Retry-After`` (seconds until the window frees a request). An operator sets a limit with
``POPREPLAY_LIMIT_<NAME>`` (``off``: not limited), all of them off with ``POPREPLAY_LIMITS=off``.

A new blueprint gets a limit with one line beside it::

    ratelimit.limited(bp, "writes")              # its POST/PUT/PATCH/DELETE share "writes"
    ratelimit.limited(bp, "entries", "20/minute", methods=["POST"])  # a limit of its own
    ratelimit.limited(bp, "entries", methods=["POST"], key=ratelimit.phone_key)  # per phone
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any, Callable

from flask import Blueprint as FlaskBlueprint, Flask, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import parse_many

from .errors import error_response

DEFAULTS = {"writes": "60/minute;600/hour", "replays": "30/minute", "exports": "10/minute"}
WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"]
# blueprint name -> limit name -> (methods, key: the client, None: its address)
_BLUEPRINTS: dict[str, dict[str, tuple[list[str], Callable[[], str] | None]]] = {}
_ENDPOINTS: dict[str, str] = {"games.export": "exports",
                              "games.export_csv": "exports"}  # endpoint -> limit


def limited(blueprint: Any, name: str, default: str | None = None, *,
            methods: list[str] | None = None, key: Callable[[], str] | None = None) -> None:
    """Guard ``blueprint``'s routes (``methods``: the writing ones by default) by limit
    ``name`` (shared with every route guarded by the same name); ``default`` for a new name;
    ``key``: who is counted (the client's address by default). A blueprint may have several."""
    if default is not None:
        DEFAULTS.setdefault(name, default)
    if name not in DEFAULTS:
        raise ValueError(f"no default for the new limit {name!r}")
    _BLUEPRINTS.setdefault(blueprint.name, {})[name] = (list(methods or WRITE_METHODS), key)


def phone_key() -> str:
    """A table's phone: the token it sends (hashed: never kept), else its address."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return "phone:" + hashlib.sha256(value.strip().encode("utf-8")).hexdigest()[:32]
    return client_key()


# The operations the "replays" and "exports" limits guard, as the OpenAPI document names them.
_OPERATIONS = {("get", "/api/v1/games/export"), ("get", "/api/v1/games/export.csv"),
               ("get", "/api/v1/games/{ref}/replay")}


def guarded(paths: dict[str, Any]) -> set[tuple[str, str]]:
    """The (method, path) pairs of the document's ``paths`` that a limit guards: those of a
    limited blueprint (its tag) with a guarded method, and ``_OPERATIONS``."""
    found = set(_OPERATIONS)
    for path, item in paths.items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for tag in operation.get("tags", []):
                if any(method.upper() in methods
                       for methods, _ in _BLUEPRINTS.get(tag, {}).values()):
                    found.add((method, path))
    return found


def client_key() -> str:
    """The client: its address, or the one the trusted proxies in front of us name."""
    proxies = current_app.config.get("TRUSTED_PROXIES") or 0
    route = list(request.headers.getlist("X-Forwarded-For"))
    hops = [h.strip() for line in route for h in line.split(",") if h.strip()]
    chain = hops + [request.remote_addr or "?"]
    return chain[max(len(chain) - 1 - proxies, 0)]


def limit_of(app: Flask, name: str) -> str | None:
    """Limit ``name`` as configured (None: off), as this process counts it: its share of each
    amount when the counts are in this process's memory and ``popreplay serve`` runs
    ``PROCESSES`` of them (no Redis), so that one client gets the documented limit whatever the
    worker count (the workers take connections in turn: a client's requests spread over them)."""
    value = (app.config.get("RATE_LIMITS") or {}).get(name) or DEFAULTS[name]
    if value.lower() in ("off", "none", "0"):
        return None
    processes = int(app.config.get("PROCESSES") or 1)
    if app.config.get("REDIS_URL") or processes <= 1:
        return value
    return ";".join(_share(item.strip(), processes) for item in value.split(";") if item.strip())


def _share(item: str, processes: int) -> str:
    """``60/minute`` over 4 processes: ``15/minute`` (never below 1)."""
    amount, _, per = item.partition("/")
    if not amount.strip().isdigit():
        return item
    return f"{max(1, -(-int(amount) // processes))}/{per}"


def init_app(app: Flask) -> None:
    """One limiter per app (its own storage: Redis, or this app's memory)."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_ENABLED", app.config.get("RATE_LIMITS_ENABLED", True))
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "popreplay")
    app.config.setdefault("RATELIMIT_STRATEGY", "moving-window")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)  # Retry-After comes with the 429
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # Redis down: serve, unlimited
    limiter = Limiter(key_func=client_key)
    for blueprint, limits in _BLUEPRINTS.items():
        for name, (methods, key) in limits.items():
            value = limit_of(app, name)
            if value is not None and blueprint in app.blueprints:
                registered = app.blueprints[blueprint]
                assert isinstance(registered, FlaskBlueprint)  # flask_smorest's are too
                limiter.shared_limit(value, scope=name, methods=methods, key_func=key)(
                    registered)
    for endpoint, name in _ENDPOINTS.items():
        value = limit_of(app, name)
        if value is not None and endpoint in app.view_functions:
            view: Callable[..., Any] = app.view_functions[endpoint]
            app.view_functions[endpoint] = limiter.shared_limit(value, scope=name)(view)
    limiter.init_app(app)
    app.extensions["popreplay_limiter"] = limiter
    app.extensions["popreplay_replay_guard"] = guard_replay
    app.register_error_handler(RateLimitExceeded, _too_many)


def guard_replay() -> None:
    """Count a replay about to be computed against ``replays``; 429 past the limit."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    limiter: Limiter = app.extensions["popreplay_limiter"]
    value = limit_of(app, "replays")
    if value is None or not limiter.enabled:
        return
    key = client_key()
    try:
        strategy = limiter.limiter
        for item in parse_many(value):
            if not strategy.hit(item, key, "replays"):
                reset = strategy.get_window_stats(item, key, "replays").reset_time
                raise _Over(item, reset)
    except _Over:
        raise
    except Exception:  # the storage does not answer: serve (as the routes' limits do)
        current_app.logger.warning("rate limit storage unavailable", exc_info=True)


class _Over(Exception):
    def __init__(self, item: Any, reset: float) -> None:
        super().__init__(str(item))
        self.item, self.reset = item, reset


def _retry_after(reset: float, window: int) -> str:
    """Seconds until a request is freed: never more than the limit's window."""
    return str(min(window, max(1, math.ceil(reset - time.time()))))


def _message(what: str) -> str:
    return (f"Too many requests from this client ({what}); try again in the number of seconds "
            "Retry-After says.")


def _too_many(error: RateLimitExceeded) -> Any:
    limiter: Limiter = current_app.extensions["popreplay_limiter"]
    current = limiter.current_limit
    reset = current.reset_at if current is not None else time.time() + 60
    return error_response(429, _message(f"limit {error.limit.limit}"),
                          headers={"Retry-After": _retry_after(reset, error.limit.limit.get_expiry())})


def handle_over(error: _Over) -> Any:
    return error_response(429, _message(f"limit {error.item} on replays being computed"),
                          headers={"Retry-After": _retry_after(error.reset,
                                                               error.item.get_expiry())})


Over = _Over

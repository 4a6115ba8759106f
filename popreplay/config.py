"""Configuration: everything from environment variables, with defaults (docs/api.md, "Service").

| variable                  | default                                   |
|---------------------------|-------------------------------------------|
| POPREPLAY_DATABASE_URL    | SQLite file ``popreplay.sqlite`` in the user's data folder (db.session.data_folder) |
| POPREPLAY_MAX_BODY        | 1048576 (1 MiB): the largest request body, in bytes |
| POPREPLAY_MAX_NDJSON_BODY | 536870912 (512 MiB): the largest NDJSON body of ``POST /validate`` |
| POPREPLAY_MAX_NDJSON_LINES| 100000: the most lines one NDJSON ``POST /validate`` reads |
| POPREPLAY_CORS_ORIGINS    | none: origins whose pages may call ``/api/`` (comma-separated; ``*``) |
| POPREPLAY_PUBLIC_URL      | none: share links use the request's host  |
| POPREPLAY_ALLOWED_HOSTS   | localhost, 127.0.0.1, ::1 (and the host of POPREPLAY_PUBLIC_URL): the Host headers answered; others get 400 (comma-separated; ``.example.org`` allows its subdomains too) |
| POPREPLAY_SECRET_KEY      | a random key per process                  |
| POPREPLAY_BROKER_URL      | none: bulk jobs and first replays run in-process; ``amqp://...`` (RabbitMQ) or ``redis://...``: on workers (``popreplay worker``, docs/deploy.md) |
| POPREPLAY_QUEUE           | popreplay: the broker's queue (deployments sharing a broker use one each) |
| POPREPLAY_REDIS_URL       | none: tables' live streams in memory (one process), rate limits counted per process; ``redis://...``: both shared by every host |
| POPREPLAY_LIMITS          | on: per-client rate limits (docs/deploy.md, "Limits"); off: none |
| POPREPLAY_PROCESSES       | 1; set by ``popreplay serve`` to its workers: without Redis, each process counts its share of every limit (docs/deploy.md, "Rate limits") |
| POPREPLAY_LIMIT_<NAME>    | the default of limit NAME (WRITES, REPLAYS, EXPORTS ...), e.g. ``60/minute;1000/hour``; ``off``: not limited |
| POPREPLAY_TRUSTED_PROXIES | 0: proxies in front of the service whose X-Forwarded-For is believed (the client is the address they name) |
| POPREPLAY_REPLAY_WAIT     | 10: seconds a request waits for a first replay being computed; past it, 503 with Retry-After while it goes on (0: no limit, computed in the request) |
| POPREPLAY_TABLE_MAX_ENTRIES | 2000: the most entries (rows, parts included) one table takes; past it, 422 ``table-full`` (docs/table.md, "Limits") |
| POPREPLAY_TABLE_MAX_DRAFT_BYTES | 1048576 (1 MiB, an upload's size): the most bytes a table's draft grows to; past it, 422 ``table-full`` |
| POPREPLAY_TABLE_MAX_ENTRY_BYTES | 65536: the most bytes of one table entry (and of a table's first draft); past it, 422 |
| POPREPLAY_TABLE_MAX_STREAMS | 1000: the most table streams open at once in one process; past it, 503 ``busy`` with Retry-After |
| POPREPLAY_TABLE_MAX_STREAMS_PER_CLIENT | 64: the most table streams one client (address) holds open in one process; past it, 429 ``too-many-streams`` with Retry-After (docs/table.md, "Streams") |
| POPREPLAY_TABLE_MAX_STREAMS_PER_TABLE | 48: the most streams of one table open in one process; past it, 503 ``busy`` with Retry-After |
| POPREPLAY_WEBHOOK_LOOPBACK | off: webhook URLs must be https to a public host; on (tests, development): ``http://`` and ``https://`` to 127.0.0.1, localhost or ::1 are accepted too (docs/webhooks.md) |
| POPREPLAY_WEBHOOK_RETRY   | 30: seconds before a failed webhook delivery's first retry, doubled at each (docs/webhooks.md) |
| POPREPLAY_WEBHOOK_TIMEOUT | 5: seconds a webhook's receiver has to connect and answer |
| POPREPLAY_TABLE_STREAM_SECONDS | 300: a stream's lifetime; the page opens it again (``Last-Event-ID``). A stream whose client does not read is closed at its lifetime all the same |
"""

from __future__ import annotations

import os
import re
import secrets
from typing import Any, Mapping

from .engine import ENGINE_VERSION

MiB = 1024 * 1024


def _int(name: str, default: int, *, unit: str = "bytes") -> int:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number of {unit}, not {value!r}") from None
    if number <= 0:
        raise ValueError(f"{name} must be positive")
    return number


def _seconds(name: str, default: float) -> float | None:
    """A number of seconds (fractions allowed); 0 means no limit (None)."""
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {value!r}") from None
    if not number >= 0 or number == float("inf"):
        raise ValueError(f"{name} must be 0 or a positive number of seconds")
    return number or None


def _on_off(name: str, default: bool) -> bool:
    value = (os.environ.get(name) or "").strip().lower()
    if not value:
        return default
    if value in ("on", "1", "true", "yes"):
        return True
    if value in ("off", "0", "false", "no"):
        return False
    raise ValueError(f"{name} must be on or off, not {value!r}")


def _count(name: str, default: int) -> int:
    value = (os.environ.get(name) or "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number (0 or more), not {value!r}")
    return int(value)


def _origins(value: str) -> tuple[str, ...]:
    """``https://a.example, http://localhost:3000`` or ``*``: the origins CORS allows."""
    origins = tuple(part.strip().rstrip("/") for part in value.split(",") if part.strip())
    for origin in origins:
        if origin != "*" and not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?", origin):
            raise ValueError(f"POPREPLAY_CORS_ORIGINS: {origin!r} is not an origin "
                             "(scheme://host[:port]) or *")
    return origins


def from_environment() -> dict[str, Any]:
    """The settings read from the environment now (so tests can set variables first)."""
    return {
        "DATABASE_URL": os.environ.get("POPREPLAY_DATABASE_URL") or None,
        "MAX_CONTENT_LENGTH": _int("POPREPLAY_MAX_BODY", MiB),
        "MAX_NDJSON_BODY": _int("POPREPLAY_MAX_NDJSON_BODY", 512 * MiB),
        "MAX_NDJSON_LINES": _int("POPREPLAY_MAX_NDJSON_LINES", 100_000, unit="lines"),
        "REPLAY_WAIT": _seconds("POPREPLAY_REPLAY_WAIT", 10.0),
        "TABLE_MAX_ENTRIES": _int("POPREPLAY_TABLE_MAX_ENTRIES", 2000, unit="entries"),
        "TABLE_MAX_STREAMS": _int("POPREPLAY_TABLE_MAX_STREAMS", 1000, unit="streams"),
        "TABLE_MAX_STREAMS_PER_CLIENT": _int("POPREPLAY_TABLE_MAX_STREAMS_PER_CLIENT", 64,
                                             unit="streams"),
        "TABLE_MAX_STREAMS_PER_TABLE": _int("POPREPLAY_TABLE_MAX_STREAMS_PER_TABLE", 48,
                                            unit="streams"),
        "TABLE_STREAM_SECONDS": _int("POPREPLAY_TABLE_STREAM_SECONDS", 300, unit="seconds"),
        "TABLE_MAX_DRAFT_BYTES": _int("POPREPLAY_TABLE_MAX_DRAFT_BYTES", MiB),
        "TABLE_MAX_ENTRY_BYTES": _int("POPREPLAY_TABLE_MAX_ENTRY_BYTES", 64 * 1024),
        "BROKER_URL": (os.environ.get("POPREPLAY_BROKER_URL") or "").strip() or None,
        "QUEUE_NAME": (os.environ.get("POPREPLAY_QUEUE") or "").strip() or "popreplay",
        "WEBHOOK_LOOPBACK": _on_off("POPREPLAY_WEBHOOK_LOOPBACK", False),
        "WEBHOOK_RETRY": _seconds("POPREPLAY_WEBHOOK_RETRY", 30.0) or 30.0,
        "WEBHOOK_TIMEOUT": _seconds("POPREPLAY_WEBHOOK_TIMEOUT", 5.0) or 5.0,
        "REDIS_URL": (os.environ.get("POPREPLAY_REDIS_URL") or "").strip() or None,  # limits, tables
        "RATE_LIMITS_ENABLED": _on_off("POPREPLAY_LIMITS", True),
        "RATE_LIMITS": {name[len("POPREPLAY_LIMIT_"):].lower(): value.strip()
                        for name, value in os.environ.items()
                        if name.startswith("POPREPLAY_LIMIT_") and value.strip()},
        "TRUSTED_PROXIES": _count("POPREPLAY_TRUSTED_PROXIES", 0),
        # set by `popreplay serve` for its workers: without Redis each counts 1/N of every limit
        "PROCESSES": max(_count("POPREPLAY_PROCESSES", 1), 1),
        "CORS_ORIGINS": _origins(os.environ.get("POPREPLAY_CORS_ORIGINS") or ""),
        "PUBLIC_BASE_URL": (os.environ.get("POPREPLAY_PUBLIC_URL") or "").rstrip("/") or None,
        "SECRET_KEY": os.environ.get("POPREPLAY_SECRET_KEY") or secrets.token_hex(32),
        "ALLOWED_HOSTS": tuple(h.strip() for h in
                               (os.environ.get("POPREPLAY_ALLOWED_HOSTS") or "").split(",")
                               if h.strip()),
    }


class Config:
    """Fixed settings (the OpenAPI document) plus :func:`from_environment`."""

    API_TITLE = "popreplay"
    API_VERSION = ENGINE_VERSION
    OPENAPI_VERSION = "3.0.3"
    OPENAPI_URL_PREFIX = "/api/v1"
    OPENAPI_JSON_PATH = "openapi.json"
    JSON_SORT_KEYS = False

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        values = {k: v for k, v in vars(cls).items() if k.isupper()}
        values.update(from_environment())
        values.update(overrides or {})
        return values


class TestConfig(Config):
    TESTING = True

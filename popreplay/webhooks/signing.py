"""The signature of a webhook delivery: ``Popreplay-Signature: t=<unix seconds>,v1=<hex>``,
where ``hex`` is HMAC-SHA256, keyed with the hook's secret, of ``<t>.`` followed by the body's
bytes. A receiver recomputes it and refuses a timestamp older than its tolerance (a replayed
delivery); docs/webhooks.md shows a receiver's check in plain Python."""

from __future__ import annotations

import hashlib
import hmac
import time

HEADER = "Popreplay-Signature"
TOLERANCE = 300  # seconds a receiver accepts between the timestamp and its clock


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def sign(secret: str, body: bytes, *, now: float | None = None) -> str:
    """The header's value for ``body`` sent now."""
    return signature(secret, int(time.time() if now is None else now), body)


def verify(secret: str, header: str, body: bytes, *, tolerance: int = TOLERANCE,
           now: float | None = None) -> bool:
    """Whether ``header`` signs ``body`` with ``secret``, at most ``tolerance`` seconds ago."""
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = signature(secret, timestamp, body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))

"""What identifies a game and who may change it: the hashes of a log, share slugs, owner tokens."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata
from typing import Any

from ..db.models import GameRecord

__all__ = ["canonical", "canonical_hash", "content_hash", "new_owner_token", "new_slug",
           "owner_token_matches", "token_hash"]


def content_hash(raw: bytes) -> str:
    """SHA-256 of the log's bytes as uploaded (``sha256`` in the API; the log's entity tag)."""
    return hashlib.sha256(raw).hexdigest()


def canonical(value: Any) -> Any:
    """``value`` with every string and object key in Unicode NFC."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {canonical(key): canonical(item) for key, item in value.items()}
    if isinstance(value, list):
        return [canonical(item) for item in value]
    return value


def canonical_hash(data: Any) -> str:
    """What identifies a game: SHA-256 of its parsed log (as :func:`popreplay.logformat.parse_json`
    reads it: ``3.0`` is ``3``) with every string NFC, written as JSON with sorted keys, no spaces
    and no escapes beyond JSON's own, in UTF-8. The one definition: every path that stores or
    changes a log computes it here.

    The walk that makes every string NFC is made only when it changes something: when the JSON
    text is NFC, so is each of its strings and keys (each is a piece of the text between two
    quotes, which compose with nothing; JSON escapes only ASCII), and the text is the canonical
    one already."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = json.dumps(canonical(data), ensure_ascii=False, sort_keys=True,
                          separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def new_slug() -> str:
    """A short unguessable share slug: 12 URL-safe characters, 72 random bits."""
    return secrets.token_urlsafe(9)


def new_owner_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def owner_token_matches(record: GameRecord, *, token: str | None) -> bool:
    """Constant-time check of an owner token against the stored hash."""
    if not token or record.owner_token_hash is None:
        return False
    return hmac.compare_digest(token_hash(token), record.owner_token_hash)

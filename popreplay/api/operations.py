"""What a client generator needs on each operation of the OpenAPI document, added once the views
are registered (``contract.complete``):

* a stable, readable ``operationId`` (``OPERATION_IDS``; an operation not listed gets one derived
  from its method and path, and ``tests/api/test_openapi.py`` asks that it be listed);
* the media type of every answer that is not JSON (the exports, the table's stream, its QR code)
  and of every error answer;
* the answers every client must expect beside the documented ones: **503** with ``Retry-After``
  (the database does not answer; the engine's work took longer than the server gives one
  request; ``/readyz``: not ready) on every operation but ``/healthz``, and **429** with ``Retry-After`` on every
  operation a per-client limit guards (``ratelimit.guarded``).
"""

from __future__ import annotations

import re
from typing import Any

OPERATION_IDS = {
    ("get", "/api/v1/games"): "listGames",
    ("post", "/api/v1/games"): "storeGame",
    ("get", "/api/v1/games/export"): "exportGames",
    ("get", "/api/v1/games/export.csv"): "exportGamesCsv",
    ("get", "/api/v1/games/{ref}"): "getGame",
    ("delete", "/api/v1/games/{ref}"): "deleteGame",
    ("get", "/api/v1/games/{ref}/log"): "getGameLog",
    ("get", "/api/v1/games/{ref}/replay"): "getGameReplay",
    ("post", "/api/v1/validate"): "validateLog",
    ("get", "/api/v1/players/{name}"): "getPlayer",
    ("get", "/api/v1/healthz"): "getHealth",
    ("get", "/api/v1/readyz"): "getReadiness",
    ("post", "/api/v1/record/check"): "checkDraft",
    ("post", "/api/v1/record/games"): "storeDraft",
    ("get", "/api/v1/record/games/{ref}"): "getDraft",
    ("put", "/api/v1/record/games/{ref}"): "updateDraft",
    ("get", "/api/v1/record/cut"): "cutGame",
    ("get", "/api/v1/record/branches/{ref}"): "listBranches",
    ("post", "/api/v1/tables"): "createTable",
    ("get", "/api/v1/tables/{table_id}"): "getTable",
    ("post", "/api/v1/tables/{table_id}/seats"): "takeSeat",
    ("post", "/api/v1/tables/{table_id}/entries"): "appendEntry",
    ("get", "/api/v1/tables/{table_id}/entries"): "listEntries",
    ("get", "/api/v1/tables/{table_id}/stream"): "streamTable",
    ("get", "/api/v1/tables/{table_id}/log"): "getTableLog",
    ("post", "/api/v1/tables/{table_id}/store"): "storeTable",
    ("get", "/api/v1/tables/{table_id}/qr.svg"): "getTableQr",
    ("post", "/api/v1/tables/{table_id}/corrections"): "correctEntry",
    ("get", "/api/v1/tables/{table_id}/corrections"): "listCorrections",
    ("get", "/api/v1/tables/{table_id}/signoff"): "getSignoff",
    ("post", "/api/v1/tables/{table_id}/signoff"): "signOff",
    ("post", "/api/v1/tables/{table_id}/keeper"): "nameKeeper",
    ("post", "/api/v1/groups"): "createGroup",
    ("get", "/api/v1/groups/{slug}"): "getGroup",
    ("patch", "/api/v1/groups/{slug}"): "updateGroup",
    ("get", "/api/v1/groups/{slug}/members"): "listMembers",
    ("post", "/api/v1/groups/{slug}/members"): "addMember",
    ("patch", "/api/v1/groups/{slug}/members/{member_id}"): "updateMember",
    ("get", "/api/v1/groups/{slug}/tokens"): "listGroupTokens",
    ("post", "/api/v1/groups/{slug}/tokens"): "createGroupToken",
    ("delete", "/api/v1/groups/{slug}/tokens/{token_id}"): "revokeGroupToken",
    ("get", "/api/v1/groups/{slug}/games"): "listGroupGames",
    ("post", "/api/v1/groups/{slug}/games"): "addGroupGame",
    ("delete", "/api/v1/groups/{slug}/games/{ref}"): "removeGroupGame",
    ("put", "/api/v1/groups/{slug}/games/{ref}/names"): "mapGroupGameNames",
    ("get", "/api/v1/groups/{slug}/leaderboards"): "getLeaderboards",
    ("get", "/api/v1/groups/{slug}/members/{member_id}/stats"): "getMemberStats",
    ("get", "/api/v1/groups/{slug}/members/{member_id}/ratings"): "getMemberRatings",
    ("post", "/api/v1/groups/{slug}/sheets"): "recordScoreSheet",
    ("put", "/api/v1/groups/{slug}/games/{ref}/log"): "attachGroupGameLog",
    # a group's webhooks (docs/webhooks.md)
    ("get", "/api/v1/groups/{slug}/webhooks"): "listWebhooks",
    ("post", "/api/v1/groups/{slug}/webhooks"): "addWebhook",
    ("delete", "/api/v1/groups/{slug}/webhooks/{hook_id}"): "deleteWebhook",
    ("get", "/api/v1/groups/{slug}/webhooks/{hook_id}/deliveries"): "listWebhookDeliveries",
    ("post", "/api/v1/groups/{slug}/webhooks/{hook_id}/test"): "testWebhook",
}

# Answers that are not JSON: (method, path) -> media type (a string body each).
MEDIA_TYPES = {
    ("get", "/api/v1/games/export"): "application/x-ndjson",
    ("get", "/api/v1/games/export.csv"): "text/csv",
    ("get", "/api/v1/tables/{table_id}/stream"): "text/event-stream",
    ("get", "/api/v1/tables/{table_id}/qr.svg"): "image/svg+xml",
}

# Query parameters a view reads itself (no marshmallow schema): documented here. A table's
# token is never one of them: it goes in the Authorization header (docs/table.md, "Streams").
QUERY = {
    ("get", "/api/v1/tables/{table_id}/stream"): [
        {"name": "wait", "in": "query", "required": False,
         "schema": {"type": "integer", "enum": [0]},
         "description": "`0`: answer what there is now and end (a poll)."},
        {"name": "last", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0},
         "description": "The last sequence number seen (as `Last-Event-ID`)."}],
    ("get", "/api/v1/tables/{table_id}/entries"): [
        {"name": "after", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0, "default": 0},
         "description": "Only the entries after this sequence number."}],
}

METHODS = ("get", "put", "post", "delete", "patch")
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before asking again.",
                               "schema": {"type": "integer", "minimum": 0}}}
BUSY = ("The server cannot answer now: the database does not answer, or the engine's work took "
        "longer than the server gives one request (it goes on: ask again). Try again after "
        "`Retry-After` seconds.")
TOO_MANY = ("Too many requests from this client for this operation's limit (docs/deploy.md, "
            "\"Rate limits\"): try again after `Retry-After` seconds.")


def derived_id(method: str, path: str) -> str:
    """``get /api/v1/groups/{group_id}/members`` -> ``getGroupsGroupIdMembers``."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", path.removeprefix("/api/v1")) if w]
    return method + "".join(w[:1].upper() + w[1:] for w in words)


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "headers": RETRY_AFTER,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def complete(paths: dict[str, Any], guarded: set[tuple[str, str]]) -> None:
    """Operation ids, media types, and the 429 and 503 answers (``guarded``: the (method, path)
    pairs a per-client limit guards), in place."""
    for path, item in paths.items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            operation["operationId"] = OPERATION_IDS.get((method, path),
                                                         derived_id(method, path))
            if (method, path) in QUERY:
                known = {p.get("name") for p in operation.get("parameters", [])}
                operation.setdefault("parameters", []).extend(
                    p for p in QUERY[method, path] if p["name"] not in known)
            responses = operation.setdefault("responses", {})
            media = MEDIA_TYPES.get((method, path))
            if media is not None and "200" in responses:
                responses["200"]["content"] = {media: {"schema": {"type": "string"}}}
            if path != "/api/v1/healthz":
                responses["503"] = {**_error(BUSY), **_kept(responses.get("503"))}
            if (method, path) in guarded:
                responses["429"] = _error(TOO_MANY)


def _kept(response: dict[str, Any] | None) -> dict[str, Any]:
    """What an operation's own 503 says (its description), with the shared headers and body (the
    error shape; ``/readyz`` adds ``"ready": false`` to it)."""
    if not response or not response.get("description") or response["description"] == (
            "Service Unavailable"):
        return {}
    return {"description": response["description"]}

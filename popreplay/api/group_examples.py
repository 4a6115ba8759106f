"""The examples of ``/api/v1/groups`` (one per operation, replayed in order after the others by
``tests/api/test_docs_page.py``; see ``examples.py``). ``captures`` names the stand-ins an answer
gives their real values: the admin token, the invite key, the stored game's slug, the API token.

A club of two (Ana and Bruno) plays a battle; Chloé joins; the battle is rated; a data user gets
a read token, which is then revoked; a webhook gets a test event."""

from __future__ import annotations

import json
from typing import Any

from ..engine import get_game

ORIGIN = "{origin}"
ELIDED = "…"
SLUG = "cafe-du-jeudi"
ADMIN = "gA7xK2mQp9RtV4wLc8NbZ1eYu5HsJ3dFo6iTk0vXr2M"
INVITE = "iN3vK8qLw2XcR5tY"
GAME = "gM9kQ2xLp4Rt"
TOKEN = "grp_tR5wQ8nLx2KcV7mPa4ZsE1yHd6UbJ3fGo9iNk0xMr2Q"
HOOK_SECRET = "whsec_Zr4Kq8LmX2vN7cT1wP5sY9hB3gJ6dF0aE8uR2iQ4oM1"
HOOK_URL = "http://127.0.0.1:8765/popreplay-hook"  # a receiver in development (docs/webhooks.md)
STAND_INS = (ADMIN, INVITE, GAME, TOKEN)
BASE = f"/api/v1/groups/{SLUG}"
JSON = {"Content-Type": "application/json"}
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}


def _battle() -> dict[str, Any]:
    """A simulated two-player battle of Ana and Bruno (the engine's, seed 3)."""
    log = get_game("pop").simulate(mode="battle", players=2, seed=3, options={})
    text = json.dumps(log, ensure_ascii=False).replace("Alice", "Ana")
    battle = json.loads(text)
    battle["meta"] = {"title": "Thursday battle", "played_at": "2026-05-07T20:30:00+02:00"}
    return battle


BATTLE = _battle()
GROUP = {"slug": SLUG, "name": "Café du Jeudi", "private": True, "checked_only": False,
         "members": 2, "games": 0, "ratings": {"up_to_date": True, "done": 0, "total": 0},
         "created_at": "2026-05-01T10:00:00.000000+00:00",
         "links": {"self": f"{ORIGIN}{BASE}", "page": f"{ORIGIN}/g/{SLUG}"}}
SEATS = [{"name": "Ana", "member": 1, "member_name": "Ana", "score": 31, "won": True},
         {"name": "Bruno", "member": 2, "member_name": "Bruno", "score": 44, "won": False}]
ROW = {"slug": GAME, "game": "pop", "mode": "battle", "title": "Thursday battle",
       "played_at": "2026-05-07T18:30:00+00:00", "order_at": "2026-05-07T18:30:00+00:00",
       "status": "complete", "checked": True, "legal": True, "claims_match": ELIDED,
       "seats": ELIDED,
       "share_url": f"{ORIGIN}/r/{GAME}"}
STANDING = {"member": 1, "name": "Ana", "mu": 27.63, "sigma": 8.07, "ordinal": 3.42,
            "games": 1, "wins": 1}


def _op(method: str, path: str, title: str, request: dict[str, Any], response: dict[str, Any],
        captures: dict[str, str] | None = None) -> dict[str, Any]:
    return {"method": method, "path": "/api/v1/groups" + path, "title": title,
            "request": {"method": method.upper(), "headers": {}, **request},
            "response": {"content_type": "application/json", **response},
            "captures": captures or {}}


def group_examples() -> list[dict[str, Any]]:
    return [
        _op("post", "", "Create a private group with its first members",
            {"url": "/api/v1/groups", "headers": JSON,
             "body": {"name": "Café du Jeudi", "members": ["Ana", "Bruno"]}},
            {"status": 201, "body": {"group": GROUP, "admin_token": ADMIN, "invite_key": INVITE,
                                     "invite_url": f"{ORIGIN}/g/{SLUG}/join?key={INVITE}"}},
            {ADMIN: "/admin_token", INVITE: "/invite_key"}),
        _op("get", "/{slug}", "The group, seen with its invite key",
            {"url": BASE, "headers": {"Authorization": f"Bearer {INVITE}"}},
            {"status": 200, "body": GROUP}),
        _op("patch", "/{slug}", "Rate only the games checked move by move",
            {"url": BASE, "headers": {**AS_ADMIN, **JSON}, "body": {"checked_only": True}},
            {"status": 200, "body": {**GROUP, "checked_only": True}}),
        _op("post", "/{slug}/members", "Chloé joins, with the names she writes",
            {"url": f"{BASE}/members", "headers": {**AS_ADMIN, **JSON},
             "body": {"name": "Chloé", "aliases": ["Chlo"]}},
            {"status": 201, "body": {"id": 3, "name": "Chloé", "aliases": ["Chlo", "Chloé"]}}),
        _op("get", "/{slug}/members", "The members",
            {"url": f"{BASE}/members", "headers": AS_ADMIN},
            {"status": 200, "body": {"members": [{"id": 1, "name": "Ana", "aliases": ["Ana"]}]}}),
        _op("patch", "/{slug}/members/{member_id}", "Ana is also 'Nana' in some logs",
            {"url": f"{BASE}/members/1", "headers": {**AS_ADMIN, **JSON},
             "body": {"add_aliases": ["Nana"]}},
            {"status": 200, "body": {"id": 1, "name": "Ana", "aliases": ["Ana", "Nana"]}}),
        _op("post", "/{slug}/games", "Store a battle in the group: its names map by themselves",
            {"url": f"{BASE}/games", "headers": {**AS_ADMIN, **JSON}, "body": {"log": BATTLE}},
            {"status": 201, "body": {"game": ROW, "created": True, "unmapped": []}},
            {GAME: "/game/slug"}),
        _op("put", "/{slug}/games/{ref}/names", "One member at two seats: refused, nothing changed",
            {"url": f"{BASE}/games/{GAME}/names", "headers": {**AS_ADMIN, **JSON},
             "body": {"names": {"Bruno": 1}}},
            {"status": 409, "body": {
                "code": 409, "status": "Conflict",
                "message": "One member cannot sit at two seats of one game.",
                "errors": [{"code": "member-twice", "path": "/names",
                            "message": "One member cannot sit at two seats of one game."}]}}),
        _op("post", "/{slug}/sheets", "A quick play from its score sheet (not checked move by "
            "move)",
            {"url": f"{BASE}/sheets", "headers": {**AS_ADMIN, **JSON},
             "body": {"game": "pop", "mode": "battle", "players": ["Ana", "Bruno"],
                      "played_at": "2026-05-14T20:30:00+02:00",
                      "claimed": {"rounds": [{"scores": {"Ana": 12, "Bruno": 9}},
                                             {"scores": {"Ana": 20, "Bruno": 31}},
                                             {"scores": {"Ana": 8, "Bruno": 15}}],
                                  "winners": ["Ana"]}}},
            {"status": 201, "body": {"game": {
                **ROW, "slug": ELIDED, "title": None, "status": "sheet", "checked": False,
                "played_at": "2026-05-14T18:30:00+00:00", "order_at": "2026-05-14T18:30:00+00:00",
                "share_url": ELIDED}, "created": True, "unmapped": []}}),
        _op("put", "/{slug}/games/{ref}/log", "Attaching a log to a game that has one: refused",
            {"url": f"{BASE}/games/{GAME}/log", "headers": {**AS_ADMIN, **JSON},
             "body": {"log": BATTLE}},
            {"status": 409, "body": {
                "code": 409, "status": "Conflict",
                "message": "This game is not a score sheet: it has its log.",
                "errors": [{"code": "not-a-sheet", "path": "",
                            "message": "This game is not a score sheet: it has its log."}]}}),
        _op("get", "/{slug}/games", "The group's history, oldest first (pull it page by page)",
            {"url": f"{BASE}/games?order=played&limit=100", "headers": AS_ADMIN},
            {"status": 200, "body": {"items": [{**ROW, "seats": SEATS}], "next_cursor": None}}),
        _op("get", "/{slug}/leaderboards", "The leaderboards",
            {"url": f"{BASE}/leaderboards", "headers": AS_ADMIN},
            {"status": 200, "body": {"ratings": {"up_to_date": True, "done": 1, "total": 1},
                                     "boards": [{"board": "pop/battle",
                                                 "standings": [STANDING]}]}}),
        _op("get", "/{slug}/members/{member_id}/stats", "Ana's statistics",
            {"url": f"{BASE}/members/1/stats", "headers": AS_ADMIN},
            {"status": 200, "body": {
                "member": {"id": 1, "name": "Ana", "aliases": ELIDED},
                "stats": [{"game": "pop", "mode": "battle", "games": 1, "complete": 1,
                           "wins": 1, "win_rate": 1.0, "average": 31.0, "best": 31}],
                "ratings": [{**STANDING, "name": "pop/battle"}],
                "head_to_head": [{"member": 2, "name": "Bruno", "games": 1, "ahead": 1,
                                  "behind": 0, "level": 0}],
                "streaks": {"longest_wins": 1, "current": {"won": True, "games": 1}}}}),
        _op("get", "/{slug}/members/{member_id}/ratings", "Ana's rating, game after game",
            {"url": f"{BASE}/members/1/ratings?board=pop/battle", "headers": AS_ADMIN},
            {"status": 200, "body": {"member": 1, "board": "pop/battle", "history": [{
                "game": GAME, "played_at": "2026-05-07T18:30:00+00:00", "rank": 1,
                "mu": 27.63, "sigma": 8.07, "ordinal": 3.42}]}}),
        _op("post", "/{slug}/tokens", "A read token for a spreadsheet",
            {"url": f"{BASE}/tokens", "headers": {**AS_ADMIN, **JSON},
             "body": {"name": "spreadsheet", "scopes": ["read"]}},
            {"status": 201, "body": {"id": 1, "name": "spreadsheet", "scopes": ["read"],
                                     "created_at": "2026-05-08T09:00:00.000000+00:00",
                                     "revoked_at": None, "token": TOKEN}},
            {TOKEN: "/token"}),
        _op("get", "/{slug}/tokens", "The tokens (never their secrets)",
            {"url": f"{BASE}/tokens", "headers": AS_ADMIN},
            {"status": 200, "body": {"tokens": [{"id": 1, "name": "spreadsheet",
                                                 "scopes": ["read"],
                                                 "created_at": "2026-05-08T09:00:00.000000+00:00",
                                                 "revoked_at": None}]}}),
        _op("delete", "/{slug}/tokens/{token_id}", "Revoke it: refused from now on",
            {"url": f"{BASE}/tokens/1", "headers": AS_ADMIN}, {"status": 204, "body": None}),
        _op("delete", "/{slug}/games/{ref}", "Take the game out of the group",
            {"url": f"{BASE}/games/{GAME}", "headers": AS_ADMIN}, {"status": 204, "body": None}),
        *webhook_examples(),
    ]


HOOK = {"id": 1, "url": HOOK_URL, "created_at": "2026-05-08T09:05:00.000000+00:00"}
DELIVERY = {"id": 1, "event_id": "evt_5b0f3c9e2a7d4e61b8c3f0a9d2e7c415", "event": "ping",
            "state": ELIDED, "attempts": ELIDED, "response_code": ELIDED, "last_error": ELIDED,
            "created_at": "2026-05-08T09:06:00.000000+00:00", "last_attempt_at": ELIDED,
            "next_at": ELIDED}


def webhook_examples() -> list[dict[str, Any]]:
    """A receiver of the club's events (on the developer's machine: loopback URLs are allowed
    with POPREPLAY_WEBHOOK_LOOPBACK=on; a real one is https://)."""
    return [
        _op("post", "/{slug}/webhooks", "Post the club's events to a receiver (its secret is "
            "shown once)",
            {"url": f"{BASE}/webhooks", "headers": {**AS_ADMIN, **JSON}, "body": {"url": HOOK_URL}},
            {"status": 201, "body": {**HOOK, "last_delivery": None, "secret": HOOK_SECRET,
                                     "events": ["game.stored", "game.corrected",
                                                "game.signed_off", "game.disputed",
                                                "game.removed", "ping"]}}),
        _op("post", "/{slug}/webhooks/{hook_id}/test", "Send it a test event",
            {"url": f"{BASE}/webhooks/1/test", "headers": {**AS_ADMIN, **JSON}, "body": {}},
            {"status": 202, "body": DELIVERY}),
        _op("get", "/{slug}/webhooks", "The webhooks (never their secrets)",
            {"url": f"{BASE}/webhooks", "headers": AS_ADMIN},
            {"status": 200, "body": {"webhooks": [{**HOOK, "last_delivery": ELIDED}]}}),
        _op("get", "/{slug}/webhooks/{hook_id}/deliveries", "Its delivery log, newest first",
            {"url": f"{BASE}/webhooks/1/deliveries", "headers": AS_ADMIN},
            {"status": 200, "body": {"deliveries": [DELIVERY]}}),
        _op("delete", "/{slug}/webhooks/{hook_id}", "Delete it",
            {"url": f"{BASE}/webhooks/1", "headers": AS_ADMIN}, {"status": 204, "body": None}),
    ]

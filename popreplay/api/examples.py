"""One example request and its answer per API operation: what ``/api/v1/docs`` shows.

They are attached to the OpenAPI document (``x-example`` on each operation, by ``docs.attach``)
and replayed in this order, on one empty database, by ``tests/api/test_docs_page.py``, which checks
that each answer has the example's status and shape: keep them true when the API changes.

Stand-ins: ``tyvE8nglwOIz`` and its owner token are the game the first example stores; a test run
gets other values and puts them in their place. ``{origin}`` is the service's address
(``POPREPLAY_PUBLIC_URL``, else the address the request came to). ``"…"`` in an answer stands for a
part left out of the page (any value); a list may show fewer items than the real answer.
"""

from __future__ import annotations

import copy
from typing import Any

from ..engine import ENGINE_VERSION

SLUG = "tyvE8nglwOIz"
TOKEN = "MtQ2r0cNlq3HvVb9xYk1TzW8aD5uEoG7jPfS4iLhC6e"
DRAFT_SLUG = "Qm3kVz8RrT1p"
DRAFT_TOKEN = "b7XcP2nLwq9EaYt5KdU0sRfJ3hGmZ8vNo1yTiC4xB6k"
# a table (docs/table.md): its id, host token, join key and Ana's seat token
TABLE = "tB7qLm2xRk9w"
HOST = "hT4pW9cVx2mQa7LrN0sKe5YdJ8uFb3GzH6iOt1vCw4E"
JOIN = "jK2vR8nXq5LmW1pTa9ZcE4sHd7YbU0fGo3iNk6xMr2Q"
SEAT = "sA9dF3kLq7WzX1cVb5NmT8rYe2UhJ4gPo6iKt0xEw3R"
STAND_INS = (SLUG, TOKEN, DRAFT_SLUG, DRAFT_TOKEN, TABLE, HOST, JOIN, SEAT)
ORIGIN = "{origin}"
ELIDED = "…"

SHA256 = "15b479c1dd1de8c90eaf9210f3d8bcd832e4bc3bb2e63bca1a4e95dc5b91bae7"

PUZZLE: dict[str, Any] = {
    "format": "popreplay/1", "game": "pop", "mode": "puzzle", "players": ["Solo"],
    "meta": {"title": "Example puzzle: the domino chain", "source": "handmade"},
    "rounds": [{"layout": [[38, None, None, None, None], [21, 32, 43, 34, None]],
                "turns": [{"plays": {"Solo": [1, 8, 42, 48, 49]}}]}],
    "claimed": {"solved": True},
}

# the draft GET /record/cut answers for step 2 of PUZZLE: its first turn not played yet
DRAFT: dict[str, Any] = {
    "format": "popreplay/1", "game": "pop", "mode": "puzzle", "players": ["Solo"],
    "meta": {"title": "What if: Example puzzle: the domino chain, from step 2",
             "source": "handmade"},
    "rounds": [{"layout": [[38, None, None, None, None], [21, 32, 43, 34, None]], "turns": []}],
}

DRAFT_PLAYED = copy.deepcopy(DRAFT)
DRAFT_PLAYED["rounds"][0]["turns"] = [{"plays": {"Solo": [1, 8, 42, 49, 48]}}]

OUTCOME = {"solved": True, "cards_left_in_play": 0, "layout_cards_left": 0}
RESULT = {"game": "pop", "mode": "puzzle", "engine": ENGINE_VERSION, "status": "complete", "legal": True,
          "errors": [], "outcome": OUTCOME, "claims": {"match": True, "differences": []}}


def _links(slug: str) -> dict[str, str]:
    api = f"{ORIGIN}/api/v1/games/{slug}"
    return {"self": api, "log": f"{api}/log", "replay": f"{api}/replay",
            "share": f"{ORIGIN}/r/{slug}"}


GAME = {
    "id": 1, "slug": SLUG, "share_url": f"{ORIGIN}/r/{SLUG}", "game": "pop", "mode": "puzzle",
    "players": ["Solo"], "title": "Example puzzle: the domino chain", "played_at": None,
    "created_at": "2026-05-01T10:00:00.000000+00:00",
    "stored_at": "2026-05-01T10:00:00.000000+00:00",
    "updated_at": "2026-05-01T10:00:00.000000+00:00", "visibility": "public",
    "status": "complete", "legal": True, "claims_match": True, "engine": ENGINE_VERSION,
    "sha256": SHA256, "result": RESULT, "links": _links(SLUG),
    "signoff": None, "corrections": [],  # recorded at a table: docs/table.md "Sign-off"
}

DRAFT_GAME = {
    **GAME, "id": 2, "slug": DRAFT_SLUG, "share_url": f"{ORIGIN}/r/{DRAFT_SLUG}",
    "title": DRAFT["meta"]["title"], "visibility": "unlisted", "status": "incomplete",
    "claims_match": None, "sha256": ELIDED,
    "result": {**RESULT, "status": "incomplete", "outcome": ELIDED, "claims": None},
    "links": _links(DRAFT_SLUG),
}

STEP = {"index": 0, "kind": "deal", "round": 1, "turn": None,
        "note": "Round 1: 5 starting cards in 2 rows.", "note_id": "pop.note.deal",
        "note_params": {"round": 1, "cards": 5, "rows": 2, "hands": ""},
        "data": ELIDED, "state": ELIDED}


def _op(method: str, path: str, title: str, request: dict[str, Any],
        response: dict[str, Any]) -> dict[str, Any]:
    return {"method": method, "path": path, "title": title,
            "request": {"method": method.upper(), "headers": {}, **request},
            "response": {"content_type": "application/json", **response}}


BEARER = {"Authorization": f"Bearer {TOKEN}"}
DRAFT_BEARER = {"Authorization": f"Bearer {DRAFT_TOKEN}"}
JSON = {"Content-Type": "application/json"}

TABLE_START = {"format": "popreplay/1", "game": "pop", "mode": "battle",
               "players": ["Ana", "Bruno", "Chloé"], "rounds": []}
TABLE_VIEW = {"table": TABLE, "seq": 0, "status": "live", "stored": None, "game": "pop",
              "mode": "battle", "players": ["Ana", "Bruno", "Chloé"], "hands_recorded": True,
              "seats": ELIDED, "you": ELIDED, "keeper": ELIDED, "shared_by": "keeper",
              "log": TABLE_START, "result": ELIDED,
              "over": False, "error": None, "hand": None, "gathering": ELIDED, "refused": None,
              "corrections": [], "choices": None, "private": False}
LAYOUT = [5, 1, 19, 31, 17]


def _tables() -> list[dict[str, Any]]:
    api = f"/api/v1/tables/{TABLE}"
    return [
        _op("post", "/api/v1/tables", "Start a table (the recorder's 'Record together')",
            {"url": "/api/v1/tables", "headers": JSON,
             "body": {"log": TABLE_START, "record_hands": True}},
            {"status": 201, "body": {"table": TABLE, "host_token": HOST, "join_key": JOIN,
                                     "join_url": f"{ORIGIN}/t/{TABLE}#key={JOIN}",
                                     "qr_svg": ELIDED, "view": TABLE_VIEW}}),
        _op("post", "/api/v1/tables/{table_id}/seats", "Ana's phone takes her seat",
            {"url": f"{api}/seats", "headers": {"Authorization": f"Bearer {JOIN}", **JSON},
             "body": {"player": "Ana"}},
            {"status": 201, "body": {"player": "Ana", "seat_token": SEAT, "seat_url": ELIDED,
                                     "view": {**TABLE_VIEW, "hand": None}}}),
        _op("post", "/api/v1/tables/{table_id}/keeper",
            "The host names Ana's seat keeper of the layout and the Chief's cards",
            {"url": f"{api}/keeper", "headers": {"Authorization": f"Bearer {HOST}", **JSON},
             "body": {"player": "Ana"}},
            {"status": 200, "body": {"player": "Ana"}}),
        _op("get", "/api/v1/tables/{table_id}", "The table as a spectator sees it",
            {"url": api, "headers": {"Authorization": f"Bearer {JOIN}"}},
            {"status": 200, "body": TABLE_VIEW}),
        _op("post", "/api/v1/tables/{table_id}/entries", "The host enters the layout (a part)",
            {"url": f"{api}/entries", "headers": {"Authorization": f"Bearer {HOST}", **JSON},
             "body": {"id": "host-1", "seen": 0,
                      "entry": {"type": "part", "entry": "round", "slots": {"0": LAYOUT}}}},
            {"status": 201, "body": {"status": "appended", "seqs": [1],
                                     "view": {**TABLE_VIEW, "seq": 1}}}),
        _op("get", "/api/v1/tables/{table_id}/entries", "The entries, as Ana may see them",
            {"url": f"{api}/entries?after=0", "headers": {"Authorization": f"Bearer {SEAT}"}},
            {"status": 200, "body": {"entries": [{"seq": 1, "id": "host-1", "by": None,
                                                  "kind": "part", "entry": "round",
                                                  "slots": [0]}]}}),
        _op("get", "/api/v1/tables/{table_id}/stream", "What there is now, as an event stream",
            {"url": f"{api}/stream?wait=0", "headers": {"Authorization": f"Bearer {JOIN}"}},
            {"status": 200, "content_type": "text/event-stream",
             "text": "retry: 2000\n\nid: 1\nevent: snapshot\ndata: {…}\n\n"}),
        _op("get", "/api/v1/tables/{table_id}/qr.svg", "The join link's QR code",
            {"url": f"{api}/qr.svg", "headers": {"Authorization": f"Bearer {JOIN}"}},
            {"status": 200, "content_type": "image/svg+xml", "text": "<svg"}),
        _op("get", "/api/v1/tables/{table_id}/log", "The whole draft, for the host",
            {"url": f"{api}/log", "headers": {"Authorization": f"Bearer {HOST}"}},
            {"status": 200, "body": {"log": TABLE_START}}),
        _op("post", "/api/v1/tables/{table_id}/store",
            "Storing before the first round is whole: nothing is stored",
            {"url": f"{api}/store", "headers": {"Authorization": f"Bearer {HOST}", **JSON},
             "body": {"visibility": "unlisted"}},
            {"status": 422, "body": {
                "code": 422, "status": "Unprocessable Entity",
                "message": "The draft is not a valid log yet: nothing was stored.",
                "errors": [{"code": "schema", "message": "a log has at least one round",
                            "round": None, "turn": None, "path": "/log/rounds",
                            "message_id": None, "params": None}]}}),
        _op("get", "/api/v1/tables/{table_id}/corrections",
            "The corrections so far and what Ana may correct",
            {"url": f"{api}/corrections", "headers": {"Authorization": f"Bearer {SEAT}"}},
            {"status": 200, "body": {"corrections": [], "correctable": []}}),
        _op("post", "/api/v1/tables/{table_id}/corrections",
            "A correction of a part: only a whole entry is corrected",
            {"url": f"{api}/corrections", "headers": {"Authorization": f"Bearer {SEAT}", **JSON},
             "body": {"id": "ana-fix-1", "seen": 1, "seq": 1, "set": {"/layout/0": LAYOUT}}},
            {"status": 422, "body": {
                "code": 422, "status": "Unprocessable Entity",
                "message": "Entry 1 is no entry of this table that put something in the draft.",
                "errors": [{"code": "bad-request", "message": "seq", "path": "/seq",
                            "message_id": None, "params": None}]}}),
        _op("get", "/api/v1/tables/{table_id}/signoff",
            "The result beside Ana's score sheet (sign-off opens at the end)",
            {"url": f"{api}/signoff", "headers": {"Authorization": f"Bearer {SEAT}"}},
            {"status": 200, "body": {
                "open": False, "result": ELIDED, "step_max": 0, "claimable": ELIDED,
                "claims": None, "yours": None, "replay_url": None,
                "signoff": {"table": TABLE, "players": 3, "confirmed": 0, "confirmed_by": [],
                            "disputes": [], "waiting": ["Ana", "Bruno", "Chloé"],
                            "text": "confirmed by 0 of 3"}}}),
        _op("post", "/api/v1/tables/{table_id}/signoff",
            "Ana confirms before the game is over: not yet",
            {"url": f"{api}/signoff", "headers": {"Authorization": f"Bearer {SEAT}", **JSON},
             "body": {"verdict": "confirm"}},
            {"status": 409, "body": {
                "code": 409, "status": "Conflict",
                "message": "The game is not over yet: sign-off comes at the end.",
                "errors": []}}),
    ]


EXAMPLES: list[dict[str, Any]] = [
    _op("post", "/api/v1/games", "Store a puzzle",
        {"url": "/api/v1/games", "headers": JSON, "body": PUZZLE},
        {"status": 201, "body": {**GAME, "owner_token": TOKEN}}),
    _op("get", "/api/v1/games", "The newest public POP! game",
        {"url": "/api/v1/games?game=pop&sort=-created&limit=1"},
        {"status": 200, "body": {"items": [GAME], "next_cursor": None, "has_more": False}}),
    _op("get", "/api/v1/games/export", "Every public puzzle, one JSON object per line",
        {"url": "/api/v1/games/export?mode=puzzle"},
        {"status": 200, "content_type": "application/x-ndjson", "lines": [{
            "id": 1, "slug": SLUG, "visibility": "public",
            "created_at": GAME["created_at"], "played_at": None, "game": "pop",
            "mode": "puzzle", "players": ["Solo"], "title": GAME["title"],
            "status": "complete", "legal": True, "engine": ENGINE_VERSION, "sha256": SHA256,
            "result": {"status": "complete", "legal": True, "engine": ENGINE_VERSION,
                       "winners": ["Solo"], "players": [{"name": "Solo", "score": None,
                                                         "rank": None, "won": True}],
                       "claims_differ": ELIDED, "outcome": ELIDED},
            "log": ELIDED,
            "raw_log": '{"format": "popreplay/1", "game": "pop", "mode": "puzzle", …}',
            "stored_at": GAME["created_at"], "updated_at": GAME["created_at"]}]}),
    _op("get", "/api/v1/games/export.csv", "Every public game since a date, as a table",
        {"url": "/api/v1/games/export.csv?since=2026-05-01T00:00:00Z"},
        {"status": 200, "content_type": "text/csv", "text": (
            "game,mode,date,title,player,score,rank,won,status,legal,claims_differ,share_link,"
            "slug\r\n"
            f"pop,puzzle,,Example puzzle: the domino chain,Solo,,,true,complete,true,false,"
            f"{ORIGIN}/r/{SLUG},{SLUG}\r\n")}),
    _op("get", "/api/v1/games/{ref}", "One game by its slug",
        {"url": f"/api/v1/games/{SLUG}"}, {"status": 200, "body": GAME}),
    _op("get", "/api/v1/games/{ref}/log", "The log as uploaded",
        {"url": f"/api/v1/games/{SLUG}/log"}, {"status": 200, "body": PUZZLE}),
    _op("get", "/api/v1/games/{ref}/replay", "The annotated replay (first step shown)",
        {"url": f"/api/v1/games/{SLUG}/replay"},
        {"status": 200, "body": {"replay_format": 2, **RESULT, "steps": [STEP]}}),
    _op("post", "/api/v1/validate", "Check a log without storing it",
        {"url": "/api/v1/validate", "headers": JSON, "body": PUZZLE},
        {"status": 200, "body": RESULT}),
    _op("get", "/api/v1/players/{name}", "A player's statistics",
        {"url": "/api/v1/players/Solo"},
        {"status": 200, "body": {
            "name": "Solo",
            "stats": [{"game": "pop", "mode": "puzzle", "games": 1, "complete": 1, "wins": 1,
                       "average": None, "best": None}],
            "games": [{"id": 1, "slug": SLUG, "game": "pop", "mode": "puzzle",
                       "title": GAME["title"], "played_at": None,
                       "created_at": GAME["created_at"], "status": "complete", "score": None,
                       "won": True}]}}),
    _op("get", "/api/v1/healthz", "Is the process up?",
        {"url": "/api/v1/healthz"}, {"status": 200, "body": {"status": "ok", "engine": ENGINE_VERSION}}),
    _op("get", "/api/v1/readyz", "Does the database answer?",
        {"url": "/api/v1/readyz"}, {"status": 200, "body": {"ready": True, "database": "ok"}}),
    _op("post", "/api/v1/record/check", "What may come next in a draft",
        {"url": "/api/v1/record/check", "headers": JSON,
         "body": {"log": DRAFT, "pending": None, "steps": "none"}},
        {"status": 200, "body": {"result": None, "steps": [], "choices": {
            "over": False, "round": 1, "turns": 0, "seen": [21, 32, 34, 38, 43],
            "hands": None, "next": ELIDED}}}),
    _op("get", "/api/v1/record/cut", "A what-if draft from step 2",
        {"url": f"/api/v1/record/cut?from={SLUG}&step=2"},
        {"status": 200, "body": {"log": DRAFT, "branch_of": {"slug": SLUG, "step": 2}}}),
    _op("post", "/api/v1/record/games", "Store the what-if draft as a branch",
        {"url": "/api/v1/record/games", "headers": JSON,
         "body": {"log": DRAFT, "branch_of": {"slug": SLUG, "step": 2}, "visibility": None}},
        {"status": 201, "body": {**DRAFT_GAME, "owner_token": DRAFT_TOKEN}}),
    _op("get", "/api/v1/record/games/{ref}", "Open the saved draft",
        {"url": f"/api/v1/record/games/{DRAFT_SLUG}", "headers": DRAFT_BEARER},
        {"status": 200, "body": {"game": {**DRAFT_GAME,  # this answer's dates are HTTP dates
                                          "created_at": "Fri, 01 May 2026 10:05:00 GMT"},
                                 "log": DRAFT,
                                 "branch_of": {"slug": SLUG, "step": 2, "title": GAME["title"],
                                               "share_url": f"{ORIGIN}/r/{SLUG}"}}}),
    _op("put", "/api/v1/record/games/{ref}", "Replace the draft's log",
        {"url": f"/api/v1/record/games/{DRAFT_SLUG}", "headers": {**DRAFT_BEARER, **JSON},
         "body": {"log": DRAFT_PLAYED}},
        {"status": 200, "body": {**DRAFT_GAME, "status": "complete", "result": {
            **RESULT, "outcome": ELIDED, "claims": None}}}),
    _op("get", "/api/v1/record/branches/{ref}", "The branches stored from a game (its owner "
        "sees the unlisted ones too)",
        {"url": f"/api/v1/record/branches/{SLUG}", "headers": BEARER},
        {"status": 200, "body": {"branch_of": None, "branches": [{
            "slug": DRAFT_SLUG, "step": 2, "title": DRAFT["meta"]["title"],
            "status": "complete", "share_url": f"{ORIGIN}/r/{DRAFT_SLUG}"}]}}),
    _op("delete", "/api/v1/games/{ref}", "Delete a game with its owner token",
        {"url": f"/api/v1/games/{SLUG}", "headers": BEARER}, {"status": 204, "body": None}),
] + _tables()

from .group_examples import group_examples  # noqa: E402  (its stand-ins: group_examples.py)

EXAMPLES += group_examples()

"""The service's one way to store, find and replay games (the API, the command line, the pages,
the queue's workers and the tables use it), split by use case:

* :mod:`~popreplay.store.tokens`: what identifies a game (``content_hash`` of its bytes,
  ``canonical_hash`` of its content), share slugs and owner tokens.
* :mod:`~popreplay.store.records`: a log parsed and checked like an upload (``InvalidLog``), the
  columns of a game's row read from its log, its result copied onto the row and seats.
* :mod:`~popreplay.store.lookups`: finding games (slug, hash, number, URL reference), the newest
  public ones, the recorder's known players, a game's branches; ``stored_game`` is the duplicate
  check by bytes or content.
* :mod:`~popreplay.store.ingestion`: storing a new game, an upload (``ingest``) or an export line
  (``restore``), both through one duplicate check and one transaction.
* :mod:`~popreplay.store.edits`: a draft's new log (``update_log``), a branch's link, a deletion
  (with its tombstone).
* :mod:`~popreplay.store.replays`: a game's replay, computed once per log and engine version,
  stored, and kept in a per-process :class:`~popreplay.caching.BoundedCache`; ``save_replay``
  stores one only if it is still the replay of the game's log (``of=`` its content hash).
* :mod:`~popreplay.store.revalidation`: recomputing stored results with the running engine.
* :mod:`~popreplay.store.export`: the NDJSON and CSV exports and applying an export line.
* :mod:`~popreplay.store.imports`: one item of ``popreplay import`` (the command line and the
  queue's chunks).

Results come only from :func:`popreplay.checking.check_text`; nothing here knows a game's rules,
and nothing here imports the HTTP layer (``popreplay.api``; a test checks it). The log is stored
byte for byte as uploaded; the same game sent again (other whitespace, key order, escapes or
Unicode normalisation) is the game already stored. Public functions take the session and the game
(or log) they act on, and everything else by keyword.

New code imports from the modules above; the names below stay importable from
``popreplay.store`` for the callers written before the split.
"""

from __future__ import annotations

from ..db.models import VISIBILITIES
from ..db.session import get_session
from .edits import LogTaken, delete_game, link_branch, update_log
from .export import export_entry, is_export_entry
from .ingestion import Ingested, ingest, restore
from .lookups import (branch_source, branches_of, find_by_canonical_hash, find_by_hash, find_by_id,
                      find_by_ref, find_by_slug, known_players, recent_public)
from .records import InvalidLog, apply_result, parse_datetime, played_at_text
from .replays import (RETRY_PENDING_SECONDS, ReplayPending, StoredBytes, drop_stale_replays,
                      encode_replay, replay_etag, replay_gzip, replay_stored, replay_text)
from .revalidation import Revalidated, revalidate
from .tokens import (canonical_hash, content_hash, new_owner_token, new_slug, owner_token_matches,
                     token_hash)

__all__ = [
    "RETRY_PENDING_SECONDS", "VISIBILITIES", "Ingested", "InvalidLog", "LogTaken",
    "ReplayPending", "Revalidated", "StoredBytes", "apply_result", "branch_source", "branches_of",
    "canonical_hash", "content_hash", "delete_game", "drop_stale_replays", "encode_replay",
    "export_entry", "find_by_canonical_hash", "find_by_hash", "find_by_id", "find_by_ref",
    "find_by_slug", "get_session", "ingest", "is_export_entry", "known_players", "link_branch",
    "new_owner_token", "new_slug", "owner_token_matches", "parse_datetime", "played_at_text",
    "recent_public", "replay_etag", "replay_gzip", "replay_stored", "replay_text", "restore",
    "revalidate", "token_hash", "update_log",
]

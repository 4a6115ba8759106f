"""Corrections of a table's earlier entries (docs/table.md "Corrections").

The entry list stays append-only: a correction is an entry of its own (kind ``correct``, its own
sequence number) that holds, for each entry it corrects, the old and the new body and each change
(``{path, old, new}``, ``path`` a JSON Pointer into the entry's value). A table's state replays
every entry with its corrected body (:func:`bodies`, from the start: a correction always rebuilds
the state), so everything after the corrected entry is checked again by the engine.

A seat may correct what it entered: an entry it placed itself, or its own slots of an entry the
seats filled together (a POP! turn: its revealed card); the host any entry. A correction that
makes a later entry illegal is refused (422, nothing appended; the error carries ``log``, the
corrected draft, and ``seq``) with that entry
named, unless the same request carries a fix of it (``fixes``). No rule here: the engine's
``choices`` judge the corrected draft.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any, Iterable, Mapping, Sequence, cast

from sqlalchemy.orm import Session

from ..db.tables import TableEntry, TableRecord
from . import games
from .places import PlaceError, place_into, put, tokens
from .rows import Row, Snapshot, engine_choices, entries, plain
from .shapes import (ChangeShown, Correctable, CorrectableField, Correction, EntryCorrection,
                     StoredChange, StoredCorrected)

KIND = "correct"
MAX_CHANGES = 20  # pointers a correction may set, fixes included
MAX_INDEX = 1000  # a list index in a pointer (a pointer never makes a list longer than that)

Entry = TableEntry | Row  # an entry as read from the database, or as plain values


def bodies(rows: Iterable[Entry]) -> dict[int, dict[str, Any]]:
    """The corrected body of every corrected entry (seq -> body; a later correction wins)."""
    out: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row.kind == KIND:
            for item in row.body.get("entries") or []:
                out[int(item["seq"])] = item["new"]
    return out


def target_pointer(body: Mapping[str, Any]) -> str:
    """Where an entry's value lies in the draft (``at`` itself, or the item it appended)."""
    if body.get("how") == "append" and body.get("index") is not None:
        return f"{body['at']}/{body['index']}"
    return str(body["at"])


def _get(node: Any, path: str) -> tuple[bool, Any]:
    try:
        for token in tokens(path):
            node = node[int(token)] if isinstance(node, list) else node[token]
    except (LookupError, ValueError, TypeError, PlaceError):
        return False, None
    return True, node


def may_change(row: Entry, body: Mapping[str, Any], path: str, *, player: str | None,
               host: bool) -> bool:
    """May this phone change ``path`` of this entry? The host: any; a seat: an entry it placed
    itself, or the slots of a shared entry that are its own (its player's, or filled by it)."""
    if host:
        return True
    if player is None:
        return False
    if row.by == player:
        return True
    for slot in body.get("slots") or []:
        mine = slot.get("player") == player or (slot.get("player") is None
                                                 and slot.get("by") == player)
        if mine and (path == slot["path"] or path.startswith(slot["path"] + "/")):
            return True
    return False


def decide(session: Session, table: TableRecord, viewer: Any, entry: Mapping[str, Any],
           *, error: type, wait: float | None = None, state: Any = None) -> list[tuple]:
    """The row of a correction ``{"type": "correct", "seq", "set": {pointer: value}, "fixes":
    [{"seq", "set"}]}``, checked by the engine beside the request within ``wait`` seconds (the
    engine's budget, popreplay/budget.py: ``budget.Busy`` past it); raises ``error``
    (``service.TableError``).

    Its cost is bounded as an accepted correction's (the rebuild of the state from the start):
    one replay of the rows placed into one draft (no copy per row), one ``choices`` of the
    corrected draft and, only when the rule's pointer names no entry, a halving search of the
    later entries (``log2`` of them ``choices``). The same refused request on the same table
    (a phone sending it again) is answered from the decision kept (``state``: its sequence)."""
    from .. import budget

    rows = [Row.of(row) for row in entries(session, table.id)]
    digest = hashlib.sha256(json.dumps(entry, sort_keys=True, default=str).encode()).hexdigest()
    key = None if state is None else ("table-correct", table.id, state.seq, viewer.role,
                                      viewer.player, viewer.host, digest)
    answer = budget.run(key, _decided_bytes, Snapshot.of(table), rows, viewer, entry, wait=wait)
    made = json.loads(answer)
    if "refused" in made:
        refused = made["refused"]
        failed = error(refused["status"], refused["message"], refused["errors"])
        failed.log, failed.seq = refused.get("log"), refused.get("seq")
        raise failed
    return [tuple(row) for row in made["rows"]]


class _Refusal(Exception):
    def __init__(self, status: int, message: str, errors: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.status, self.message, self.errors = status, message, errors or []
        self.log: dict[str, Any] | None = None
        self.seq: int | None = None


def _decided_bytes(table: Any, rows: list[Row], viewer: Any, entry: Mapping[str, Any]) -> bytes:
    """The decision as bytes (kept by the budget for its key): the rows, or the refusal."""
    try:
        answer: dict[str, Any] = {"rows": _decide(table, rows, viewer, entry, _Refusal)}
    except _Refusal as refused:
        answer = {"refused": {"status": refused.status, "message": refused.message,
                              "errors": refused.errors, "log": refused.log,
                              "seq": refused.seq}}
    return json.dumps(answer, ensure_ascii=True, separators=(",", ":"), default=str).encode()


def _decide(table: Any, rows: list[Row], viewer: Any, entry: Mapping[str, Any],
            error: type) -> list[tuple]:
    by_seq = {row.seq: row for row in rows}
    current = bodies(rows)
    if not isinstance(entry.get("fixes") or [], list):
        raise error(422, "`fixes` is a list of {seq, set}.", [
            {"code": "bad-request", "message": "fixes", "path": "/entry/fixes"}])
    asked = [{"seq": entry.get("seq"), "set": entry.get("set")}] + list(entry.get("fixes") or [])
    changed: dict[int, dict[str, Any]] = {}
    items: list[StoredCorrected] = []
    count = 0
    for k, ask in enumerate(asked):
        where = "/entry" if k == 0 else f"/entry/fixes/{k - 1}"
        seq, sets = ask.get("seq") if isinstance(ask, Mapping) else None, (
            ask.get("set") if isinstance(ask, Mapping) else None)
        row = by_seq.get(seq) if isinstance(seq, int) and not isinstance(seq, bool) else None
        if row is None or row.kind != "place" or not isinstance(seq, int):
            raise error(422, f"Entry {seq!r} is no entry of this table that put something in "
                             "the draft.", [{"code": "bad-request", "message": "seq",
                                             "path": f"{where}/seq"}])
        if seq in changed:
            raise error(422, f"Entry {seq} is corrected twice in one request.", [
                {"code": "bad-request", "message": "seq", "path": f"{where}/seq"}])
        if not isinstance(sets, dict) or not sets:
            raise error(422, "A correction sets values: {\"set\": {\"<pointer>\": value}}.", [
                {"code": "bad-request", "message": "set", "path": f"{where}/set"}])
        count += len(sets)
        if count > MAX_CHANGES:
            raise error(422, f"A correction changes at most {MAX_CHANGES} values.", [
                {"code": "bad-request", "message": "set", "path": f"{where}/set"}])
        old = current.get(seq, row.body)
        value = copy.deepcopy(old["value"])
        changes: list[StoredChange] = []
        for path, new in sets.items():
            if not isinstance(path, str) or not path.startswith("/") or any(
                    t.isdigit() and int(t) > MAX_INDEX for t in path.split("/")):
                raise error(422, f"{path!r} is not a JSON Pointer into the entry.", [
                    {"code": "bad-request", "message": "pointer", "path": f"{where}/set"}])
            if not may_change(row, old, path, player=viewer.player, host=viewer.host):
                raise error(403, f"Entry {seq} at {path} is another seat's: only that seat or "
                                 "the host may correct it.", [
                                     {"code": "forbidden", "message": "seat",
                                      "path": f"{where}/set"}])
            _, was = _get(value, path)
            try:
                put(value, path, copy.deepcopy(new))
            except (PlaceError, ValueError, TypeError, AttributeError):
                raise error(422, f"No place {path} in entry {seq}.", [
                    {"code": "bad-request", "message": "pointer", "path": f"{where}/set"}]) \
                    from None
            changes.append({"path": path, "old": was, "new": new})
        changed[seq] = {**old, "value": value}
        items.append({"seq": seq, "old": old, "new": changed[seq], "changes": changes})
    _check(table, rows, {**current, **changed}, changed, error=error, viewer=viewer)
    who = viewer.player if viewer.player is not None else "host"
    return [(KIND, viewer.player, {"who": who, "entries": items})]


def replayed(table: TableRecord, rows: Sequence[Entry], corrected: Mapping[int, Any]
             ) -> tuple[dict[str, Any], list[tuple[Entry, dict[str, Any]]]]:
    """The draft with every entry's corrected body, and the place rows with their bodies."""
    log = copy.deepcopy(table.start["log"])
    placed = []
    for row in rows:
        if row.kind != "place":
            continue
        body = corrected.get(row.seq, row.body)
        place_into(log, body["at"], body["how"], body["value"])  # one draft, no copy per row
        placed.append((row, body))
    return log, placed


def _check(table: TableRecord, rows: Sequence[Entry], corrected: Mapping[int, Any],
           changed: Mapping[int, Any], *, error: type, viewer: Any = None) -> None:
    """Refuse the correction when the corrected draft, as ``viewer`` may know it
    (``games.known_to``), is illegal: the refusal tells the phone only what it knows. A
    correction that clashes only with a card the phone cannot see is taken (docs/table.md, "What
    a refusal says")."""
    try:
        log, placed = replayed(table, rows, corrected)
    except PlaceError as bad:
        raise error(422, f"The corrected draft has no place for a later entry: {bad}.", [
            {"code": "bad-request", "message": str(bad), "path": "/entry/set"}]) from None
    choices = engine_choices(table.game, log)
    problem = choices.get("error")
    if problem and viewer is not None:
        known = games.known_to(table.game, log, choices, player=viewer.player,
                               host=viewer.host)
        if known is not log:
            log = known
            problem = engine_choices(table.game, known).get("error")
    if not problem:
        return
    culprit = _culprit(problem, placed)
    if culprit is None:  # the rule's pointer names no entry: replay entry by entry
        culprit = _first_illegal(table, placed, min(changed))
    rule = plain(problem)
    if culprit is None or culprit[0].seq in changed:
        raise _refused(error, "Refused by the rules.", [rule], log, culprit)
    row, body = culprit
    raise _refused(error, f"This correction makes entry {row.seq} illegal: send a fix of entry "
                          f"{row.seq} with it (`fixes`).",
                   [{**rule, "seq": row.seq, "entry": target_pointer(body)}], log, culprit)


def _refused(error: type, message: str, errors: list[dict[str, Any]], log: dict[str, Any],
             culprit: tuple[Entry, dict[str, Any]] | None) -> Exception:
    made = error(422, message, errors)
    made.log = log  # the corrected draft: where the refusal is, in words (the API)
    made.seq = culprit[0].seq if culprit is not None else None
    return made


def _culprit(problem: Mapping[str, Any], placed: list[tuple[Entry, dict[str, Any]]]
             ) -> tuple[Entry, dict[str, Any]] | None:
    """The place entry whose value holds the rule's pointer (the longest match)."""
    path = str(problem.get("path") or "")
    best, length = None, -1
    for row, body in placed:
        at = target_pointer(body)
        if (path == at or path.startswith(at + "/")) and len(at) > length:
            best, length = (row, body), len(at)
    return best


def _first_illegal(table: TableRecord, placed: list[tuple[Entry, dict[str, Any]]],
                   first: int) -> tuple[Entry, dict[str, Any]] | None:
    """The first entry from ``first`` on whose draft the engine refuses: a halving search (a
    draft the engine refuses stays refused as entries are added after it), ``log2`` of the later
    entries ``choices``, each of a draft placed into from the start (no copy per row)."""
    later = [k for k, (row, _) in enumerate(placed) if row.seq >= first]

    def illegal(upto: int) -> bool:
        log = copy.deepcopy(table.start["log"])
        for _, body in placed[:upto + 1]:
            place_into(log, body["at"], body["how"], body["value"])
        return bool(engine_choices(table.game, log).get("error"))

    low, high, found = 0, len(later) - 1, None
    while low <= high:
        middle = (low + high) // 2
        if illegal(later[middle]):
            found, high = later[middle], middle - 1
        else:
            low = middle + 1
    return None if found is None else placed[found]


# --- shown: the table view, the stream, the stored game --------------------------------------------

def history(rows: Iterable[Entry]) -> list[Correction]:
    """Every correction, in order: who, when, and each change (the entry, where, old → new)."""
    out: list[Correction] = []
    for row in rows:
        if row.kind != KIND:
            continue
        for item in row.body.get("entries") or []:
            at = target_pointer(item["new"])
            out.append({"seq": row.seq, "who": row.body.get("who") or row.by or "host",
                        "at": row.created_at.isoformat() if row.created_at else None,
                        "entry": item["seq"],
                        "changes": [{"path": c["path"], "pointer": at + c["path"],
                                     "old": c["old"], "new": c["new"]}
                                    for c in item["changes"]]})
    return out


def shown(items: Sequence[Correction], known: Mapping[str, Any], *, player: str | None
          ) -> list[Correction]:
    """The corrections as this phone may see them, from ``known``, the draft as it may know it
    (``views.known_log``): a change shows its old and new value where that draft shows the value
    (a card laid, played, shown; a closed round), and to the seat that made it; elsewhere (a hand
    of a round still played, another seat's dealt, drawn or looked-at card) it is "a hidden
    card", to every other seat and the spectator."""
    return [{**item, "changes": _shown_changes(item["changes"], known,
                                               mine=player is not None and item["who"] == player)}
            for item in items]


def _shown_changes(changes: Iterable[ChangeShown], known: Mapping[str, Any], *, mine: bool
                   ) -> list[ChangeShown]:
    out: list[ChangeShown] = []
    for change in changes:
        found, now = _get(known, change["pointer"])
        if (found and now == change["new"]) or mine:
            out.append(change)
        else:
            out.append({**change, "old": None, "new": None, "hidden": True})
    return out


def entry_view(row: Entry, known: Mapping[str, Any], *, player: str | None
               ) -> EntryCorrection:
    """A correction as an entry of the list and the stream (:func:`shown`)."""
    who: str | None = row.body.get("who")
    changes = [cast(ChangeShown, {"entry": e["seq"], **c,
                                  "pointer": target_pointer(e["new"]) + c["path"]})
               for e in row.body.get("entries") or [] for c in e["changes"]]
    mine = player is not None and who == player
    return {"who": who, "entries": sorted({e["seq"] for e in row.body.get("entries") or []}),
            "changes": _shown_changes(changes, known, mine=mine)}


def correctable(rows: list[TableEntry], public: Mapping[str, Any], *, player: str | None,
                host: bool, limit: int = 30) -> list[Correctable]:
    """The entries this phone may correct, newest first, each with the values it may change
    (``fields``: ``{path, pointer, value}``; a value the public draft hides only to its seat)."""
    current = bodies(rows)
    out: list[Correctable] = []
    for row in reversed(rows):
        if row.kind != "place":
            continue
        body = current.get(row.seq, row.body)
        at = target_pointer(body)
        value = body.get("value")
        if body.get("slots"):
            paths = [(s["path"], s.get("player")) for s in body["slots"]]
        elif isinstance(value, dict):
            paths = [(f"/{key.replace('~', '~0').replace('/', '~1')}", None) for key in value]
        else:
            continue
        fields: list[CorrectableField] = []
        for path, owner in paths:
            if not may_change(row, body, path, player=player, host=host):
                continue
            found, now = _get(value, path)
            seen, _ = _get(public, at + path)
            if not found or not (seen or (owner is not None and owner == player)):
                continue
            fields.append({"path": path, "pointer": at + path, "value": now})
        if fields:
            out.append({"seq": row.seq, "pointer": at, "fields": fields})
        if len(out) >= limit:
            break
    return out

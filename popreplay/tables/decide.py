"""An entry decided: the rows an entry makes (a whole entry placed, a seat's part of a gathered
entry, the whole entry once its last slot is filled), checked by the engine; a refusal raises
:class:`TableError` with the rule's message."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

from .. import budget
from . import authority, gather, state as states, views
from .model import TableError, Viewer
from .places import PlaceError, build, place, tokens
from .rows import plain


def decided(state: states.State, viewer: Viewer, entry: dict[str, Any], *, taken: list[str],
            wait: float | None = None) -> list[tuple]:
    """:func:`decide` beside the request within ``wait`` seconds; the decision is kept for the
    same entry on the same state (a retry after a 503 finds it at once)."""
    digest = hashlib.sha256(json.dumps(entry, sort_keys=True, ensure_ascii=True).encode()
                            ).hexdigest()
    key = ("table-decide", state.table, state.seq, viewer.role, viewer.player,
           tuple(sorted(taken)), digest)
    answer = json.loads(budget.run(key, _decision, state, viewer, entry, taken, wait=wait))
    if "refused" in answer:
        refused = answer["refused"]
        raise TableError(refused["status"], refused["message"], refused["errors"])
    return [tuple(row) for row in answer["rows"]]


def _decision(state: states.State, viewer: Viewer, entry: dict[str, Any],
              taken: list[str]) -> bytes:
    try:
        answer: dict[str, Any] = {"rows": decide(state, viewer, entry, taken=taken)}
    except TableError as error:
        answer = {"refused": {"status": error.status, "message": error.message,
                              "errors": error.errors}}
    return json.dumps(answer, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def decide(state: states.State, viewer: Viewer, entry: dict[str, Any], *,
           taken: list[str]) -> list[tuple]:
    """The rows this entry makes, checked by the engine; raises :class:`TableError` (422) with
    the rule's message when the engine refuses it."""
    by = viewer.player
    if entry.get("type") == "place":
        return [("place", by, placed(state, entry, viewer=viewer))]
    if entry.get("type") == "part":
        return gathered(state, viewer, entry, taken=taken)
    raise TableError(422, "An entry is {type: place, …}, {type: part, …} or {type: correct, …}.", [
        {"code": "bad-request", "message": "type", "path": "/entry/type"}])


def placed(state: states.State, entry: dict[str, Any], *,
           viewer: Viewer | None = None) -> dict[str, Any]:
    at, how, value = entry.get("at"), entry.get("how"), entry.get("value")
    if not isinstance(at, str) or how not in ("append", "set") or value is None:
        raise TableError(422, "A place entry has `at` (a JSON Pointer), `how` (append or set) "
                              "and `value`.", [{"code": "bad-request", "message": "place",
                                                "path": "/entry"}])
    if any(p.get("path") == at for p in state.plans.values()) or any(
            p["at"] == at for p in state.plans.values()):
        raise TableError(422, "This entry is entered by the seats, part by part.", [
            {"code": "bad-request", "message": "part", "path": "/entry/at"}])
    return checked_place(state, at, how, value, viewer=viewer)


def checked_place(state: states.State, at: str, how: str, value: Any, *,
                  viewer: Viewer | None = None) -> dict[str, Any]:
    """The entry placed in the draft, judged by the engine on the draft as ``viewer`` may know it
    (``None``: the whole draft, for an entry the seats filled together): a refusal tells the
    sender only what it knows, and the same entry gets the same answer whatever the cards it
    cannot see. An entry that clashes only with such a card is taken (docs/table.md, "What a
    refusal says")."""
    if viewer is None or (viewer.host and viewer.player is None):
        judged = state.log
    else:
        judged = views.known_log(state, viewer)
    try:
        log = place(judged, at, how, value)
    except PlaceError as error:
        raise TableError(422, f"No place {at} in the draft: {error}.", [
            {"code": "bad-request", "message": str(error), "path": "/entry/at"}]) from None
    choices = states.engine_choices(state.game, log)
    if choices.get("error"):
        raise TableError(422, "Refused by the rules.", [plain(choices["error"])])
    index = None
    if how == "append":
        node: Any = state.log
        try:
            for token in tokens(at):
                node = node[int(token)] if isinstance(node, list) else node.get(token, [])
            index = len(node)
        except (LookupError, ValueError, AttributeError):
            index = 0
    return {"at": at, "how": how, "value": value, "index": index}


def gathered(state: states.State, viewer: Viewer, entry: dict[str, Any], *,
             taken: list[str]) -> list[tuple]:
    asked = entry.get("entry")
    kind = asked if isinstance(asked, str) else ""
    plan = state.plans.get(kind)
    if plan is None:
        raise TableError(422, f"No {asked!r} entry can come now.", [
            {"code": "bad-request", "message": "entry", "path": "/entry/entry"}])
    slots = entry.get("slots")
    if not isinstance(slots, dict) or not slots:
        raise TableError(422, "A part fills slots: {\"slots\": {\"<slot>\": [cards]}}.", [
            {"code": "bad-request", "message": "slots", "path": "/entry/slots"}])
    parts: dict[int, list[Any]] = {}
    for name, cards in slots.items():
        if not str(name).isdigit() or int(name) >= len(plan["slots"]):
            raise TableError(422, f"No slot {name}.", [{"code": "bad-request",
                             "message": "slot", "path": f"/entry/slots/{name}"}])
        slot = plan["slots"][int(name)]
        if not authority.may_fill(slot, viewer, taken=taken):  # tables/authority.py
            raise TableError(403, "This slot is another seat's.", [
                {"code": "forbidden", "message": "seat", "path": f"/entry/slots/{name}"}])
        if not isinstance(cards, list) or len(cards) != gather.slot_size(slot):
            raise TableError(422, f"Slot {name} takes {gather.slot_size(slot)} card(s).", [
                {"code": "bad-request", "message": "count", "path": f"/entry/slots/{name}"}])
        parts[int(name)] = cards
    known = gather.known_to(state.game, plan, state.parts.get(kind, {}),
                            player=viewer.player, host=viewer.host)
    refused = gather.precheck(state.game, state.log, kind, plan, parts, hands=state.hands,
                              known={k: v for k, v in known.items() if k not in parts},
                              asker=gather.asker(player=viewer.player, host=viewer.host))
    if refused is not None:
        raise TableError(422, "Refused by the rules.", [plain(refused)])
    key = gather.plan_key(kind, plan)
    rows: list[tuple] = [("part", viewer.player, {"key": key, "entry": kind,
                                                  "slots": {str(k): v for k, v in parts.items()}})]
    every = {index: list(part.cards) for index, part in state.parts.get(kind, {}).items()}
    every.update(parts)
    if len(every) < len(plan["slots"]):
        return rows
    owners = {index: part.by for index, part in state.parts.get(kind, {}).items()}
    owners.update({index: viewer.player for index in parts})
    bad = gather.whole_check(state.game, state.log, kind, plan, every, hands=state.hands)
    if bad is None:
        value = build(plan, every)
        try:
            body = checked_place(state, plan["at"], plan["how"], value)
            body["slots"] = [{"path": slot["path"], "player": slot.get("player"),  # corrections
                              "by": owners.get(index)} for index, slot in enumerate(plan["slots"])]
            rows.append(("place", None, body))
            return rows
        except TableError as refusal:
            bad = (_culprit(plan, state.log, refusal), refusal.errors[0])
    slot, error = bad
    # The sender's cards passed the check of what it may know (``precheck``): what the whole
    # entry refuses now is a clash with cards it cannot see. Refusing it to the sender only
    # would be a free question about the others' cards; the part is recorded and its slot
    # opened again, as any seat's part the whole entry refuses (docs/table.md, "What a refusal
    # says").
    rows.append(("drop", None, {"key": key, "slot": slot, "player": owners.get(slot),
                                "error": plain(error)}))
    return rows


def _culprit(plan: Mapping[str, Any], log: Mapping[str, Any], error: TableError) -> int:
    """The slot a rule violation of the whole entry points into (the last slot otherwise)."""
    path = str((error.errors or [{}])[0].get("path") or "")
    for index, slot in enumerate(plan["slots"]):
        if slot["path"] and slot["path"] in path:
            return index
    return len(plan["slots"]) - 1


# --- storing -------------------------------------------------------------------------------------

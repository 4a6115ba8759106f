"""The entries of a simulated cube or Bloops game as each seat would send them (``place``), for
the API and browser tests of private cards."""

from __future__ import annotations

from typing import Any, Callable


def place_entries(log: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(seat, entry): each seat sets its own dealt hand, then every turn (cube) or event (Bloops)
    is appended by the player it belongs to; Bloops' reveal by the first seat."""
    names = log["players"]
    out: list[tuple[str, dict[str, Any]]] = []
    if log["game"] == "cube":
        for name in names:
            out.append((name, {"type": "place", "at": f"/deal/{name}", "how": "set",
                               "value": log["deal"][name]}))
        for turn in log["turns"]:
            out.append((turn["player"], {"type": "place", "at": "/turns", "how": "append",
                                         "value": turn}))
        return out
    deal = {n: [None] * len(log["deal"][n]) for n in names}
    out.append((names[0], {"type": "place", "at": "/deal", "how": "set",
                           "value": deal | {names[0]: log["deal"][names[0]]}}))
    for name in names[1:]:
        out.append((name, {"type": "place", "at": f"/deal/{name}", "how": "set",
                           "value": log["deal"][name]}))
    for event in log["events"]:
        out.append((event.get("player") or names[0], {"type": "place", "at": "/events",
                                                      "how": "append", "value": event}))
    if "reveal" in log:
        out.append((names[0], {"type": "place", "at": "/reveal", "how": "set",
                               "value": log["reveal"]}))
    return out


def drive_places(log: dict[str, Any], post: Callable[[str, dict[str, Any], int], Any]) -> Any:
    last = None
    for n, (by, entry) in enumerate(place_entries(log)):
        last = post(by, entry, n)
    return last


def leaks(shown: dict[str, Any], viewer: str | None) -> list[str]:
    """The private values of other players that ``shown`` (a screen's log) gives: another seat's
    dealt cards, cube draws of another's turn, Bloops draws and looks of another player."""
    found = []
    for name, cards in (shown.get("deal") or {}).items():
        if name != viewer and any(c is not None for c in cards):
            found.append(f"deal/{name}")
    for k, turn in enumerate(shown.get("turns") or []):
        if turn["player"] != viewer and any(c is not None for c in turn.get("draw") or []):
            found.append(f"turns/{k}/draw")
    for k, event in enumerate(shown.get("events") or []):
        if event.get("type") in ("draw", "look") and event.get("player") != viewer \
                and event.get("value") is not None:
            found.append(f"events/{k}")
    return found

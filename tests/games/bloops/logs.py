"""Small builders for hand-written Bloops logs in tests (players Ana, Ben, Cleo)."""

from __future__ import annotations

from typing import Any

A, B, C = "Ana", "Ben", "Cleo"
ANA = [3, 1, 4, 1, 5, 9]  # scores 23
BEN = [2, 6, 5, 3, 5, 8]  # scores 29


def log(players: list[str] | None = None, *, events: list[dict] = (), **body: Any) -> dict:
    out: dict[str, Any] = {"format": "popreplay/1", "game": "bloops", "mode": "classic",
                           "players": list(players or [A, B])}
    out.update(body)
    out["events"] = list(events)
    return out


def draw(player: str, value: int | None = None) -> dict:
    return {"type": "draw", "player": player, "value": value}


def discard(player: str, value: int) -> dict:
    return {"type": "discard", "player": player, "value": value}


def keep(player: str, place: int, value: int) -> dict:
    return {"type": "keep", "player": player, "place": place, "value": value}


def counter(player: str, place: int, value: int, penalty: int | None = None) -> dict:
    return {"type": "counter", "player": player, "place": place, "value": value,
            "penalty": penalty}


def give(player: str, target: str, value: int | None = None) -> dict:
    return {"type": "give", "player": player, "target": target, "value": value}


def look(player: str, target: str, place: int, value: int | None = None) -> dict:
    return {"type": "look", "player": player, "target": target, "place": place, "value": value}


def swap(player: str, place: int, target: str, target_place: int) -> dict:
    return {"type": "swap", "player": player, "place": place, "target": target,
            "target_place": target_place}


def call(player: str) -> dict:
    return {"type": "bloops", "player": player}


def turn(player: str, value: int) -> list[dict]:
    """A plain turn: draw a card and discard it."""
    return [draw(player, value), discard(player, value)]


def every(*values: int) -> dict[str, int]:
    return {str(place): value for place, value in enumerate(values, start=1)}

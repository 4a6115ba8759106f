"""Link previews: the one-line summary a chat shows for a share link (Open Graph and Twitter
card meta tags), from the stored result: "POP! battle · Bruno wins with 41 · 3 players · legal"."""

from __future__ import annotations

from typing import Any


def summary(result: dict[str, Any], *, game_title: str, players: list[str]) -> str:
    """The result in one line: the kind of game, who won (or how it ended), how many played,
    and whether the log is legal and its score sheet agrees."""
    kind = f"{game_title} {result.get('mode') or ''}".strip()
    count = f"{len(players)} player{'s' if len(players) != 1 else ''}"
    parts = [kind, ending(result), count, verdict(result)]
    return " · ".join(part for part in parts if part)


def ending(result: dict[str, Any]) -> str:
    """Who won, or how the game ended; empty when the log does not say yet."""
    if result.get("status") == "illegal":
        error = (result.get("errors") or [{}])[0]
        where = (f" in round {error['round']}" if error.get("round") else "") + (
            f", turn {error['turn']}" if error.get("turn") else "")
        return f"stopped at an illegal move{where}"
    outcome = result.get("outcome")
    if not isinstance(outcome, dict):
        return ""
    if outcome.get("result") in ("won", "lost"):
        who = "the group" if result.get("mode") == "coop" else "the player"
        level = outcome.get("level") or outcome.get("title")
        return f"{who} {'wins' if outcome['result'] == 'won' else 'loses'}" + (
            f" ({level})" if level else "")
    if isinstance(outcome.get("solved"), bool):
        return "solved" if outcome["solved"] else "not solved"
    winners = outcome.get("winners")  # every game's key for its winners (issue 16)
    if not winners:
        return "not finished" if result.get("status") == "incomplete" else ""
    scores = outcome.get("totals") or outcome.get("scores") or {}
    score = scores.get(winners[0]) if isinstance(scores, dict) else None
    names = winners[0] if len(winners) == 1 else ", ".join(winners[:-1]) + " and " + winners[-1]
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"{names} {verb}" + (f" with {score}" if isinstance(score, int) else "")


def verdict(result: dict[str, Any]) -> str:
    if not result.get("legal"):
        return "illegal" if result.get("status") == "illegal" else ""
    claims = result.get("claims")
    return "legal · score sheet differs" if claims and not claims.get("match") else "legal"

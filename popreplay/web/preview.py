"""Link previews: the one-line summary a chat shows for a share link (Open Graph and Twitter
card meta tags), from the stored result: "POP! battle · Bruno wins with 41 · 3 players · legal"."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from .words import mode_word


def summary(result: dict[str, Any], *, game_title: str, players: list[str]) -> str:
    """The result in one line: the kind of game, who won (or how it ended), how many played,
    and whether the log is legal and its score sheet agrees."""
    kind = f"{game_title} {mode_word(result.get('mode'))}".strip()
    count = ngettext("%(num)s player", "%(num)s players", len(players))
    parts = [kind, ending(result), count, verdict(result)]
    return " · ".join(part for part in parts if part)


def ending(result: dict[str, Any]) -> str:
    """Who won, or how the game ended; empty when the log does not say yet."""
    if result.get("status") == "illegal":
        error = (result.get("errors") or [{}])[0]
        if error.get("round") and error.get("turn"):
            return _("stopped at an illegal move in round %(round)s, turn %(turn)s",
                     round=error["round"], turn=error["turn"])
        if error.get("round"):
            return _("stopped at an illegal move in round %(round)s", round=error["round"])
        return _("stopped at an illegal move")
    outcome = result.get("outcome")
    if not isinstance(outcome, dict):
        return ""
    if outcome.get("result") in ("won", "lost"):
        coop = result.get("mode") == "coop"
        if outcome["result"] == "won":
            text = _("the group wins") if coop else _("the player wins")
        else:
            text = _("the group loses") if coop else _("the player loses")
        level = outcome.get("level") or outcome.get("title")
        return text + (f" ({level})" if level else "")
    if isinstance(outcome.get("solved"), bool):
        return _("solved") if outcome["solved"] else _("not solved")
    winners = outcome.get("winners")  # every game's key for its winners (issue 16)
    if not winners:
        return _("not finished") if result.get("status") == "incomplete" else ""
    scores = outcome.get("totals") or outcome.get("scores") or {}
    score = scores.get(winners[0]) if isinstance(scores, dict) else None
    if len(winners) == 1:
        if isinstance(score, int):
            return _("%(name)s wins with %(score)s", name=winners[0], score=score)
        return _("%(name)s wins", name=winners[0])
    names = _("%(names)s and %(last)s", names=", ".join(winners[:-1]), last=winners[-1])
    if isinstance(score, int):
        return _("%(names)s share the win with %(score)s", names=names, score=score)
    return _("%(names)s share the win", names=names)


def verdict(result: dict[str, Any]) -> str:
    if not result.get("legal"):
        return _("illegal") if result.get("status") == "illegal" else ""
    claims = result.get("claims")
    return _("legal · score sheet differs") if claims and not claims.get("match") else _("legal")

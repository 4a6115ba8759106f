"""The recorder's end screen in words: what the engine declares can be claimed
(``Game.claimable``), with a label for every field and every choice from the catalogue."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

# (game, key) or key -> the field's label; the game's own word wins.
LABELS: dict[Any, Any] = {
    "rounds": _l("Points per round"),
    "totals": _l("Total points"),
    "winners": _l("Who won?"),
    "result": _l("Did you win?"),
    "level": _l("Level reached"),
    "title": _l("Title earned"),
    "solved": _l("Was the puzzle solved?"),
    "won_by": _l("How was it won?"),
    "completed": _l("Steps completed (0 to 4)"),
    "ended_by": _l("How did it end?"),
    "cards": _l("Cards held at the end"),
    "scores": _l("Points at the end"),
    "stars": _l("Stars held"),
    "bloops": _l("Who called Bloops?"),
}

# (key, value) -> the choice in words
CHOICES: dict[tuple[str, Any], Any] = {
    ("result", "won"): _l("Yes, we won"),
    ("result", "lost"): _l("No, we lost"),
    ("level", "beginner"): _l("Beginner guardians"),
    ("level", "apprentice"): _l("Apprentice guardians"),
    ("level", "skilled"): _l("Skilled guardians"),
    ("level", "expert"): _l("Expert guardians"),
    ("level", "legendary"): _l("Legendary guardians"),
    ("title", "novice"): _l("Novice guardian"),
    ("title", "mean"): _l("Mean guardian"),
    ("title", "evil"): _l("Evil guardian"),
    ("title", "renegade"): _l("Renegade guardian"),
    ("won_by", "steps"): _l("Four complete steps"),
    ("won_by", "fmc"): _l("Showing the F.M.C."),
    ("ended_by", "elimination"): _l("Only one player was left"),
    ("ended_by", "time"): _l("Time was up"),
    ("ended_by", "no-cards"): _l("Nobody held a card any more"),
    ("ended_by", "twenty"): _l("The 20 was discarded"),
    ("ended_by", "bloops"): _l("Bloops was called and the last turns were played"),
    ("ended_by", "pile-empty"): _l("The draw pile ran out"),
    ("solved", True): _l("Yes"),
    ("solved", False): _l("No"),
}


def claim_form(game: Any) -> dict[str, list[dict[str, Any]]]:
    """Per mode, the fields of the end screen: the engine's declaration with ``label`` and, for a
    choice, ``choices: [{"value", "label"}]`` (a yes-no field gets its two choices too)."""
    if not hasattr(game, "claimable"):
        return {}
    return {mode: [_labelled(f) for f in game.claimable(mode)] for mode in game.modes}


def _labelled(spec: dict[str, Any]) -> dict[str, Any]:
    out = dict(spec)
    out["label"] = str(LABELS[spec["key"]])
    values = spec.get("choices") or ([True, False] if spec["kind"] == "yes-no" else None)
    if values is not None:
        out["choices"] = [{"value": v, "label": str(CHOICES[(spec["key"], v)])} for v in values]
    return out

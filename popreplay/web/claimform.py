"""The recorder's end screen in words: what the engine declares can be claimed
(``Game.claimable``), with a label for every field and every choice from the catalogue."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from ..games import KITS

# key -> the field's label, for the fields any game may declare; a game's own fields and words
# (and a word of its own for one of these) are its kit's (``claim_labels``, ``claim_choices``)
LABELS: dict[str, Any] = {
    "rounds": _l("Points per round"),
    "totals": _l("Total points"),
    "winners": _l("Who won?"),
    "result": _l("Did you win?"),
    "solved": _l("Was the puzzle solved?"),
    "ended_by": _l("How did it end?"),
    "cards": _l("Cards held at the end"),
    "scores": _l("Points at the end"),
}

YES_NO: dict[Any, Any] = {True: _l("Yes"), False: _l("No")}  # a yes-no field's two choices


def claim_form(game: Any) -> dict[str, list[dict[str, Any]]]:
    """Per mode, the fields of the end screen: the engine's declaration with ``label`` and, for a
    choice, ``choices: [{"value", "label"}]`` (a yes-no field gets its two choices too)."""
    if not hasattr(game, "claimable"):
        return {}
    kit = KITS.get(game.name)
    labels = {**LABELS, **dict(kit.claim_labels if kit else ())}
    choices = dict(kit.claim_choices if kit else ())
    return {mode: [_labelled(f, labels, choices) for f in game.claimable(mode)]
            for mode in game.modes}


def _labelled(spec: dict[str, Any], labels: dict[str, Any],
              choices: dict[tuple[str, Any], Any]) -> dict[str, Any]:
    out = dict(spec)
    out["label"] = str(labels[spec["key"]])
    if spec["kind"] == "yes-no":
        out["choices"] = [{"value": v, "label": str(YES_NO[v])} for v in (True, False)]
    elif spec.get("choices"):
        out["choices"] = [{"value": v, "label": str(choices[(spec["key"], v)])}
                          for v in spec["choices"]]
    return out

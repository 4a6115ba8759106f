"""A player's table: the four steps, the colours each step takes, protection, completeness."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import STEPS, kind

OPPOSITE = {"WHITE": "YELLOW", "YELLOW": "WHITE"}
F2L_GROUP = {"RED": "red/orange", "ORANGE": "red/orange", "BLUE": "blue/green",
             "GREEN": "blue/green"}
SIDE_COLOURS = frozenset(F2L_GROUP)


@dataclass(slots=True)
class Step:
    card: str  # the CUBE card id
    colours: list[str] = field(default_factory=list)
    timer: str | None = None  # a PB or WR card id

    @property
    def name(self) -> str:
        return kind(self.card)

    def protected(self) -> bool:
        return self.timer is not None

    def colour_kinds(self) -> list[str]:
        return [kind(c) for c in self.colours]

    def to_dict(self, table: Table) -> dict:
        return {"card": self.card, "colours": list(self.colours), "timer": self.timer,
                "complete": table.complete(self.name)}


class Table:
    """The steps in front of one player, by step name (a player has at most one of each)."""

    def __init__(self) -> None:
        self.steps: dict[str, Step] = {}

    def cards(self) -> list[str]:
        out: list[str] = []
        for step in self.steps.values():
            out.append(step.card)
            out.extend(step.colours)
            if step.timer is not None:
                out.append(step.timer)
        return out

    def colour_of(self, name: str) -> str | None:
        """The white/yellow colour on the CROSS or the PLL, if any."""
        step = self.steps.get(name)
        return step.colour_kinds()[0] if step is not None and step.colours else None

    def why_not_colour(self, name: str, colour: str) -> str | None:
        """Why ``colour`` (a colour kind) cannot go on step ``name`` now; ``None`` if it can."""
        step = self.steps.get(name)
        if step is None:
            return f"there is no {name} on the table"
        have = step.colour_kinds()
        if "SKIP" in have:
            return f"the {name} is complete with the skip card"
        if name in ("CROSS", "PLL"):
            return self._why_not_white_yellow(name, colour, have)
        if colour == "SKIP":
            return None if not have else f"the skip card goes alone on an empty {name}"
        if colour not in SIDE_COLOURS:
            return f"the {name} takes red, orange, blue or green, not {colour.lower()}"
        if len(have) >= 2:
            return f"the {name} already has two colours"
        if name == "F2L" and have and F2L_GROUP[have[0]] == F2L_GROUP[colour]:
            return (f"the F2L pairs one of red/orange with one of blue/green; it already has "
                    f"{have[0].lower()}")
        if name == "OLL" and colour in have:
            return f"the OLL takes two different colours; it already has {colour.lower()}"
        return None

    def _why_not_white_yellow(self, name: str, colour: str, have: list[str]) -> str | None:
        if colour not in OPPOSITE:
            return f"the {name} takes white or yellow, not {colour.lower()}"
        if have:
            return f"the {name} already has its colour"
        other = "PLL" if name == "CROSS" else "CROSS"
        other_colour = self.colour_of(other)
        if name == "PLL" and other_colour is None:
            return "the PLL takes the colour opposite the CROSS's, and the CROSS has no colour yet"
        if other_colour is not None and OPPOSITE[other_colour] != colour:
            return (f"the {name} must be opposite the {other} ({other_colour.lower()}): "
                    f"{OPPOSITE[other_colour].lower()}")
        return None

    def complete(self, name: str) -> bool:
        step = self.steps.get(name)
        if step is None:
            return False
        have = step.colour_kinds()
        if name in ("CROSS", "PLL"):
            return len(have) == 1
        return have == ["SKIP"] or len(have) == 2

    def completed(self) -> int:
        return sum(self.complete(name) for name in STEPS)

    def snapshot(self) -> dict[str, dict | None]:
        return {name: (self.steps[name].to_dict(self) if name in self.steps else None)
                for name in STEPS}

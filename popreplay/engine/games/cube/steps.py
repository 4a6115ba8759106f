"""A player's table: the four steps, the colours each step takes, protection, completeness."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ...messages import Msg, msg
from .cards import STEPS, kind
from .messages import colour as colour_word

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

    def to_dict(self, name: str) -> dict:
        """The step as the steps' state shows it; ``name``: its key on the table (its kind)."""
        return {"card": self.card, "colours": list(self.colours), "timer": self.timer,
                "complete": is_complete(name, self.colours)}


def is_complete(name: str, colours: list[str]) -> bool:
    """Whether step ``name`` holding ``colours`` is complete: one colour on the CROSS or the PLL,
    two colours or a SKIP alone on the F2L or the OLL. (Only a colour's count or a SKIP matters:
    no kinds list is built, this is asked for every step of every recorded state.)"""
    if name in ("CROSS", "PLL"):
        return len(colours) == 1
    return len(colours) == 2 or (len(colours) == 1 and kind(colours[0]) == "SKIP")


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

    def why_not_colour(self, name: str, colour: str) -> Msg | None:
        """Why ``colour`` (a colour kind) cannot go on step ``name`` now; ``None`` if it can."""
        why = self._refusal(name, colour)
        return None if why is None else why()

    def can_colour(self, name: str, colour: str) -> bool:
        """Whether ``colour`` can go on step ``name`` now (the same rule, not worded: the
        simulator and the recorder's offers ask this for every card and step)."""
        return self._refusal(name, colour) is None

    def _refusal(self, name: str, colour: str) -> Callable[[], Msg] | None:
        """The colour rule, once: ``None`` if ``colour`` can go on step ``name``, else what
        words the refusal (called only when a message is wanted)."""
        step = self.steps.get(name)
        if step is None:
            return lambda: msg("cube.colour.no-step", step=name)
        have = step.colour_kinds()
        if "SKIP" in have:
            return lambda: msg("cube.colour.skip-complete", step=name)
        if name in ("CROSS", "PLL"):
            return self._white_yellow_refusal(name, colour, have)
        if colour == "SKIP":
            return None if not have else lambda: msg("cube.colour.skip-alone", step=name)
        if colour not in SIDE_COLOURS:
            return lambda: msg("cube.colour.side-only", step=name, colour=colour_word(colour))
        if len(have) >= 2:
            return lambda: msg("cube.colour.two-already", step=name)
        if name == "F2L" and have and F2L_GROUP[have[0]] == F2L_GROUP[colour]:
            return lambda: msg("cube.colour.f2l-pair", colour=colour_word(have[0]))
        if name == "OLL" and colour in have:
            return lambda: msg("cube.colour.oll-different", colour=colour_word(colour))
        return None

    def _white_yellow_refusal(self, name: str, colour: str, have: list[str]
                              ) -> Callable[[], Msg] | None:
        if colour not in OPPOSITE:
            return lambda: msg("cube.colour.white-yellow-only", step=name,
                               colour=colour_word(colour))
        if have:
            return lambda: msg("cube.colour.has-its-colour", step=name)
        other = "PLL" if name == "CROSS" else "CROSS"
        other_colour = self.colour_of(other)
        if name == "PLL" and other_colour is None:
            return lambda: msg("cube.colour.pll-before-cross")
        if other_colour is not None and OPPOSITE[other_colour] != colour:
            return lambda: msg("cube.colour.opposite", step=name, other=other,
                               colour=colour_word(other_colour),
                               opposite=colour_word(OPPOSITE[other_colour]))
        return None

    def complete(self, name: str) -> bool:
        step = self.steps.get(name)
        return step is not None and is_complete(name, step.colours)

    def completed(self) -> int:
        return sum(self.complete(name) for name in STEPS)

    def snapshot(self) -> dict[str, dict | None]:
        steps = self.steps
        return {name: (step.to_dict(name) if (step := steps.get(name)) is not None else None)
                for name in STEPS}

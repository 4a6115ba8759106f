"""POP!, the card-placement game: battle, 2-player variant, coop, solo and puzzles."""

from __future__ import annotations

from typing import Any, Mapping

from ...replay import GameReplay, RuleViolation, StepRecorder
from . import notes
from .modes import MODES
from .rules import PopReplay
from .simulate import simulate


class PopGame:
    name = "pop"
    title = "POP!"
    modes = tuple(MODES)

    def replay(self, log: Mapping[str, Any], *, with_steps: bool = False) -> GameReplay:
        recorder = StepRecorder(enabled=with_steps)
        game = PopReplay(log, recorder)
        try:
            status = game.run()
        except RuleViolation as stop:
            if with_steps:
                notes.violation(game, stop.violation.to_dict())
            return GameReplay("illegal", None, stop.violation, recorder.steps)
        outcome = game.outcome(status)
        if with_steps and status == "complete":
            notes.game_end(game, outcome)
        return GameReplay(status, outcome, None, recorder.steps)

    def simulate(self, *, mode: str, players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return simulate(mode=mode, players=players, seed=seed, options=options or {})


POP = PopGame()

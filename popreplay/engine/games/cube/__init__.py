"""The cubing card game "POP" (``cube``): steps, colours, timers, GAME cards and the F.M.C."""

from __future__ import annotations

from typing import Any, Mapping

from ...claimable import copy_fields, field
from ...replay import GameReplay, StepRecorder, replay_game
from . import choices as recording
from . import notes
from .rules import MAX_PLAYERS, MIN_PLAYERS, MODE, CubeReplay
from .simulate import simulate


CLAIMABLE = {  # engine/claimable.py
    MODE: [field("winners", "players"), field("won_by", "choice", choices=["steps", "fmc"]),
           field("completed", "per-player")],
}


class CubeGame:
    name = "cube"
    title = "Cube (the cubing card game)"
    modes: tuple[str, ...] = (MODE,)
    player_counts = {MODE: (MIN_PLAYERS, MAX_PLAYERS)}
    lower_score_wins = False  # the score is the number of complete steps

    def replay(self, log: Mapping[str, Any], *, with_steps: bool = False) -> GameReplay:
        recorder = StepRecorder(enabled=with_steps)
        game = CubeReplay(log, recorder)
        return replay_game(game, recorder, notes, outcome=lambda _status: game.outcome())

    def standings(self, outcome: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        winners = outcome["winners"]
        return {p: {"score": outcome["completed"].get(p),
                    "won": None if winners is None else p in winners} for p in players}

    def zones(self, state: Mapping[str, Any]) -> dict[str, list[Any]]:
        zones: dict[str, list[Any]] = {
            "pile": list(state["pile"]["cards"]),
            "unlocated": list(state["unlocated"]),
            "discard/left": list(state["discards"]["left"]),
            "discard/right": list(state["discards"]["right"]),
        }
        for name, player in state["players"].items():
            zones[f"hand/{name}"] = list(player["hand"])
            zones[f"table/{name}"] = [
                card for step in player["table"].values() if step is not None
                for card in (step["card"], *step["colours"], step["timer"]) if card is not None]
        return zones

    def simulate(self, *, mode: str, players: int, seed: int,
                 options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return simulate(mode=mode, players=players, seed=seed, options=options or {})

    def choices(self, log: Mapping[str, Any], *,
                pending: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return recording.choices(log, pending=pending)

    def cut(self, log: Mapping[str, Any], step: int) -> dict[str, Any]:
        return recording.cut(log, step)

    def claimable(self, mode: str) -> list[dict[str, Any]]:
        """What a score sheet of ``mode`` can claim (``engine/claimable.py``)."""
        return copy_fields(CLAIMABLE, mode)


CUBE = CubeGame()

"""Bloops, the blind discarding game: hidden cards, effects, counter-discards, two endings."""

from __future__ import annotations

from typing import Any, Mapping

from ...claimable import copy_fields, field
from ...replay import GameReplay, StepRecorder, replay_game
from . import choices as recording
from . import notes
from .cards import BLOOPS_CARD
from .modes import MODES
from .rules import BloopsReplay
from .simulate import simulate


CLAIMABLE = {  # engine/claimable.py
    mode: [field("scores", "per-player"), field("stars", "per-player"),
           field("winners", "players"), field("bloops", "player"),
           field("ended_by", "choice", choices=["twenty", "bloops", "pile-empty"])]
    for mode in MODES
}


class BloopsGame:
    name = "bloops"
    title = "Bloops"
    modes = tuple(MODES)
    player_counts = dict(MODES)
    lower_score_wins = True

    def replay(self, log: Mapping[str, Any], *, with_steps: bool = False) -> GameReplay:
        recorder = StepRecorder(enabled=with_steps)
        game = BloopsReplay(log, recorder)
        return replay_game(game, recorder, notes, outcome=lambda status: game.outcome(status))

    def standings(self, outcome: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        winners = outcome.get("winners")
        scores = outcome.get("scores") or {}
        return {p: {"score": scores.get(p), "won": None if winners is None else p in winners}
                for p in players}

    def zones(self, state: Mapping[str, Any]) -> dict[str, list[Any]]:
        zones: dict[str, list[Any]] = {
            "pile": list(state["pile"]),
            "discard": [entry["card"] for entry in state["discard"]],
            "drawn": [] if state["drawn"] is None else [state["drawn"]["card"]],
        }
        for name, places in state["places"].items():
            zones[f"places/{name}"] = [entry["card"] for entry in places]
        holder = state["bloops"]
        zones["bloops/aside" if holder is None else f"bloops/{holder}"] = [BLOOPS_CARD]
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


BLOOPS = BloopsGame()

"""POP!, the card-placement game: battle, 2-player variant, coop, solo and puzzles."""

from __future__ import annotations

from typing import Any, Mapping

from ...claimable import copy_fields, field
from ...replay import GameReplay, StepRecorder, replay_game
from . import choices as recording
from . import notes
from .modes import MODES
from .rules import PopReplay
from .simulate import simulate


CLAIMABLE = {  # what a POP! score sheet holds, per mode (engine/claimable.py)
    "battle": [field("rounds", "rounds", field="scores"),
               field("totals", "per-player", sum_of="rounds"),
               field("winners", "players")],
    "coop": [field("result", "choice", choices=["won", "lost"]),
             field("level", "choice",
                   choices=["beginner", "apprentice", "skilled", "expert", "legendary"])],
    "solo": [field("result", "choice", choices=["won", "lost"]),
             field("title", "choice", choices=["novice", "mean", "evil", "renegade"])],
    "puzzle": [field("solved", "yes-no")],
}


class PopGame:
    name = "pop"
    title = "POP!"
    modes = tuple(MODES)
    player_counts = {name: (mode.min_players, mode.max_players) for name, mode in MODES.items()}
    lower_score_wins = True

    def replay(self, log: Mapping[str, Any], *, with_steps: bool = False) -> GameReplay:
        recorder = StepRecorder(enabled=with_steps)
        game = PopReplay(log, recorder)
        return replay_game(game, recorder, notes, outcome=game.outcome)

    def standings(self, outcome: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        if "totals" in outcome:  # battle
            winners = outcome["winners"]
            return {p: {"score": outcome["totals"].get(p),
                        "won": None if winners is None else p in winners} for p in players}
        won = outcome.get("result", None)
        if "solved" in outcome:
            won = None if outcome["solved"] is None else ("won" if outcome["solved"] else "lost")
        return {p: {"score": None, "won": None if won is None else won == "won"} for p in players}

    def zones(self, state: Mapping[str, Any]) -> dict[str, list[Any]]:
        zones: dict[str, list[Any]] = {
            "area": [c for row in state["area"]["rows"] for c in row if c is not None],
            "chief_pending": list(state["chief_pending"]),
            "unplaced": list(state["unplaced"]),
        }
        for name, cards in state["collected"].items():
            zones[f"collected/{name}"] = list(cards)
        for name, cards in (state.get("hands") or {}).items():
            zones[f"hand/{name}"] = list(cards)
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


POP = PopGame()

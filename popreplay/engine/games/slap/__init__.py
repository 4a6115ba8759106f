"""slap, the slap game on the Rainbow/Shadow deck: elimination and timed modes."""

from __future__ import annotations

from typing import Any, Mapping

from ...claimable import copy_fields, field
from ...replay import GameReplay, StepRecorder, replay_game
from . import choices as recording
from . import notes
from .modes import MAX_PLAYERS, MIN_PLAYERS, MODES
from .rules import SlapReplay
from .simulate import simulate


CLAIMABLE = {  # engine/claimable.py
    mode: [field("winners", "players"),
           field("ended_by", "choice", choices=["elimination", "time", "no-cards"]),
           field("cards", "per-player")]
    for mode in MODES
}


class SlapGame:
    name = "slap"
    title = "Slap (Rainbow/Shadow)"
    modes = tuple(MODES)
    player_counts = {mode: (MIN_PLAYERS, MAX_PLAYERS) for mode in MODES}
    lower_score_wins = False

    def replay(self, log: Mapping[str, Any], *, with_steps: bool = False) -> GameReplay:
        recorder = StepRecorder(enabled=with_steps)
        game = SlapReplay(log, recorder)
        return replay_game(game, recorder, notes, outcome=lambda _status: game.outcome())

    def standings(self, outcome: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        winners = outcome.get("winners")
        cards = outcome.get("cards") or {}
        return {p: {"score": cards.get(p), "won": None if winners is None else p in winners}
                for p in players}

    def zones(self, state: Mapping[str, Any]) -> dict[str, list[Any]]:
        zones: dict[str, list[Any]] = {"central": list(state["central"]),
                                       "folies": list(state["folies"])}
        for name, pile in state["piles"].items():
            zones[f"pile/{name}"] = list(pile)
        return zones

    @staticmethod
    def may_hide(entry: str, state: Mapping[str, Any]) -> bool:
        """Whether a card id or place that is no longer shown may still be on the table unseen:
        a place relabelled (``?…``) or a card now known only as one of a set's cards."""
        return entry.startswith("?") or any(entry in s["cards"] for s in state["sets"].values())

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


SLAP = SlapGame()

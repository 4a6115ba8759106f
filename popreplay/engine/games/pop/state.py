"""What a POP! replay knows while it runs, and the words of its checks.

:class:`Round` is one round's table; :class:`PopState` the whole game's (the players, the mode,
the rounds so far) with the helpers every check uses: a violation (``fail``), a new card
(``check_card``), where the log put a card before (``where``), a map keyed by player names
(``named``). The checks build on it: a round's setup in :mod:`.setup`, the turns in
:mod:`.rules`; :mod:`.notes` reads it.
"""

from __future__ import annotations

from typing import Any, Mapping, NoReturn

from ...messages import Msg, msg
from ...players import by_player
from ...pointer import pointer
from ...replay import RuleViolation, StepRecorder, Violation
from . import places
from .cards import is_card
from .grid import Area
from .modes import MODES, Mode


class Round:
    """What one round knows: the area, every card seen, the hands, what was collected."""

    def __init__(self, number: int, players: int) -> None:
        self.number = number
        self.area: Area = Area([])
        self.seen: set[int] = set()
        self.hands: list[set[int]] | None = None
        self.drawn: list[list[int]] = [[] for _ in range(players)]  # drawn, not yet played
        # hands not tracked: each player's unseen places not yet revealed (see ``check_plays``;
        # counted only where draws exist: elsewhere turns × cards a turn never exceed a hand)
        self.free: list[int] = [0] * players
        self.collected: list[list[int]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.pending: list[int] = []
        self.turns_placed = 0
        self.unplaced: list[int] = []  # revealed this turn, not placed yet (or never: game over)
        self.layout_cards: set[int] = set()


class PopState:
    """The game so far, and the helpers of every check."""

    def __init__(self, log: Mapping[str, Any], recorder: StepRecorder) -> None:
        self.log = log
        self.rec = recorder
        self.mode: Mode = MODES[log["mode"]]
        self.names: list[str] = list(log["players"])
        self.index: dict[str, int] = {}
        options = log.get("options") or {}
        self.options = options
        self.variant = options.get("two_player_variant") is True
        self.difficulty = options.get("difficulty")
        self.turn_limit = self.mode.turns(self.difficulty)
        self.per_player = self.mode.player_cards(variant=self.variant)
        self.per_chief = self.mode.chief_cards(len(self.names), variant=self.variant)
        self.name_set = frozenset(self.names)  # keys that need no lookup (see ``play_turn``)
        self.positions = range(len(self.names))
        self.count = len(self.names)
        name = self.mode.name
        self.is_battle, self.is_coop = name == "battle", name == "coop"
        self.is_solo, self.is_puzzle = name == "solo", name == "puzzle"
        self.draws_exist = self.variant or self.is_solo
        # a turn can be the common one (``play_turns``): one card each, no draws before the plays
        self.one_held = self.per_player == 1 and not self.variant
        self.rounds: list[Round] = []
        self.kept: list[list[int | None]] = []
        self.finished_by: str | None = None  # "lost" (coop) or "won" (solo) once the game is over
        self.failed_turn: int | None = None
        self.turns_begun = 0
        self.owner_of: list[int | None] = [None] * 51  # who plays each card of the turn

    # --- violations ------------------------------------------------------------------------------

    @property
    def mode_word(self) -> Msg:
        """The mode's name for messages (``battle``; in French ``mode compétitif``)."""
        return msg(f"pop.mode.{self.mode.name}")

    def fail(self, code: str, message: Msg, *tokens: Any, round: int | None = None,
             turn: int | None = None) -> NoReturn:
        raise RuleViolation(Violation(code, message, pointer(*tokens), round, turn))

    # --- the checks' helpers ------------------------------------------------------------------

    def check_card(self, rnd: Round, card: int, *tokens: Any, turn: int | None = None) -> None:
        """A new card: a real number, seen once in the round."""
        if not is_card(card):
            self.fail("unknown-card", msg("pop.unknown-card", card=card),
                      *tokens, round=rnd.number, turn=turn)
        if card in rnd.seen:
            where = self.where(rnd, card, tokens)
            self.fail("duplicate-card", msg("pop.duplicate-card", card=card, round=rnd.number,
                                            where=where or msg("pop.where.seen")),
                      *tokens, round=rnd.number, turn=turn)
        rnd.seen.add(card)

    def where(self, rnd: Round, card: int, tokens: tuple) -> Msg | str:
        """Where the round's log put ``card`` before ``tokens``, in words (for messages)."""
        return places.describe(places.earlier_places(
            self.log, rnd.number - 1, card, tokens, names=self.names, draws_first=self.variant))

    def named(self, mapping: Mapping[str, Any], code: str, *tokens: Any, round: int,
              turn: int | None = None) -> dict[int, tuple[str, Any]]:
        """A map keyed by player names, by player position (``by_player``)."""
        return by_player(self.names, self.index, mapping, *tokens, duplicate=code,
                         twice="pop.hand-twice",
                         round=round, turn=turn)

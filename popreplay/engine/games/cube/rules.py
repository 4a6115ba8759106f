"""Replaying a cube log: the setup, the turns, the win. Every check in the order of
``docs/rules/cube.md``; the GAME cards and TIMERs are in ``effects.py``.

The replay raises :class:`RuleViolation` at the first violation. Steps are built only when a
recorder asks for them.
"""

from __future__ import annotations

from typing import Any, Mapping, NoReturn

from ...messages import Msg, msg
from ...pointer import pointer
from ...players import by_player, index_players, player_position
from ...replay import RuleViolation, StepRecorder, Violation
from . import notes
from .cards import CUBE, DEAL, FMC_MARKS, HAND_LIMIT, STEPS, category, deck, decks, is_kind, kind
from .effects import Effects
from .knowledge import BIT, Hand, Knowledge
from .messages import mark as mark_word
from .messages import names
from .steps import Step, Table

MODE = "standard"
MIN_PLAYERS, MAX_PLAYERS = 2, 4




class CubeReplay(Effects):
    def __init__(self, log: Mapping[str, Any], recorder: StepRecorder) -> None:
        self.log = log
        self.rec = recorder
        self.names: list[str] = list(log["players"])
        self.index: dict[str, int] = {}
        self.cards: frozenset[str] = frozenset()
        self.know = Knowledge((), len(self.names))
        self.tables = [Table() for _ in self.names]
        self.fmc: dict[str, int] | None = None  # card id -> index of its mark in FMC_MARKS
        self.turn: int | None = None  # the turn being played, 1-based
        self.round: int | None = None
        self.current: int | None = None
        self.winner: int | None = None
        self.won_by: str | None = None
        self.won_turn: int | None = None

    # --- violations ------------------------------------------------------------------------------

    def fail(self, code: str, message: Msg | str, *tokens: Any) -> NoReturn:
        raise RuleViolation(Violation(code, message, pointer(*tokens), self.round, self.turn))

    def check_card(self, card: str, *tokens: Any) -> None:
        """A card is named by a numbered id of this deck or by its kind alone (``ORANGE``)."""
        if card not in self.cards and not is_kind(card):
            self.fail("unknown-card", self.no_such_card(card), *tokens)

    def no_such_card(self, card: Any) -> Msg:
        return msg("cube.unknown-card", card=card, size=len(self.cards),
                   players=len(self.names))

    def where(self, card: str) -> Msg:
        return self.know.locate(card, self.names, self.tables)

    def player(self, name: str | None, *tokens: Any) -> int:
        return player_position(self.index, name, *tokens, round=self.round, turn=self.turn)

    # --- the whole log ---------------------------------------------------------------------------

    def run(self) -> str:
        self.check_players()
        self.cards = frozenset(deck(len(self.names)))
        self.check_deck(self.log.get("deck") or {})
        self.know = Knowledge(deck(len(self.names)), len(self.names), frozenset(self.fmc or ()))
        self.deal(self.log["deal"])
        for index, turn in enumerate(self.log.get("turns") or []):
            self.play_turn(index, turn)
        return "complete" if self.winner is not None else "incomplete"

    def check_players(self) -> None:
        self.index = index_players(self.names, low=MIN_PLAYERS, high=MAX_PLAYERS, what="cube")

    def check_deck(self, deck_data: Mapping[str, Any]) -> None:
        marks = deck_data.get("fmc")
        if marks is None:
            return
        per_mark = decks(len(self.names))
        self.fmc = {}
        for mark_index, mark in enumerate(FMC_MARKS):
            cards = marks.get(mark)
            if cards is None:
                self.fail("bad-deck", msg("cube.fmc-mark-missing", mark=mark_word(mark)),
                          "deck", "fmc")
            if len(cards) != per_mark:
                self.fail("bad-deck", msg("cube.fmc-mark-count", count=per_mark,
                                          mark=mark_word(mark), players=len(self.names),
                                          named=len(cards)),
                          "deck", "fmc", mark)
            for k, card in enumerate(cards):
                if card not in self.cards:  # a marked copy is told apart: named by its id
                    self.fail("unknown-card", self.no_such_card(card),
                              "deck", "fmc", mark, k)
                if card in self.fmc:
                    self.fail("duplicate-card", msg("cube.fmc-two-marks", card=card),
                              "deck", "fmc", mark, k)
                self.fmc[card] = mark_index

    def deal(self, dealt: Mapping[str, list[str | None]]) -> None:
        hands = by_player(self.names, self.index, dealt, "deal", duplicate="bad-deal",
                          twice="cube.hand-twice", round=self.round, turn=self.turn)
        for position, name in enumerate(self.names):
            if position not in hands:
                self.fail("bad-deal", msg("cube.deal-missing", name=name), "deal")
            key, cards = hands[position]
            if len(cards) != DEAL:
                self.fail("bad-deal", msg("cube.deal-count", name=name, count=len(cards),
                                          deal=DEAL), "deal", key)
            for k, card in enumerate(cards):
                self.draw_one(position, card, "deal", key, k)
        if self.rec.enabled:
            notes.deal(self)

    def draw_one(self, position: int, card: str | None, *tokens: Any) -> None:
        if card is not None:
            self.check_card(card, *tokens)
        know = self.know
        if not know.draw(know.hands[position], card):
            if card is None:  # a draw the log does not name: only the exact search refuses one
                self.fail("duplicate-card", msg("cube.cannot-draw-unnamed",
                                                why=msg("cube.why.no-deal")), *tokens)
            self.fail("duplicate-card", msg("cube.cannot-draw", card=card,
                                            why=self.why_not_there(card)), *tokens)

    def why_not_there(self, card: str, hand: Hand | None = None) -> Msg:
        """Why no deal puts ``card`` in the draw pile (or in ``hand``'s hidden cards)."""
        know = self.know
        if know.refuted():  # the picture allowed it, the exact search found no deal
            return msg("cube.why.no-deal")
        token = know.token(card)
        if not know.free.get(token):
            return msg("cube.why.it-is", where=self.where(card))
        if hand is not None and not any(slot.mask & BIT[category(token)] for slot in hand.slots):
            return msg("cube.why.hand-known", held=names(hand.known), kind=kind(card))
        if hand is None and not know.in_pile(card):
            if know.pile_group:
                return msg("cube.why.not-in-reshuffle")
            return msg("cube.why.in-a-hand")
        return msg("cube.why.no-deal")

    # --- one turn --------------------------------------------------------------------------------

    def play_turn(self, index: int, turn: Mapping[str, Any]) -> None:
        n = len(self.names)
        self.turn, self.round = index + 1, index // n + 1
        base = ("turns", index)
        if self.winner is not None:
            self.fail("after-game-end", msg("cube.turn-after-end", turn=self.turn,
                                            name=self.names[self.winner], won=self.won_turn),
                      *base)
        position = self.player(turn["player"], *base, "player")
        if position != index % n:
            self.fail("wrong-player", msg("cube.wrong-player", turn=self.turn,
                                          expected=self.names[index % n],
                                          name=self.names[position]), *base, "player")
        self.current = position
        hand = self.know.hands[position]
        held = hand.size()
        wanted = DEAL - held if held <= 2 else 2
        self.draw_cards(position, turn.get("draw") or [], wanted, *base, "draw")
        if self.rec.enabled:
            notes.turn_draw(self, held, list(turn.get("draw") or []))
        self.lay(position, turn.get("lay") or [], *base, "lay")
        events = turn.get("events") or []
        for k, event in enumerate(events):
            tokens = (*base, "events", k)
            if self.winner is not None:
                self.fail("after-game-end", msg("cube.already-won",
                                                name=self.names[self.winner]), *tokens)
            # the surplus discard ends the turn's play: only F.M.C. shows may follow it
            self.event(position, event, tokens,
                       last=all("show" in later for later in events[k + 1:]))
            if self.winner is None and self.tables[position].completed() == len(STEPS):
                self.win(position, "steps")
            if self.rec.enabled:
                notes.event(self, event)
        if self.winner is None and hand.size() > HAND_LIMIT:
            self.fail("hand-limit", msg("cube.hand-limit", name=self.names[position],
                                        count=hand.size(), limit=HAND_LIMIT), *base)

    def win(self, position: int, how: str) -> None:
        self.winner, self.won_by, self.won_turn = position, how, self.turn

    def draw_cards(self, position: int, cards: list[str | None], wanted: int,
                   *tokens: Any) -> None:
        """Draw ``wanted`` cards (fewer only when the pile and both discards run out)."""
        know = self.know
        available = know.pile_size() + (0 if know.pile_size() >= wanted
                                        else len(know.left) + len(know.right))
        expected = min(wanted, available)
        if len(cards) != expected:
            key = "cube.draw-count" if expected == wanted else "cube.draw-count-all"
            self.fail("bad-draw", msg(key, name=self.names[position], count=len(cards),
                                      expected=expected), *tokens)
        for k, card in enumerate(cards):
            if know.pile_size() == 0:
                reshuffled = know.reshuffle()
                if self.rec.enabled:
                    notes.reshuffle(self, reshuffled)
            self.draw_one(position, card, *tokens, k)

    def lay(self, position: int, cards: list[str], *tokens: Any) -> None:
        hand, table = self.know.hands[position], self.tables[position]
        discarded: list[str] = []
        for k, card in enumerate(cards):
            self.check_card(card, *tokens, k)
            if category(card) != CUBE:
                self.fail("bad-lay", msg("cube.lay-not-cube", card=card), *tokens, k)
            card = self.take(hand, card, *tokens, k)
            if kind(card) in table.steps:
                self.know.right.append(card)
                discarded.append(card)
            else:
                table.steps[kind(card)] = Step(card)
        for card in hand.known:
            if category(card) == CUBE:
                self.fail("bad-lay", msg("cube.lay-held", name=self.names[position],
                                         card=card), *tokens)
        if hand.slots and not self.know.forbid(hand, BIT[CUBE]):
            self.fail("bad-lay", msg("cube.lay-hidden", name=self.names[position]), *tokens)
        if self.rec.enabled and cards:
            notes.lay(self, list(cards), discarded)

    def take(self, hand: Hand, card: str, *tokens: Any, who: int | None = None) -> str:
        """A player (the current one unless ``who``) takes ``card`` from their own hand (to play,
        lay, give...); the id it is known by from now on."""
        held = self.know.remove(hand, card)
        if held is None:
            taker = self.current if who is None else who
            assert taker is not None  # (without ``who``: a turn is under way)
            name = self.names[taker]
            self.fail("not-in-hand", msg("cube.not-held", name=name, card=card,
                                         why=self.why_not_there(card, hand)), *tokens)
        return held

    # --- events ----------------------------------------------------------------------------------

    def event(self, position: int, event: Mapping[str, Any], tokens: tuple, *,
              last: bool) -> None:
        if "play" in event:
            self.play(position, event, tokens)
        elif "discard" in event:
            self.discard(position, event["discard"], tokens, last=last)
        else:
            shower = position
            if event.get("player") is not None:  # any player may show, at any moment
                shower = self.player(event["player"], *tokens, "player")
            self.show(shower, event["show"], tokens)

    def discard(self, position: int, cards: list[str], tokens: tuple, *, last: bool) -> None:
        hand = self.know.hands[position]
        surplus = hand.size() - HAND_LIMIT
        if surplus <= 0:
            self.fail("bad-discard", msg("cube.discard-small-hand", limit=HAND_LIMIT,
                                         name=self.names[position], count=hand.size()),
                      *tokens, "discard")
        if not last:
            self.fail("bad-discard", msg("cube.discard-not-last"), *tokens, "discard")
        if len(cards) != surplus:
            self.fail("bad-discard", msg("cube.discard-count", name=self.names[position],
                                         count=hand.size(), surplus=surplus, given=len(cards)),
                      *tokens, "discard")
        for k, card in enumerate(cards):
            self.check_card(card, *tokens, "discard", k)
            self.know.right.append(self.take(hand, card, *tokens, "discard", k))

    def show(self, position: int, cards: list[str], tokens: tuple) -> None:
        if self.fmc is None:
            self.fail("bad-fmc", msg("cube.fmc-undeclared"), *tokens, "show")
        if len(cards) != len(FMC_MARKS):
            self.fail("bad-fmc", msg("cube.fmc-count", count=len(FMC_MARKS), given=len(cards)),
                      *tokens, "show")
        hand = self.know.hands[position]
        for k, card in enumerate(cards):  # a card not held is not-in-hand, whatever its mark
            self.check_card(card, *tokens, "show", k)
            if self.know.reveal(hand, card) is None:
                self.fail("not-in-hand", msg("cube.not-held", name=self.names[position],
                                             card=card, why=self.why_not_there(card, hand)),
                          *tokens, "show", k)
        for k, card in enumerate(cards):  # held: in the order of the marks
            if self.fmc.get(card) != k:
                mark = self.fmc.get(card)
                what = (msg("cube.fmc-no-mark") if mark is None
                        else msg("cube.fmc-the-mark", mark=mark_word(FMC_MARKS[mark])))
                self.fail("bad-fmc", msg("cube.fmc-order", position=k + 1,
                                         mark=mark_word(FMC_MARKS[k]), card=card, what=what),
                          *tokens, "show", k)
        self.win(position, "fmc")

    # --- the outcome -----------------------------------------------------------------------------

    def outcome(self) -> dict[str, Any]:
        names = self.names
        return {
            "winners": None if self.winner is None else [names[self.winner]],
            "won_by": self.won_by,
            "turn": self.won_turn,
            "round": None if self.won_turn is None else (self.won_turn - 1) // len(names) + 1,
            "steps": {name: table.snapshot() for name, table in zip(names, self.tables)},
            "completed": {name: table.completed() for name, table in zip(names, self.tables)},
        }

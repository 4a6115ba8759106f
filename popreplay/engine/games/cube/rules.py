"""Replaying a cube log: the setup, the turns, the win. Every check in the order of
``docs/rules/cube.md``; the GAME cards and TIMERs are in ``effects.py``.

The replay raises :class:`RuleViolation` at the first violation. Steps are built only when a
recorder asks for them.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...pointer import pointer
from ...players import by_player, index_players, player_position
from ...replay import RuleViolation, StepRecorder, Violation
from . import notes
from .cards import CUBE, DEAL, FMC_MARKS, HAND_LIMIT, STEPS, category, deck, decks, is_kind, kind
from .effects import Effects
from .knowledge import BIT, Hand, Knowledge
from .steps import Step, Table

MODE = "standard"
MIN_PLAYERS, MAX_PLAYERS = 2, 4




def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


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

    def fail(self, code: str, message: str, *tokens: Any) -> None:
        raise RuleViolation(Violation(code, message, pointer(*tokens), self.round, self.turn))

    def check_card(self, card: str, *tokens: Any) -> None:
        """A card is named by a numbered id of this deck or by its kind alone (``ORANGE``)."""
        if card not in self.cards and not is_kind(card):
            self.fail("unknown-card", f"there is no card {card!r} in the {len(self.cards)}-card "
                      f"deck of a {len(self.names)}-player game", *tokens)

    def where(self, card: str) -> str:
        return self.know.locate(card, self.names, self.tables)

    def player(self, name: str, *tokens: Any) -> int:
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
                self.fail("bad-deck", f"the F.M.C. marks do not say which card is {mark!r}",
                          "deck", "fmc")
            if len(cards) != per_mark:
                verb = "carries" if per_mark == 1 else "carry"
                self.fail("bad-deck", f"{plural(per_mark, 'card')} {verb} the mark {mark!r} with "
                          f"{len(self.names)} players; the deck names {len(cards)}",
                          "deck", "fmc", mark)
            for k, card in enumerate(cards):
                if card not in self.cards:  # a marked copy is told apart: named by its id
                    self.fail("unknown-card", f"there is no card {card!r} in the "
                              f"{len(self.cards)}-card deck of a {len(self.names)}-player game",
                              "deck", "fmc", mark, k)
                if card in self.fmc:
                    self.fail("duplicate-card", f"{card} carries two F.M.C. marks",
                              "deck", "fmc", mark, k)
                self.fmc[card] = mark_index

    def deal(self, dealt: Mapping[str, list[str | None]]) -> None:
        hands = by_player(self.names, self.index, dealt, "deal", duplicate="bad-deal",
                          twice="{name}'s hand is given twice", round=self.round, turn=self.turn)
        for position, name in enumerate(self.names):
            if position not in hands:
                self.fail("bad-deal", f"the deal does not give {name}'s hand", "deal")
            key, cards = hands[position]
            if len(cards) != DEAL:
                self.fail("bad-deal", f"{name} is dealt {plural(len(cards), 'card')}; the deal "
                          f"is {DEAL}", "deal", key)
            for k, card in enumerate(cards):
                self.draw_one(position, card, "deal", key, k)
        if self.rec.enabled:
            notes.deal(self)

    def draw_one(self, position: int, card: str | None, *tokens: Any) -> None:
        if card is not None:
            self.check_card(card, *tokens)
        know = self.know
        if not know.draw(know.hands[position], card):
            self.fail("duplicate-card", f"{card} cannot be drawn: {self.why_not_there(card)}",
                      *tokens)

    def why_not_there(self, card: str, hand: Hand | None = None) -> str:
        """Why no deal puts ``card`` in the draw pile (or in ``hand``'s hidden cards)."""
        know = self.know
        token = know.token(card)
        if not know.free.get(token):
            return f"it is {self.where(card)}"
        if hand is not None and not any(slot.mask & BIT[category(token)] for slot in hand.slots):
            held = ", ".join(hand.known) or "nothing"
            return f"the hand is known ({held}) and holds no {kind(card)}"
        if hand is None and not know.in_pile(card):
            if know.pile_group:
                return ("it is not in the draw pile, which holds only the cards of the last "
                        "reshuffle")
            return "every free copy of it is in a hand, not in the draw pile"
        return ("no deal of the unseen cards puts it there together with what the log has "
                "shown of them")

    # --- one turn --------------------------------------------------------------------------------

    def play_turn(self, index: int, turn: Mapping[str, Any]) -> None:
        n = len(self.names)
        self.turn, self.round = index + 1, index // n + 1
        base = ("turns", index)
        if self.winner is not None:
            self.fail("after-game-end", f"turn {self.turn} comes after the end of the game "
                      f"({self.names[self.winner]} won on turn {self.won_turn})", *base)
        position = self.player(turn["player"], *base, "player")
        if position != index % n:
            self.fail("wrong-player", f"turn {self.turn} is {self.names[index % n]}'s, "
                      f"not {self.names[position]}'s", *base, "player")
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
                self.fail("after-game-end", f"{self.names[self.winner]} has already won",
                          *tokens)
            self.event(position, event, tokens, last=k == len(events) - 1)
            if self.winner is None and self.tables[position].completed() == len(STEPS):
                self.win(position, "steps")
            if self.rec.enabled:
                notes.event(self, event)
        if self.winner is None and hand.size() > HAND_LIMIT:
            self.fail("hand-limit", f"{self.names[position]} ends the turn with "
                      f"{hand.size()} cards; the surplus over {HAND_LIMIT} goes to the right "
                      "discard", *base)

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
            why = "" if expected == wanted else " (all that the pile and the discards hold)"
            self.fail("bad-draw", f"{self.names[position]} draws {len(cards)}; the rules say "
                      f"{expected}{why}", *tokens)
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
                self.fail("bad-lay", f"{card} is not a CUBE card: only CUBE cards are laid at "
                          "the start of the turn", *tokens, k)
            card = self.take(hand, card, *tokens, k)
            if kind(card) in table.steps:
                self.know.right.append(card)
                discarded.append(card)
            else:
                table.steps[kind(card)] = Step(card)
        for card in hand.known:
            if category(card) == CUBE:
                self.fail("bad-lay", f"{self.names[position]} holds {card}: every CUBE card "
                          "in hand goes to the table at the start of the turn", *tokens)
        if hand.slots and not self.know.forbid(hand, BIT[CUBE]):
            self.fail("bad-lay", f"{self.names[position]}'s hidden cards would have to hold a "
                      "CUBE card (no deal of the unseen cards fits what the log has shown), and "
                      "every CUBE card in hand goes to the table at the start of the turn",
                      *tokens)
        if self.rec.enabled and cards:
            notes.lay(self, list(cards), discarded)

    def take(self, hand: Hand, card: str, *tokens: Any, who: int | None = None) -> str:
        """A player (the current one unless ``who``) takes ``card`` from their own hand (to play,
        lay, give...); the id it is known by from now on."""
        held = self.know.remove(hand, card)
        if held is None:
            name = self.names[self.current if who is None else who]
            self.fail("not-in-hand", f"{name} does not hold {card}: "
                      f"{self.why_not_there(card, hand)}", *tokens)
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
            self.fail("bad-discard", f"only a hand of more than {HAND_LIMIT} cards discards; "
                      f"{self.names[position]} holds {hand.size()}", *tokens, "discard")
        if not last:
            self.fail("bad-discard", "the surplus is discarded at the end of the turn: the "
                      "discard is the turn's last event", *tokens, "discard")
        if len(cards) != surplus:
            self.fail("bad-discard", f"{self.names[position]} holds {hand.size()} cards and "
                      f"discards {surplus}, not {len(cards)}", *tokens, "discard")
        for k, card in enumerate(cards):
            self.check_card(card, *tokens, "discard", k)
            self.know.right.append(self.take(hand, card, *tokens, "discard", k))

    def show(self, position: int, cards: list[str], tokens: tuple) -> None:
        if self.fmc is None:
            self.fail("bad-fmc", "the deck does not declare which cards carry the F.M.C. "
                      "marks, so the F.M.C. win cannot be claimed", *tokens, "show")
        if len(cards) != len(FMC_MARKS):
            self.fail("bad-fmc", f"the F.M.C. is shown with {len(FMC_MARKS)} cards, not "
                      f"{len(cards)}", *tokens, "show")
        hand = self.know.hands[position]
        for k, card in enumerate(cards):
            self.check_card(card, *tokens, "show", k)
            if self.fmc.get(card) != k:
                mark = self.fmc.get(card)
                what = "no F.M.C. mark" if mark is None else f"the mark {FMC_MARKS[mark]!r}"
                self.fail("bad-fmc", f"card {k + 1} of the F.M.C. must carry the mark "
                          f"{FMC_MARKS[k]!r}; {card} carries {what}", *tokens, "show", k)
            if self.know.reveal(hand, card) is None:
                self.fail("not-in-hand", f"{self.names[position]} does not hold {card}: "
                          f"{self.why_not_there(card, hand)}", *tokens, "show", k)
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

"""Replaying a slap log: every check in the order ``docs/rules/slap.md`` gives.

The replay raises :class:`RuleViolation` at the first violation; ``SlapGame.replay`` turns that
into an ``illegal`` result. Notes and states are only built when a recorder asks for them.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...messages import Msg, msg
from ...pointer import pointer
from ...players import by_player, index_players, player_position
from ...replay import RuleViolation, StepRecorder, Violation
from . import notes
from .messages import card as card_word
from .cards import DECK_SIZE, challenge_size, is_card
from .hidden import ELSEWHERE
from .modes import MAX_PLAYERS, MIN_PLAYERS, PENALTY, even_deal
from .table import (
    CENTRAL,
    LONE_RAINBOW,
    RAINBOW_ON_SHADOW,
    SHADOW_ON_SHADOW,
    SHADOW_TRAP,
    WINS_CENTRAL,
    Challenge,
    Table,
    Window,
    conditions,
)




class SlapReplay:
    def __init__(self, log: Mapping[str, Any], recorder: StepRecorder) -> None:
        self.log = log
        self.rec = recorder
        self.mode: str = log["mode"]
        self.names: list[str] = list(log["players"])
        self.index: dict[str, int] = {}
        self.table = Table(len(self.names))
        self.window: Window | None = None
        self.previous: Window | None = None  # the card one flip covers: a missed slap is claimable
        self.challenge: Challenge | None = None
        self.next_from = 0  # no challenge: the next flipper is the first from here with cards
        self.round = 1  # the central pile's number: a new one starts each time the pile is taken
        self.turn = 0  # flips in this round
        self.flips = 0
        self.slaps = 0
        self.ended_by: str | None = None
        self.winners: list[int] | None = None

    # --- violations ------------------------------------------------------------------------------

    def fail(self, code: str, message: Msg, *tokens: Any, round: int | None = None,
             turn: int | None = None) -> None:
        raise RuleViolation(Violation(code, message, pointer(*tokens), round, turn))

    # --- the whole log ---------------------------------------------------------------------------

    def run(self) -> str:
        self.start()
        for number, event in enumerate(self.log["events"]):
            self.apply(number, event)
        if self.would_stall():
            self.close_window()
            self.settle_stall()
        return self.status()

    def status(self) -> str:
        return "complete" if self.ended_by is not None else "incomplete"

    def start(self) -> None:
        self.check_players()
        self.deal(self.log.get("deal"))
        if self.rec.enabled:
            notes.deal(self)

    def check_players(self) -> None:
        self.index = index_players(self.names, low=MIN_PLAYERS, high=MAX_PLAYERS, what="slap")

    def position(self, name: str, *tokens: Any, round: int | None = None,
                 turn: int | None = None) -> int:
        return player_position(self.index, name, *tokens, round=round, turn=turn)

    # --- the deal --------------------------------------------------------------------------------

    def deal(self, deal: Mapping[str, Any] | None) -> None:
        table = self.table
        if deal is None:
            for position, count in enumerate(even_deal(len(self.names))):
                for _ in range(count):
                    table.deal(position, table.hidden.slot())
            return
        given = by_player(self.names, self.index, deal, "deal", duplicate="bad-deal",
                          twice="slap.pile-twice")
        counts = []
        for position, name in enumerate(self.names):
            if position not in given:
                self.fail("bad-deal", msg("slap.deal-missing", name=name), "deal")
            key, pile = given[position]
            if isinstance(pile, int):
                if pile < 0:
                    self.fail("bad-deal", msg("slap.deal-negative", name=name, count=pile),
                              "deal", key)
                for _ in range(pile):
                    table.deal(position, table.hidden.slot())
                counts.append(pile)
                continue
            for k, card in enumerate(pile):
                if card is None:
                    table.deal(position, table.hidden.slot())
                    continue
                self.check_card(card, "deal", key, k)
                table.hidden.seen.add(card)
                table.deal(position, card)
            counts.append(len(pile))
        if sum(counts) != DECK_SIZE:
            self.fail("bad-deal", msg("slap.deal-total", count=sum(counts), deck=DECK_SIZE),
                      "deal")
        expected = even_deal(len(self.names))
        if counts != expected:
            self.fail("bad-deal", msg("slap.deal-uneven", expected=list(expected),
                                      counts=list(counts)), "deal")

    def check_card(self, card: Any, *tokens: Any, round: int | None = None,
                   turn: int | None = None) -> None:
        """A card the deal names: a real card, not named before."""
        if not is_card(card):
            self.fail("unknown-card", msg("slap.unknown-card", card=card),
                      *tokens, round=round, turn=turn)
        if card in self.table.hidden.seen:
            self.fail("duplicate-card", msg("slap.card-twice", card=card_word(card)),
                      *tokens, round=round, turn=turn)

    # --- events ----------------------------------------------------------------------------------

    def apply(self, number: int, event: Mapping[str, Any]) -> None:
        if self.ended_by is not None:
            why = msg("slap.after-end.time" if self.ended_by == "time"
                      else "slap.after-end.last-player")
            self.fail("after-game-end", msg("slap.after-end", event=number + 1, why=why),
                      "events", number, round=self.round, turn=self.turn or None)
        if "flip" in event:
            self.flip(number, event)
        elif "slap" in event:
            self.slap(number, event)
        else:
            self.time_up(number)

    def expected_flipper(self) -> int | None:
        if self.challenge is not None:
            return self.challenge.player
        return self.table.next_with_cards(self.next_from)

    def flip(self, number: int, event: Mapping[str, Any]) -> None:
        base = ("events", number)
        at = {"round": self.round, "turn": self.turn + 1}
        player = self.position(event["flip"], *base, "flip", **at)
        if not self.table.is_in(player):
            self.fail("player-out", msg("slap.out-cannot-flip", name=self.names[player]),
                      *base, "flip", **at)
        self.close_window()
        at = {"round": self.round, "turn": self.turn + 1}
        if self.settle_stall():
            self.fail("after-game-end", msg("slap.stalled"), *base, **at)
        expected = self.expected_flipper()
        if player != expected:
            self.fail("out-of-turn", self.whose_turn(player, expected), *base, "flip", **at)
        card = event["card"]
        if not is_card(card):
            self.check_card(card, *base, "card", **at)
        top = self.table.piles[player][0]
        why = self.table.flip(player, card)
        if why is not None:
            self.flip_failed(player, top, card, why, *base, "card", **at)
        self.flips += 1
        self.turn += 1
        self.previous = self.window if self.window is not None and not self.window.taken else None
        self.window = Window(card, player, self.round, self.turn, conditions(self.table.central))
        self.after_flip(player, card)
        if self.rec.enabled:
            notes.flip(self, player, card)

    def flip_failed(self, player: int, top: Any, card: str, why: str, *tokens: Any,
                    round: int, turn: int) -> None:
        """The code of a flip that names a card that cannot be there (docs/rules/slap.md, "Hidden
        cards"): a certain top card (named by the deal, or the last card left of a won set) makes
        any other card `wrong-card`; otherwise a card seen elsewhere is `duplicate-card`, and a
        card never seen where only won cards can be is `wrong-card`."""
        name, hidden = self.names[player], self.table.hidden
        known = top if isinstance(top, str) else hidden.certain(top)
        if known is not None:
            self.fail("wrong-card", msg("slap.top-known", name=name, top=card_word(known),
                                        card=card_word(card)), *tokens, round=round, turn=turn)
        if card not in hidden.seen:
            options: list = [card_word(c) for c in hidden.possible(top)]
            if hidden.takes_free(top):
                options.append(msg("slap.not-seen-yet"))
            self.fail("wrong-card", msg("slap.top-won-together", name=name, options=options,
                                        card=card_word(card)), *tokens, round=round, turn=turn)
        if why == ELSEWHERE:
            self.fail("duplicate-card", msg("slap.card-twice", card=card_word(card)),
                      *tokens, round=round, turn=turn)
        self.fail("duplicate-card", msg("slap.cannot-be-on-pile", card=card_word(card),
                                        name=name), *tokens, round=round, turn=turn)

    def whose_turn(self, player: int, expected: int | None) -> Msg:
        name = self.names[player]
        if expected is None:
            return msg("slap.nobody-can-flip", name=name)
        if not self.table.counts[player]:
            return msg("slap.no-cards-to-flip", name=name, expected=self.names[expected])
        challenge = self.challenge
        if challenge is not None:
            return msg("slap.challenge-turn", expected=self.names[expected], left=challenge.left,
                       setter=self.names[challenge.setter], name=name)
        return msg("slap.turn", expected=self.names[expected], name=name)

    def after_flip(self, player: int, card: str) -> None:
        """Who flips next: a 1–5 sets or passes a challenge; a challenge card counts down."""
        size = challenge_size(card)
        if self.challenge is not None:
            self.challenge.left -= 1
        if size:
            answer = self.table.next_with_cards(player + 1, exclude=player)
            self.challenge = Challenge(player, answer, size, size)
        elif self.challenge is None:
            self.next_from = player + 1

    # --- closing a slap window -------------------------------------------------------------------

    def close_window(self) -> None:
        """What the next flip (or the end of time) settles: the lone rainbow's penalties, then a
        challenge that was answered without a 1–5 (or cannot be answered)."""
        window = self.window
        if window is None or window.closed:
            return
        window.closed = True
        if LONE_RAINBOW in window.conditions:
            self.rainbow_penalties(window)
        challenge = self.challenge
        if challenge is None:
            return
        answer = challenge.player
        if answer is None or challenge.left == 0 or not self.table.counts[answer]:
            self.challenge = None
            setter = challenge.setter
            back = self.table.waiting(setter)
            cards = self.table.win(setter, central=True)["central"]
            self.next_from = setter
            if self.rec.enabled:
                notes.challenge_won(self, challenge, cards, back=back)
            self.new_round()

    def rainbow_payers(self, window: Window) -> list[int]:
        """Who pays for a lone rainbow: everyone who did not slap it; if all did, the last."""
        players = self.table.still_in()
        slapped = window.slapped
        if len(slapped) == len(players):
            return [slapped[-1]]
        return [p for p in players if p not in slapped]

    def rainbow_penalties(self, window: Window) -> None:
        slapped, players = window.slapped, self.table.still_in()
        paid = {p: self.table.pay(p, PENALTY) for p in self.rainbow_payers(window)}
        if self.rec.enabled:
            notes.rainbow_penalties(self, window, paid, all_slapped=len(slapped) == len(players))

    def would_stall(self) -> bool:
        """Would closing the open window leave nobody in the game with a card to flip?"""
        if self.ended_by is not None or self.challenge is not None:
            return False
        counts = list(self.table.counts)
        window = self.window
        if window is not None and not window.closed and LONE_RAINBOW in window.conditions:
            for position in self.rainbow_payers(window):
                counts[position] -= min(PENALTY, counts[position])
        return not any(counts[p] for p in self.table.still_in())

    def settle_stall(self) -> bool:
        """After a window closed: nobody in the game holds a card, so nobody can flip again and
        the game ends with no winner."""
        if self.ended_by is not None or self.challenge is not None:
            return False
        if any(self.table.counts[p] for p in self.table.still_in()):
            return False
        self.ended_by = "no-cards"
        self.winners = []
        if self.rec.enabled:
            notes.stalled(self)
        return True

    def new_round(self) -> None:
        """The central pile was taken: its cards (the open one and the one it covers) can no
        longer be won; a card already won keeps its window, so later slaps on it stay late."""
        for window in (self.window, self.previous):
            if window is not None:
                window.taken = True
        self.round += 1
        self.turn = 0

    # --- slaps -----------------------------------------------------------------------------------

    def slap(self, number: int, event: Mapping[str, Any]) -> None:
        base = ("events", number)
        window = self.window
        at = ({"round": window.round, "turn": window.turn} if window is not None
              else {"round": self.round, "turn": None})
        player = self.position(event["slap"], *base, "slap", **at)
        if not self.table.is_in(player):
            self.fail("player-out", msg("slap.out-cannot-slap", name=self.names[player]),
                      *base, "slap", **at)
        self.slaps += 1
        pile = event.get("pile") or CENTRAL
        result = self.judge(player, pile)
        if self.rec.enabled:
            notes.slap(self, player, pile, result)

    def judge(self, player: int, pile: str) -> dict[str, Any]:
        """Decide one slap, in the order hands landed; returns what happened (for the step)."""
        window = self.window
        if window is not None and SHADOW_TRAP in window.conditions:
            return self.wrong(player, window)  # the trap is absolute: every slap on it pays
        if window is not None and window.on(pile):
            if window.rewarding and window.won_by is None and not window.taken:
                if LONE_RAINBOW in window.conditions:
                    window.slapped.append(player)
                return self.win(player, window, claimed=False)
            if LONE_RAINBOW in window.conditions and player not in window.slapped:
                window.slapped.append(player)
                if len(window.slapped) == 1:
                    return self.first_on_rainbow(player, window)
                return {"result": "valid", "conditions": list(window.conditions)}
            return {"result": "late", "conditions": list(window.conditions)}
        missed = self.previous
        if missed is not None and any(c in missed.rewarding for c in missed.on(pile)):
            if missed.won_by is None and not missed.taken:
                return self.win(player, missed, claimed=True)
            if missed.claimed:  # a claimed card is won: every later slap on it is late
                return {"result": "late", "conditions": list(missed.conditions)}
        return self.wrong(player, window)

    def wrong(self, player: int, window: Window | None) -> dict[str, Any]:
        """A slap with no condition on the slapped pile: 2 cards to the Folies pile."""
        was_waiting = self.table.waiting(player)
        paid = self.table.pay(player, PENALTY)
        return {"result": "wrong", "conditions": list(window.conditions) if window else [],
                "paid": paid, "waiting": was_waiting}

    def first_on_rainbow(self, player: int, window: Window) -> dict[str, Any]:
        """The first slap on a lone rainbow is a valid slap that wins nothing: it interrupts a
        running challenge at once (nobody takes the central pile; the player after the rainbow's
        flipper flips next), and it is the next valid occasion of the players without cards:
        the slapper keeps their last chance, every other one is eliminated."""
        table = self.table
        waiting = [p for p in table.still_in() if p != player and table.waiting(p)]
        table.eliminated.extend(waiting)
        interrupted = self.challenge is not None
        if interrupted:
            self.challenge = None
            self.next_from = window.flipper + 1
        if len(table.still_in()) == 1:
            self.ended_by = "elimination"
            self.winners = table.still_in()
        return {"result": "valid", "conditions": list(window.conditions), "first": True,
                "interrupted": interrupted, "eliminated": [self.names[p] for p in waiting]}

    def win(self, player: int, window: Window, *, claimed: bool) -> dict[str, Any]:
        """The first valid slap: every reward of the card, in the rulebook's order."""
        table = self.table
        window.won_by = player
        window.claimed = claimed
        was_waiting = table.waiting(player)
        waiting = [p for p in table.still_in() if p != player and table.waiting(p)]
        gained = table.win(player, central=any(c in window.conditions for c in WINS_CENTRAL),
                           others=SHADOW_ON_SHADOW in window.conditions,
                           folies=RAINBOW_ON_SHADOW in window.conditions)
        table.eliminated.extend(waiting)
        self.challenge = None
        self.next_from = player
        result = {"result": "won", "conditions": list(window.conditions), "claimed": claimed,
                  "gained": gained, "eliminated": [self.names[p] for p in waiting],
                  "back_in": was_waiting and bool(table.counts[player])}
        if "central" in gained:
            self.new_round()
        if len(table.still_in()) == 1:
            self.ended_by = "elimination"
            self.winners = table.still_in()
        return result

    # --- the end of time -------------------------------------------------------------------------

    def time_up(self, number: int) -> None:
        if self.mode != "timed":
            self.fail("bad-event", msg("slap.time-not-timed"), "events", number,
                      round=self.round, turn=self.turn or None)
        self.close_window()
        if self.settle_stall():
            return
        counts = self.table.counts
        players = self.table.still_in()
        best = max(counts[p] for p in players)
        self.winners = [p for p in players if counts[p] == best]
        self.ended_by = "time"
        if self.rec.enabled:
            notes.time_up(self)

    # --- the outcome -----------------------------------------------------------------------------

    def outcome(self) -> dict[str, Any]:
        names, table = self.names, self.table
        return {
            "winners": None if self.winners is None else [names[p] for p in self.winners],
            "ended_by": self.ended_by,
            "cards": {name: table.counts[p] for p, name in enumerate(names)},
            "eliminated": [names[p] for p in table.eliminated],
            "central_pile": len(table.central),
            "folies_pile": len(table.folies),
            "flips": self.flips,
            "slaps": self.slaps,
        }

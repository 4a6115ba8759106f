"""A POP! round's setup: the layout, the dealt hands, the cards kept at its end (``spec/pop.md``
section 6, before and after the turns)."""

from __future__ import annotations

from typing import Mapping

from ...messages import msg
from .cards import QUEUES, is_card
from .grid import Area
from .modes import PUZZLE_MIN_HAND
from .state import PopState, Round


class RoundSetup(PopState):
    """The checks of a round's setup (:class:`~.rules.PopReplay` plays the turns between)."""

    def check_layout(self, rnd: Round, layout: list[list[int | None]], index: int) -> None:
        number = rnd.number
        rows = self.mode.layout_rows(self.difficulty)
        puzzle = rows is None
        seen = rnd.seen
        if not puzzle and len(layout) != rows:
            self.fail("bad-setup",
                      msg("pop.layout-rows", mode=self.mode_word, rows=rows, count=len(layout)),
                      "rounds", index, "layout", round=number)
        for r, row in enumerate(layout):
            for c, card in enumerate(row):
                if card is None:
                    if not puzzle:
                        self.fail("bad-setup", msg("pop.layout-gap", row=r + 1, queue=QUEUES[c]),
                                  "rounds", index, "layout", r, c, round=number)
                    continue
                if 1 <= card <= 50 and card not in seen:
                    seen.add(card)
                else:
                    self.check_card(rnd, card, "rounds", index, "layout", r, c)
        if puzzle:
            for r, row in enumerate(layout[:-1]):
                for c, card in enumerate(row):
                    if card is not None and layout[r + 1][c] is None:
                        self.fail("bad-setup", msg("pop.layout-floats", card=card, queue=QUEUES[c]),
                                  "rounds", index, "layout", r, c, round=number)
            if not rnd.seen:
                self.fail("bad-setup", msg("pop.layout-empty"),
                          "rounds", index, "layout", round=number)
        rnd.area = Area(layout)
        rnd.layout_cards = set(rnd.seen)
        pair = rnd.area.touching_pair()
        if pair is not None:
            (c1, r1), (c2, r2) = pair
            first, second = rnd.area.card_at(c1, r1), rnd.area.card_at(c2, r2)
            self.fail("bad-setup", msg("pop.layout-touch", first=first, second=second),
                      "rounds", index, "layout", r1, c1, round=number)

    def check_hands(self, rnd: Round, hands: Mapping[str, list[int]], index: int) -> None:
        if hands.keys() == self.name_set:  # each key is its player's own name: no lookup
            entries = [(name, hands[name]) for name in self.names]
        else:
            named = self.named(hands, "bad-hand", "rounds", index, "hands", round=rnd.number)
            entries = []
            for position, name in enumerate(self.names):
                if position not in named:
                    self.fail("bad-hand", msg("pop.hand-missing", name=name),
                              "rounds", index, "hands", name, round=rnd.number)
                entries.append(named[position])
        size = self.mode.hand_size
        rnd.hands = []
        for name, (key, cards) in zip(self.names, entries):
            if size is not None and len(cards) != size:
                self.fail("bad-hand", msg("pop.hand-size", name=name, count=len(cards),
                                          mode=self.mode_word, size=size),
                          "rounds", index, "hands", key,
                          round=rnd.number)
            if size is None and len(cards) < PUZZLE_MIN_HAND:
                self.fail("bad-hand", msg("pop.hand-puzzle-size", name=name, count=len(cards),
                                          size=PUZZLE_MIN_HAND),
                          "rounds", index, "hands", key,
                          round=rnd.number)
            hand = set(cards)
            seen = rnd.seen
            if (len(hand) == len(cards) and hand.isdisjoint(seen)
                    and (not hand or 1 <= min(hand) and max(hand) <= 50)):
                seen |= hand  # every card new and real: what check_card says card by card
            else:
                for k, card in enumerate(cards):
                    self.check_card(rnd, card, "rounds", index, "hands", key, k)
            rnd.hands.append(hand)

    def check_kept(self, rnd: Round, kept: Mapping[str, int], index: int, *,
                   complete: bool) -> None:
        number = rnd.number
        if self.mode.name != "battle":
            self.fail("bad-hand", msg("pop.kept-not-battle"),
                      "rounds", index, "kept", round=number)
        if not complete:
            self.fail("bad-hand", msg("pop.kept-too-early", round=number),
                      "rounds", index, "kept", round=number)
        named = self.named(kept, "bad-hand", "rounds", index, "kept", round=number)
        for position in sorted(named):
            key, card = named[position]
            tokens = ("rounds", index, "kept", key)
            if not is_card(card):
                self.fail("unknown-card", msg("pop.unknown-card", card=card),
                          *tokens, round=number)
            if rnd.hands is not None:
                left = rnd.hands[position]
                if left != {card}:
                    held = sorted(left) or msg("pop.kept-nothing")
                    self.fail("bad-hand", msg("pop.kept-not-left", name=self.names[position],
                                              card=card, left=held), *tokens, round=number)
            elif card in rnd.drawn[position]:  # the card they drew and never played
                rnd.drawn[position].remove(card)
            else:
                self.check_card(rnd, card, *tokens)
                if not rnd.free[position]:  # one card is left, and it is the one they drew
                    self.fail("bad-hand", msg("pop.kept-not-drawn", name=self.names[position],
                                              card=card, drawn=rnd.drawn[position][0]),
                              *tokens, round=number)
                rnd.free[position] -= 1
            self.kept[index][position] = card

    def known_kept(self, rnd: Round, kept: list[int | None]) -> None:
        """Hands not tracked: fill in each card left in hand after a complete battle round that no
        assignment of the unseen cards can change: the one card a player drew (recorded) and
        never played; else, when a single kept card is unknown, the one card the round never
        showed (a 5-player round deals the whole deck)."""
        for position, drawn in enumerate(rnd.drawn):
            if kept[position] is None and len(drawn) == 1 and not rnd.free[position]:
                kept[position] = drawn[0]
        unknown = [position for position, card in enumerate(kept) if card is None]
        if len(unknown) == 1 and len(rnd.seen) == 49:
            kept[unknown[0]] = next(c for c in range(1, 51) if c not in rnd.seen)

"""Replaying a POP! log: every check in the order ``spec/pop.md`` section 6 gives.

The replay raises :class:`RuleViolation` at the first violation; ``PopGame.replay`` turns that into
an ``illegal`` result. Steps are only built when a recorder asks for them, so the plain replay stays
on a fast path.
"""

from __future__ import annotations

from itertools import product
from typing import Any, Mapping, NoReturn, Sequence

from ...messages import Msg, msg
from ...players import index_players
from ...replay import RuleViolation
from . import notes
from .cards import ARROW, COLOUR, ICONS
from .grid import STRIDE, touches
from .modes import SOLO_TITLES, coop_level
from .setup import RoundSetup
from .state import Round

CHIEF = None  # the owner of a Chief card
NO_DRAWS: dict = {}  # a turn's draws by position, when it has none (never changed)
ICON_OF = ICONS.__getitem__
ARROW_OF = ARROW.__getitem__


class PopReplay(RoundSetup):
    """The replay of one POP! log (the state and the checks' helpers: :class:`~.state.PopState`;
    a round's setup: :class:`~.setup.RoundSetup`): the rounds, the turns, the outcome."""

    # --- the whole log ---------------------------------------------------------------------------

    def run(self) -> str:
        self.check_players()
        self.check_options()
        rounds = self.log["rounds"]
        if len(rounds) > self.mode.rounds:
            self.fail(
                "too-many-rounds",
                msg("pop.too-many-rounds", mode=self.mode_word, rounds=self.mode.rounds,
                    count=len(rounds)),
                "rounds", self.mode.rounds, round=self.mode.rounds + 1,
            )
        for index, data in enumerate(rounds):
            self.play_round(index, data, last=index == len(rounds) - 1)
        return "complete" if self.is_complete() else "incomplete"

    def run_until_end(self) -> str:
        """Like ``run``, but stop quietly at the turn after the end of a coop or solo game."""
        try:
            return self.run()
        except RuleViolation as stop:
            if stop.violation.code in ("after-game-end", "bad-draw") and self.finished_by:
                return "complete"
            raise

    def check_players(self) -> None:
        mode = self.mode
        self.index = index_players(self.names, low=mode.min_players, high=mode.max_players,
                                   what=self.mode_word)

    def check_options(self) -> None:
        options, mode = self.options, self.mode.name
        if self.variant and not (mode == "battle" and len(self.names) == 2):
            self.fail("bad-option", msg("pop.variant-not-battle-2"),
                      "options", "two_player_variant")
        difficulty = self.difficulty
        if mode == "solo":
            if isinstance(difficulty, bool) or difficulty not in (1, 2, 3, 4):
                self.fail("bad-option", msg("pop.solo-difficulty"),
                          "options", "difficulty")
        elif "difficulty" in options and difficulty is not None:
            self.fail("bad-option", msg("pop.difficulty-not-solo", mode=self.mode_word),
                      "options", "difficulty")

    def is_complete(self) -> bool:
        if self.finished_by is not None:
            return True
        if len(self.rounds) < self.mode.rounds:
            return False
        return self.rounds[-1].turns_placed >= self.turn_limit

    # --- one round -------------------------------------------------------------------------------

    def play_round(self, index: int, data: Mapping[str, Any], *, last: bool) -> None:
        number = index + 1
        rnd = Round(number, len(self.names))
        self.rounds.append(rnd)
        self.kept.append([None] * len(self.names))
        self.check_layout(rnd, data["layout"], index)
        if data.get("hands") is not None:
            self.check_hands(rnd, data["hands"], index)
        else:  # the dealt hands are unseen places (a puzzle hand: any size, as many as needed)
            rnd.free = [self.mode.hand_size or 50] * len(self.names)
        if self.rec.enabled:
            notes.deal(self, rnd)
        turns = data["turns"]
        self.play_turns(rnd, turns, index)
        required = self.turn_limit
        complete = len(turns) >= required
        if data.get("kept") is not None:
            self.check_kept(rnd, data["kept"], index, complete=complete)
        if complete and self.is_battle:
            if rnd.hands is not None:  # the card each hand leaves
                for position, hand in enumerate(rnd.hands):
                    if len(hand) == 1:
                        self.kept[index][position] = next(iter(hand))
            else:
                self.known_kept(rnd, self.kept[index])
        if not last and len(turns) < required:
            missing = required - len(turns)
            which = (msg("pop.missing.turn", turn=required) if missing == 1 else
                     msg("pop.missing.turns", first=len(turns) + 1, last=required)
                     if missing > 2 else
                     msg("pop.missing.two", first=len(turns) + 1, last=required))
            gap = (msg("pop.missing.a-turn") if missing == 1
                   else msg("pop.missing.n-turns", count=missing))
            self.fail("missing-turns",
                      msg("pop.missing-turns", round=number, count=len(turns), required=required,
                          next=number + 1, which=which, missing=missing, gap=gap),
                      "rounds", index, "turns", round=number)
        if self.rec.enabled and (complete or self.finished_by):
            notes.round_end(self, rnd, index)

    # --- one turn --------------------------------------------------------------------------------

    def play_turns(self, rnd: Round, turns: list[Mapping[str, Any]], index: int) -> None:
        """Every turn of the round, in the order of ``spec/pop.md`` section 6: the game must go
        on; draws (2-player variant); the players' cards, the Chief's; the placements, each
        resolved before the next; draws (solo).

        The replay's hot loop, one loop for every turn. The common turn (hands tracked, one held
        card each under the player's own name, no draws before the plays) is taken here in one
        pass; any other turn, or one whose pass fails, leaves the hands as they were and goes
        card by card through ``check_plays``, which also words the violation. ``Round.turns_placed``
        and, for common turns, ``turns_begun`` are counted here and added up when the loop ends
        (nothing reads them in between)."""
        hands, names, positions, owner_of = rnd.hands, self.names, self.positions, self.owner_of
        area, players = rnd.area, len(names)
        heads, cells, colours, resolve = area.heads, area.cells, area.colours, area.resolve
        common = hands is not None and self.one_held
        solo, recording, limit = self.is_solo, self.rec.enabled, self.turn_limit
        collect, per_chief, seen = self.collect, self.per_chief, rnd.seen
        begun = placed = 0
        try:
            for turn_index, turn in enumerate(turns[:limit]):
                if self.finished_by is not None:
                    self.turn_refused(rnd, index, turn_index)
                t = turn_index + 1
                raw = turn.get("plays") or {}
                raw_draws = turn.get("draws")
                owned: list[int] | None = None
                if common and len(raw) == players and (solo or not raw_draws):
                    assert hands is not None  # (common: the hands are tracked)
                    owned = []
                    add = owned.append
                    try:
                        for position, hand, (card,) in zip(positions, hands,
                                                           map(raw.__getitem__, names)):
                            hand.remove(card)
                            owner_of[card] = position
                            add(card)
                    except (TypeError, ValueError, KeyError):  # a key not a name, a play not
                        for card in owned:  # one held card: the hands as they were, card by card
                            hands[owner_of[card]].add(card)  # type: ignore[index]
                        owned = None
                if owned is None:
                    owned, draws = self.check_plays(rnd, turn, raw,
                                                    ("rounds", index, "turns", turn_index), t)
                else:
                    begun += 1
                    draws = self.named(raw_draws, "bad-draw", "rounds", index, "turns",
                                       turn_index, "draws", round=rnd.number,
                                       turn=t) if raw_draws else NO_DRAWS  # (solo: after)
                chief = turn.get("chief") or ()  # the Chief's cards: new cards each
                if len(chief) != per_chief:
                    self.refuse_chief(rnd, chief, None, index, turn_index)
                first = len(owned)
                for card in chief:
                    if not 1 <= card <= 50 or card in seen:
                        self.refuse_chief(rnd, chief, len(owned) - first, index, turn_index)
                    seen.add(card)
                    owner_of[card] = CHIEF
                    owned.append(card)
                owned.sort()  # the placing order, by card (cards are distinct); reversed: 3 arrows
                arrows = sum(map(ARROW_OF, owned))
                if recording:
                    self.place_recorded(rnd, owned, arrows, t)
                else:
                    count = len(owned)
                    for column in range(count - 1, -1, -1) if arrows >= 3 else range(count):
                        card = owned[column]
                        cell = heads[column]  # Area.place, inline; grid.touches: the rule
                        heads[column] = cell + STRIDE
                        cells[cell] = card
                        colour = colours[cell] = COLOUR[card]
                        if touches(colours, cell, colour):
                            waves = resolve(cell)
                            if waves:
                                collect(rnd, owner_of[card], waves, t)
                                if self.finished_by is not None and not self.is_puzzle:
                                    break
                placed += 1
                if solo:
                    self.turns_begun += begun  # (what the solo draws count on)
                    begun = 0
                    self.solo_draws(rnd, draws, ("rounds", index, "turns", turn_index), t)
        finally:
            self.turns_begun += begun
            rnd.turns_placed += placed
        if len(turns) > limit:
            self.turn_refused(rnd, index, limit)

    def solo_draws(self, rnd: Round, draws: dict, base: tuple, t: int) -> None:
        """The cards drawn after a solo turn: up to five, none once the area or the pile is
        empty."""
        pile = 50 - len(rnd.seen) if rnd.hands is not None else self.solo_pile(rnd)
        if self.finished_by == "won" or pile <= 0:
            why = msg("pop.no-draw-empty-area" if self.finished_by else "pop.no-draw-empty-pile")
            self.no_draws(draws, base, t, rnd.number, why)
        else:
            self.draw(rnd, draws, min(5, pile), base, t, required=rnd.hands is not None)

    def turn_refused(self, rnd: Round, index: int, turn_index: int) -> None:
        """A turn after the end of a coop or solo game, or past the mode's last turn."""
        number, t = rnd.number, turn_index + 1
        base = ("rounds", index, "turns", turn_index)
        if self.finished_by is not None:
            why = msg("pop.after-end.lost" if self.finished_by == "lost" else "pop.after-end.won")
            self.fail("after-game-end", msg("pop.after-end", turn=t, why=why),
                      *base, round=number, turn=t)
        self.fail("too-many-turns",
                  msg("pop.too-many-turns", mode=self.mode_word, limit=self.turn_limit),
                  *base, round=number, turn=t)

    def solo_pile(self, rnd: Round) -> int:
        """Cards left in the solo draw pile when hands are not tracked (counted, not known)."""
        return 50 - len(rnd.layout_cards) - 10 - 5 * max(0, self.turns_begun - 1)

    def no_draws(self, draws: dict, base: tuple, t: int, number: int, why: Msg) -> None:
        for position in sorted(draws):
            key, cards = draws[position]
            if cards:
                self.fail("bad-draw", msg("pop.draw-not-allowed", name=self.names[position],
                                          why=why),
                          *base, "draws", key, round=number, turn=t)

    def draw(self, rnd: Round, draws: dict, size: int, base: tuple, t: int, *,
             required: bool) -> None:
        for position, name in enumerate(self.names):
            key, cards = draws.get(position, (name, None))
            if not cards:
                if required:
                    self.fail("bad-draw", msg("pop.draw-missing", name=name),
                              *base, "draws", key, round=rnd.number, turn=t)
                rnd.free[position] += size  # drawn unseen: more unseen places in the hand
                continue
            if len(cards) != size:
                self.fail("bad-draw", msg("pop.draw-count", name=name, count=len(cards),
                                          size=size),
                          *base, "draws", key, round=rnd.number, turn=t)
            for k, card in enumerate(cards):
                self.check_card(rnd, card, *base, "draws", key, k, turn=t)
                if rnd.hands is not None:
                    rnd.hands[position].add(card)
                else:
                    rnd.drawn[position].append(card)
            if self.rec.enabled:
                notes.draw(self, rnd, name, cards, t)

    def check_plays(self, rnd: Round, turn: Mapping[str, Any], raw: Mapping[str, Any],
                    base: tuple, t: int) -> tuple[list[int], dict]:
        """The players' cards of any turn, checked card by card: who plays (the keys), the
        2-player variant's draws, then each player's cards. Returns the cards (their players in
        ``owner_of``) and the turn's draws by position."""
        number = rnd.number
        if raw.keys() == self.name_set:  # each key is its player's own name: nothing to look up
            keys, plays = self.names, list(map(raw.__getitem__, self.names))
        else:
            named = self.named(raw, "wrong-play-count", *base, "plays", round=number, turn=t)
            entries = [named.get(p, (name, None)) for p, name in enumerate(self.names)]
            keys, plays = [key for key, _ in entries], [cards for _, cards in entries]
        raw_draws = turn.get("draws")
        draws = self.named(raw_draws, "bad-draw", *base, "draws", round=number,
                           turn=t) if raw_draws else {}
        self.turns_begun += 1
        if self.variant:
            self.draw(rnd, draws, 1, base, t, required=rnd.hands is not None)
        elif draws and not self.is_solo:
            self.no_draws(draws, base, t, number, msg("pop.no-draws-mode"))
        wanted = self.per_player
        hands, seen = rnd.hands, rnd.seen
        owners: list[int] = []
        add, owner_of = owners.append, self.owner_of
        for position, cards in enumerate(plays):
            if not cards or len(cards) != wanted:
                played = len(cards or ())
                self.fail("wrong-play-count", msg("pop.play-count", name=self.names[position],
                                                  wanted=wanted, turn=t, count=played),
                          *base, "plays", keys[position], round=number, turn=t)
            if hands is not None:
                hand = hands[position]
                for k, card in enumerate(cards):
                    if card in hand:
                        hand.remove(card)
                    elif not 1 <= card <= 50:
                        self.fail("unknown-card", msg("pop.unknown-card", card=card),
                                  *base, "plays", keys[position], k, round=number, turn=t)
                    else:
                        tokens = (*base, "plays", keys[position], k)
                        where = self.where(rnd, card, tokens) or msg("pop.where.not-dealt")
                        self.fail("not-in-hand", msg("pop.not-held", name=self.names[position],
                                                     card=card, where=where),
                                  *tokens, round=number, turn=t)
                    owner_of[card] = position
                    add(card)
                continue
            # Hands not tracked: a card the player drew (recorded) is that card; any other comes
            # from one of the hand's unseen places (dealt, or drawn unseen). Unseen places only
            # add up over a round and any of them can hold any card not seen elsewhere, so using
            # one for each such card as it comes is an exact matching of cards to places: a play
            # is possible iff a place is left (docs/rules/pop.md, "Hidden cards").
            drawn, free = rnd.drawn[position], rnd.free
            if not self.draws_exist:  # no draws: a hand's unseen places never run out
                for k, card in enumerate(cards):  # (turns × cards a turn ≤ the hand)
                    if 1 <= card <= 50 and card not in seen:
                        seen.add(card)
                    else:
                        self.check_card(rnd, card, *base, "plays", keys[position], k, turn=t)
                    owner_of[card] = position
                    add(card)
                continue
            for k, card in enumerate(cards):
                if card in drawn:
                    drawn.remove(card)
                elif 1 <= card <= 50 and card not in seen and free[position]:
                    free[position] -= 1
                    seen.add(card)
                else:
                    tokens = (*base, "plays", keys[position], k)
                    self.check_card(rnd, card, *tokens, turn=t)  # unknown or duplicate?
                    self.fail("not-in-hand", msg("pop.cannot-hold", name=self.names[position],
                                                 card=card, why=self.known_hand(rnd, position)),
                              *tokens, round=number, turn=t)
                owner_of[card] = position
                add(card)
        return owners, draws

    def refuse_chief(self, rnd: Round, chief: Sequence[Any], k: int | None, index: int,
                     turn_index: int) -> NoReturn:
        """The violation of a turn whose Chief plays the wrong count of cards (``k`` is None), or
        whose card ``k`` is not a new card."""
        base, t = ("rounds", index, "turns", turn_index), turn_index + 1
        if k is None:
            why = (msg("pop.chief-count.variant") if self.variant
                   else msg("pop.chief-count.players", count=len(self.names)))
            self.fail("wrong-play-count", msg("pop.chief-count", wanted=self.per_chief, why=why,
                                              turn=t, count=len(chief)),
                      *base, "chief", round=rnd.number, turn=t)
        self.check_card(rnd, chief[k], *base, "chief", k, turn=t)  # unknown, or seen: it fails
        raise AssertionError("a new card was refused")

    def known_hand(self, rnd: Round, position: int) -> Msg:
        """Words for a hand whose every card is known, untracked (``rnd.free`` is 0)."""
        drawn = rnd.drawn[position]
        if not drawn:
            return msg("pop.hand-all-played")
        return msg("pop.hand-only-drawn", cards=sorted(drawn))

    # --- placing ---------------------------------------------------------------------------------

    def place_recorded(self, rnd: Round, owned: list[int], arrows: int, t: int) -> None:
        """The placements of ``play_turns``, with a step for every placement and wave."""
        owners = [(card, self.owner_of[card]) for card in owned]
        order = list(enumerate(owners))
        if arrows >= 3:
            order.reverse()
        area = rnd.area
        rnd.unplaced = [card for _, (card, _) in order]
        notes.reveal(self, rnd, owners, arrows, t)
        for column, (card, owner) in order:
            index = area.place(column, card)
            rnd.unplaced.remove(card)
            placed = area.snapshot()
            snapshots: list = []
            waves = area.resolve(index, snapshots) if area.touches(index) else []
            taken = rnd.pending if waves and owner is not CHIEF else []
            notes.placement(self, rnd, owner, waves, taken, t, placed,
                            (card, column, index // STRIDE - 1))
            self.collect(rnd, owner, waves, t, snapshots=snapshots)
            if self.finished_by is not None and not self.is_puzzle:
                break

    def collect(self, rnd: Round, owner: int | None, waves: list[list[int]], t: int, *,
                snapshots: list | None = None) -> None:
        """Give the exploded cards, wave by wave, to the owner of the placed card (or the Chief).
        A player who collects also takes the Chief's waiting pile (with the first wave)."""
        if snapshots is not None:
            self.collect_recorded(rnd, owner, waves, t, snapshots)
        elif owner is CHIEF:
            for wave in waves:
                rnd.pending.extend(wave)
        else:
            collected = rnd.collected[owner]
            score = 0
            for wave in waves:
                collected.extend(wave)
                score += sum(map(ICON_OF, wave))
            if rnd.pending:
                collected.extend(rnd.pending)
                score += sum(map(ICON_OF, rnd.pending))
                rnd.pending = []
            rnd.scores[owner] += score
        if waves and self.is_coop:
            self.finished_by, self.failed_turn = "lost", t
        if self.is_solo and rnd.area.count == 0:
            self.finished_by = "won"

    def collect_recorded(self, rnd: Round, owner: int | None, waves: list[list[int]], t: int,
                         snapshots: list) -> None:
        """``collect`` with a step for every wave."""
        taken: list[int] = []
        if waves and owner is not CHIEF:
            taken, rnd.pending = rnd.pending, []
        for number, wave in enumerate(waves, start=1):
            gained = wave + taken if number == 1 else wave
            if owner is CHIEF:
                rnd.pending.extend(wave)
            else:
                rnd.collected[owner].extend(gained)
                rnd.scores[owner] += sum(map(ICON_OF, gained))
            notes.wave(self, rnd, owner, number, wave, taken if number == 1 else [], t,
                       snapshots[number - 1])

    # --- the outcome -----------------------------------------------------------------------------

    def outcome(self, status: str) -> dict[str, Any]:
        return getattr(self, f"outcome_{self.mode.name}")(status)

    def outcome_battle(self, status: str) -> dict[str, Any]:
        names = self.names
        rounds = []
        totals = [0] * len(names)
        for index, rnd in enumerate(self.rounds):
            for position, score in enumerate(rnd.scores):
                totals[position] += score
            rounds.append({
                "scores": dict(zip(names, rnd.scores)),
                "collected": dict(zip(names, map(sorted, rnd.collected))),
                "kept": dict(zip(names, self.kept[index])),
                "chief_pending": sorted(rnd.pending),
            })
        winners = tie_break = None
        if status == "complete":
            best = min(totals)
            tied = [p for p, total in enumerate(totals) if total == best]
            if len(tied) > 1:
                kept, seen = self.kept[-1], self.rounds[-1].seen
                unseen = ([] if all(kept[p] is not None for p in tied)
                          else [card for card in range(1, 51) if card not in seen])
                tied, tie_break = break_tie(tied, kept, unseen)
            winners = [names[p] for p in tied]
        return {"rounds": rounds, "totals": dict(zip(names, totals)), "winners": winners,
                "tie_break": tie_break}

    def outcome_coop(self, status: str) -> dict[str, Any]:
        placed = self.rounds[0].turns_placed if self.rounds else 0
        if self.finished_by == "lost":
            assert self.failed_turn is not None  # (a lost game failed at a turn)
            left = 9 - self.failed_turn
            return {"result": "lost", "level": coop_level(left, won=False),
                    "failed_turn": self.failed_turn, "cards_left": left}
        if status == "complete":
            return {"result": "won", "level": coop_level(0, won=True), "failed_turn": None,
                    "cards_left": 0}
        return {"result": None, "level": None, "failed_turn": None, "cards_left": 9 - placed}

    def outcome_solo(self, status: str) -> dict[str, Any]:
        in_play = self.rounds[0].area.count if self.rounds else 0
        result = title = None
        if self.finished_by == "won":
            result = "won"
            assert self.difficulty is not None  # (a solo game without one fails at its start)
            title = SOLO_TITLES[self.difficulty]
        elif status == "complete":
            result = "lost"
        return {"result": result, "title": title,
                "difficulty": self.difficulty, "cards_left_in_play": in_play,
                "turns_played": self.turns_begun}

    def outcome_puzzle(self, status: str) -> dict[str, Any]:
        if not self.rounds:
            return {"solved": None, "cards_left_in_play": 0, "layout_cards_left": 0}
        rnd = self.rounds[0]
        in_play = rnd.area.cards()
        layout_left = len(in_play & rnd.layout_cards)
        solved = (layout_left == 0) if rnd.turns_placed else None
        return {"solved": solved, "cards_left_in_play": len(in_play),
                "layout_cards_left": layout_left}


def break_tie(tied: list[int], kept: list[int | None],
              unseen: list[int]) -> tuple[list[int], str]:
    """The winners among ``tied`` (positions, player order) and the ``tie_break`` value.

    The fewest Explosion icons on the card kept after the last round win. A kept card that is
    not known (``None``) is one of the ``unseen`` cards (the round never showed them; unknown kept
    cards are distinct, and there are at least as many unseen cards as unknown kept cards). Every
    possible icon count of the unknown tied cards is tried: when all give the same winners, they
    are certain (``kept-card`` or ``shared``); else every tied player is listed and the tie break
    is ``unknown`` (``spec/pop.md`` section 4).
    """
    unknown = [p for p in tied if kept[p] is None]
    known = {p: ICONS[held] for p in tied if (held := kept[p]) is not None}
    available = {value: 0 for value in (1, 2, 3)}
    for card in unseen:
        available[ICONS[card]] += 1
    results = set()
    for icons in product((1, 2, 3), repeat=len(unknown)):
        if any(icons.count(value) > count for value, count in available.items()):
            continue  # not enough unseen cards with that many icons
        values = {**known, **dict(zip(unknown, icons))}
        fewest = min(values.values())
        results.add(tuple(p for p in tied if values[p] == fewest))
        if len(results) > 1:
            break  # the unseen cards decide
    if len(results) != 1:
        return tied, "unknown"
    winners = list(results.pop())
    return winners, "kept-card" if len(winners) == 1 else "shared"

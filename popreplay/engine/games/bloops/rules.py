"""Replaying a Bloops log: every check in the order ``docs/rules/bloops.md`` gives.

The replay raises :class:`RuleViolation` at the first violation. Events are applied one at a time
by :meth:`BloopsReplay.apply`, which the simulator also uses, so each rule is written once. Steps
are built only when a recorder asks for them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, NoReturn

from ...messages import Msg, msg
from ...pointer import pointer
from ...players import by_player, index_players, player_position
from ...replay import RuleViolation, StepRecorder, Violation
from . import ending, notes
from .messages import place as place_words
from .cards import DEAL, EFFECTS, GIVE, LOOK, NUMBERED, SWAP, TWENTY, BOTTOM_ROW, is_value
from .modes import ENDED_BY_BLOOPS, ENDED_BY_PILE, ENDED_BY_TWENTY, MODES
from .table import Card, Pending, Pool, Table, turn_player

UNKNOWN_ORDER = "unknown"  # a rearrangement nobody saw (``order`` may also be null or absent)


class BloopsReplay:
    def __init__(self, log: Mapping[str, Any], recorder: StepRecorder) -> None:
        self.log = log
        self.rec = recorder
        self.names: list[str] = list(log["players"])
        self.index: dict[str, int] = {}
        self.limits: dict[int, int] | None = None  # count per value, when the log declares a deck
        # Cards of each value certainly in the game: known cards, and the unknown cards of a set
        # that must have that value (``Pool.forced``). Never above the deck's count.
        self.known: Counter[int] = Counter()
        self.pools = 0  # sets made so far (for their labels)
        self.table = Table(len(self.names))
        self.turn = 0  # turns begun (each begins with its player's draw)
        self.current: int | None = None  # the player of the current (or last) turn
        self.counter_open = False  # a discard can be answered until the next draw
        self.holder: int | None = None  # who called Bloops and holds the Bloops card
        self.final_left: int | None = None  # turns still to play after the Bloops call
        self.ended_by: str | None = None
        self.revealed = False
        self.dealt = False  # the deal is done: steps can show the table
        self.revealing = False

    # --- violations ------------------------------------------------------------------------------

    def fail(self, code: str, message: Msg, *tokens: Any, turn: int | None = None) -> NoReturn:
        raise RuleViolation(Violation(code, message, pointer(*tokens), None, turn))

    @property
    def event_turn(self) -> int | None:
        """The turn an event belongs to: the last turn begun (``None`` before the first draw
        and during the final reveal, which is not inside a turn)."""
        return None if self.revealing else (self.turn or None)

    # --- the whole log ---------------------------------------------------------------------------

    def run(self) -> str:
        self.start()
        for position, event in enumerate(self.log["events"]):
            self.apply(event, position)
        status = self.finish()
        if self.log.get("reveal") is not None:
            self.reveal(self.log["reveal"], status)
        return status

    def start(self) -> None:
        self.check_players()
        if self.log.get("deck") is not None:
            self.check_deck(self.log["deck"])
        self.deal(self.log.get("deal"))

    def check_players(self) -> None:
        low, high = MODES[self.log["mode"]] if self.log["mode"] in MODES else (2, 5)
        self.index = index_players(self.names, low=low, high=high, what="Bloops")

    def check_deck(self, deck: Mapping[str, int]) -> None:
        limits: dict[int, int] = {}
        for key, count in deck.items():
            value = int(key) if key.isdigit() and key.isascii() else None
            if value is None or not is_value(value) or str(value) != key:
                self.fail("bad-deck", msg("bloops.not-a-value", key=key),
                          "deck", key)
            if count < 0:
                self.fail("bad-deck", msg("bloops.deck-negative", count=count, key=key),
                          "deck", key)
            limits[value] = count
        total = sum(limits.values())
        if total != NUMBERED:
            self.fail("bad-deck", msg("bloops.deck-total", total=total, numbered=NUMBERED),
                      "deck")
        if limits.get(TWENTY, 0) != 1:
            self.fail("bad-deck", msg("bloops.deck-twenty"), "deck")
        self.limits = limits

    def deal(self, deal: Mapping[str, list[int | None]] | None) -> None:
        given = self.named(deal, "bad-deal", "deal") if deal is not None else {}
        if deal is not None:
            for position, name in enumerate(self.names):
                if position not in given:
                    self.fail("bad-deal", msg("bloops.deal-missing", name=name), "deal", name)
        for position in range(len(self.names)):
            key, values = given.get(position, (None, None))
            if values is not None and len(values) != DEAL:
                self.fail("bad-deal", msg("bloops.deal-size", name=self.names[position],
                                          count=len(values), deal=DEAL), "deal", key)
            for k in range(DEAL):
                card = self.table.take_from_pile()
                place = self.table.add_place(position, card)
                if place in BOTTOM_ROW:
                    card.seen.add(position)
                if values is not None:
                    self.learn(card, values[k],
                               lambda: msg("bloops.what.place", name=self.names[position],
                                   place=place_words(place)),
                               "deal", key, k)
        self.dealt = True
        if self.rec.enabled:
            notes.deal(self)

    def named(self, mapping: Mapping[str, Any], code: str, *tokens: Any
              ) -> dict[int, tuple[str, Any]]:
        """A map keyed by player names, by player position (``by_player``)."""
        return by_player(self.names, self.index, mapping, *tokens, duplicate=code)

    def player(self, name: str, *tokens: Any, turn: int | None = None) -> int:
        return player_position(self.index, name, *tokens, turn=turn)

    # --- what is known about a card --------------------------------------------------------------

    def learn(self, card: Card, value: int | None, what: Callable[[], Msg], *tokens: Any) -> None:
        """Check a value the log gives for a card against what is known, and remember it.

        ``what`` words the card (``"Ana's top-left card"``) for a violation only: it is called
        when one is raised, since building a message for every card a log names was a third of a
        Bloops replay's time."""
        if value is None:
            return
        if not is_value(value):
            self.fail("unknown-card", msg("bloops.unknown-card", value=value),
                      *tokens, turn=self.event_turn)
        if card.value is not None:
            if card.value != value:
                self.fail("wrong-value", msg("bloops.value-seen", what=what(), known=card.value,
                                             value=value), *tokens, turn=self.event_turn)
            return
        pool = card.pool
        if pool is None or pool.shown[value] >= pool.known[value]:
            # one more card of this value: a card never seen, or an unknown card of the set
            if pool is not None and pool.free() == 0:
                self.fail("wrong-value", msg("bloops.value-not-in-set", what=what(), value=value,
                                             set=pool.label, values=notes.set_values(pool)),
                          *tokens, turn=self.event_turn)
            limit = self.limit(value)
            if self.known[value] >= limit:
                self.fail("duplicate-card", msg("bloops.value-all-seen", what=what(), value=value,
                                                limit=limit), *tokens, turn=self.event_turn)
            self.known[value] += 1
        if pool is not None:
            pool.shown[value] += 1
        card.value = value

    def release(self, card: Card) -> None:
        """A card of a set, its value seen, leaves the set (to the discard, or into a new set)."""
        pool, value = card.pool, card.value
        assert pool is not None and value is not None
        pool.shown[value] -= 1
        if pool.known[value] > 0:
            pool.known[value] -= 1
        else:
            pool.unknown -= 1
        pool.members.remove(card)
        card.pool = None
        if len(pool.members) == 1:  # a set of one card: that card is the set
            last = pool.members.pop()
            last.pool = None
            if last.value is None and +pool.known:
                last.value = next(iter(+pool.known))

    def mix(self, who: int) -> None:
        """An unseen rearrangement: the player's cards become one set."""
        cards = list(self.table.places[who].values())
        if len(cards) < 2:
            return
        for card in cards:
            if card.pool is not None and card.value is not None:
                self.release(card)
        self.pools += 1
        pool = Pool(msg("bloops.set", name=self.names[who], number=self.pools))
        for card in cards:
            old = card.pool
            if old is None:
                if card.value is None:
                    pool.unknown += 1
                else:
                    pool.known[card.value] += 1
                pool.members.append(card)
            elif old is not pool:  # an earlier set: it joins whole (with any card a 9 took away)
                # its unknown cards bound to a value (more places show it than it knew) join as
                # cards of that value: in the new set a place showing it may be another card
                forced = Counter({value: old.forced(value) for value in old.shown})
                pool.known += old.known + forced
                pool.unknown += old.unknown - sum(forced.values())
                pool.shown += old.shown
                for member in old.members:
                    member.pool = pool
                    pool.members.append(member)
                old.members.clear()
        for card in cards:
            card.value, card.pool, card.seen = None, pool, set()

    def limit(self, value: int) -> int:
        if self.limits is not None:
            return self.limits.get(value, 0)
        return 1 if value == TWENTY else NUMBERED

    def place_of(self, position: int, place: Any, *tokens: Any) -> int:
        places = self.table.places[position]
        number = place
        if isinstance(place, str):  # a key of the reveal: the place number written plainly
            number = int(place) if place.isdigit() and place.isascii() and \
                str(int(place)) == place else None
        if isinstance(number, int) and number in places:
            return number
        self.fail("unknown-place", msg("bloops.no-place", name=self.names[position], place=place,
                                       places=list(places) or msg("bloops.none")),
                  *tokens, turn=self.event_turn)

    # --- events ----------------------------------------------------------------------------------

    def apply(self, event: Mapping[str, Any], position: int) -> None:
        base = ("events", position)
        kind = event["type"]
        if self.ended_by == ENDED_BY_TWENTY:
            self.fail("after-game-end", msg("bloops.after-twenty"), *base,
                      turn=self.event_turn)
        who = self.player(event["player"], *base, "player",
                          turn=self.turn + 1 if kind == "draw" else self.event_turn)
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:  # not an event type: fails here, as it always did
            getattr(self, f"on_{kind}")(who, event, position, base)
        else:
            handler(self, who, event, position, base)

    def on_draw(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        turn = self.turn + 1
        table = self.table
        if self.final_left == 0:
            self.fail("after-game-end", msg("bloops.after-last-turns"), *base, turn=turn)
        if table.pile_left == 0 and table.drawn is None:
            self.fail("after-game-end", msg("bloops.after-pile-empty"), *base,
                      turn=turn)
        if table.drawn is not None:
            self.fail("turn-not-finished", msg("bloops.still-holds",
                                               name=self.names[turn_player(self)]),
                      *base, turn=self.turn)
        self.settle()
        if table.pending:
            self.missing_effect(base, turn=self.turn)
        expected = 0 if self.current is None else (self.current + 1) % len(self.names)
        if who != expected:
            self.fail("not-your-turn", msg("bloops.turn-to-draw", expected=self.names[expected],
                                           name=self.names[who]), *base, "player", turn=turn)
        self.turn, self.current, self.counter_open = turn, who, False
        if self.final_left is not None:
            self.final_left -= 1
        card = table.take_from_pile()
        card.seen.add(who)
        table.drawn = card
        self.learn(card, event.get("value"), lambda: msg("bloops.what.drawn", name=self.names[who]),
                   *base, "value")
        if self.rec.enabled:
            notes.draw(self, who, card)

    def drawer(self, who: int, base: tuple) -> Card:
        """The drawn card, for the discard or keep that ends the turn's play."""
        card = self.table.drawn
        if card is None:
            self.fail("no-drawn-card", msg("bloops.no-drawn-card", name=self.names[who]),
                      *base, turn=self.event_turn)
        if who != self.current:
            self.fail("not-your-turn", msg("bloops.turn", expected=self.names[turn_player(self)],
                                           name=self.names[who]), *base, "player", turn=self.turn)
        return card

    def on_discard(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        card = self.drawer(who, base)
        self.learn(card, event["value"], lambda: msg("bloops.what.drawn", name=self.names[who]),
                   *base, "value")
        self.table.drawn = None
        self.to_discard(card, who, position)
        if self.rec.enabled:
            notes.discard(self, who, card)

    def on_keep(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        card = self.drawer(who, base)
        place = self.place_of(who, event["place"], *base, "place")
        old = self.table.places[who][place]
        self.learn(old, event["value"],
                   lambda: msg("bloops.what.in-place", name=self.names[who],
                       place=place_words(place)), *base, "value")
        self.table.places[who][place] = card
        self.table.drawn = None
        self.to_discard(old, who, position)
        if self.rec.enabled:
            notes.keep(self, who, card, old, place)

    def on_counter(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        table = self.table
        if not self.counter_open:
            why = msg("bloops.counter-nothing-discarded" if not table.discard
                      else "bloops.counter-next-drew")
            self.fail("counter-closed", msg("bloops.counter-closed", name=self.names[who], why=why),
                      *base, turn=self.event_turn)
        place = self.place_of(who, event["place"], *base, "place")
        card = table.places[who][place]
        self.learn(card, event["value"],
                   lambda: msg("bloops.what.in-place", name=self.names[who],
                       place=place_words(place)), *base, "value")
        top = table.top_value()
        penalty = event.get("penalty")
        if card.value == top:
            if penalty is not None:
                self.fail("bad-penalty", msg("bloops.penalty-match", value=card.value),
                          *base, "penalty", turn=self.event_turn)
            del table.places[who][place]
            self.to_discard(card, who, position)
            if self.rec.enabled:
                notes.counter(self, who, card, place, top, None)
            return
        card.seen.update(range(len(self.names)))  # shown to everyone, then put back
        new_place = None
        if table.pile_left == 0:
            if penalty is not None:
                self.fail("bad-penalty", msg("bloops.penalty-pile-empty"),
                          *base, "penalty", turn=self.event_turn)
        else:
            extra = table.take_from_pile()
            new_place = table.add_place(who, extra)
            self.learn(extra, penalty, lambda: msg("bloops.what.penalty", name=self.names[who]),
                       *base, "penalty")
        if self.rec.enabled:
            notes.counter(self, who, card, place, top, new_place)

    def to_discard(self, card: Card, who: int, position: int) -> None:
        table = self.table
        if card.pool is not None:
            self.release(card)
        table.discard.append((card, who))
        self.counter_open = True
        if card.value == TWENTY:
            self.ended_by = ENDED_BY_TWENTY
            table.pending.clear()
        elif card.value in EFFECTS:
            table.pending.append(Pending(card.value, who, position))

    # --- effects ---------------------------------------------------------------------------------

    def possible(self, effect: Pending) -> Msg | None:
        """Why an effect cannot be carried out now, or ``None`` when it can."""
        table, kind = self.table, EFFECTS[effect.value]
        if kind == GIVE and table.pile_left == 0:
            return msg("bloops.lost.pile-empty")
        if kind == LOOK and not table.anyone_has_cards():
            return msg("bloops.lost.no-cards")
        if kind == SWAP:
            if not table.places[effect.owner]:
                return msg("bloops.lost.nothing-to-swap", name=self.names[effect.owner])
            others = [p for p in range(len(self.names)) if p != effect.owner]
            if not any(table.places[p] for p in others if p != self.holder):
                if self.holder is None or self.holder == effect.owner:
                    return msg("bloops.lost.no-opponent-card")
                return msg("bloops.lost.holder" if len(others) == 1
                           else "bloops.lost.holder-and-others", name=self.names[self.holder])
        return None

    def settle(self) -> None:
        """Drop the waiting effects that cannot be carried out when they come due."""
        pending = self.table.pending
        while pending:
            why = self.possible(pending[0])
            if why is None:
                return
            lost = pending.pop(0)
            if self.rec.enabled:
                notes.effect_lost(self, lost, why)

    def missing_effect(self, base: tuple, *, turn: int | None) -> None:
        effect = self.table.pending[0]
        self.fail("missing-effect", msg("bloops.missing-effect", name=self.names[effect.owner],
                                        value=effect.value, event=effect.event + 1),
                  *base, turn=turn)

    def due_effect(self, who: int, kind: str, base: tuple) -> Pending:
        self.settle()
        pending = self.table.pending
        if not pending:
            self.fail("wrong-effect", msg("bloops.no-effect-waiting",
                                          kind=msg(f"bloops.effect.{kind}")),
                      *base, "type", turn=self.event_turn)
        effect = pending[0]
        if EFFECTS[effect.value] != kind or effect.owner != who:
            self.fail("wrong-effect", msg("bloops.other-effect", name=self.names[effect.owner],
                                          value=effect.value,
                                          effect=msg(f"bloops.effect.{EFFECTS[effect.value]}"),
                                          kind=msg(f"bloops.effect.{kind}"), who=self.names[who]),
                      *base, "type", turn=self.event_turn)
        return pending.pop(0)

    def opponent(self, who: int, event: Mapping[str, Any], base: tuple) -> int:
        target = self.player(event["target"], *base, "target", turn=self.event_turn)
        if target == who:
            self.fail("bad-target", msg("bloops.choose-opponent", name=self.names[who]),
                      *base, "target", turn=self.event_turn)
        return target

    def on_give(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        effect = self.due_effect(who, GIVE, base)
        target = self.opponent(who, event, base)
        card = self.table.take_from_pile()
        place = self.table.add_place(target, card)
        self.learn(card, event.get("value"), lambda: msg("bloops.what.given", name=self.names[target]),
                   *base, "value")
        if self.rec.enabled:
            notes.give(self, effect, target, card, place)

    def on_look(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        effect = self.due_effect(who, LOOK, base)
        target = self.player(event["target"], *base, "target", turn=self.event_turn)
        place = self.place_of(target, event["place"], *base, "place")
        card = self.table.places[target][place]
        self.learn(card, event.get("value"),
                   lambda: msg("bloops.what.in-place", name=self.names[target], place=place_words(place)),
                   *base, "value")
        card.seen.add(who)
        if self.rec.enabled:
            notes.look(self, effect, target, card, place)

    def on_swap(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        effect = self.due_effect(who, SWAP, base)
        place = self.place_of(who, event["place"], *base, "place")
        target = self.opponent(who, event, base)
        if target == self.holder:
            self.fail("bad-target", msg("bloops.holder-protected", name=self.names[target]),
                      *base, "target", turn=self.event_turn)
        other = self.place_of(target, event["target_place"], *base, "target_place")
        mine, theirs = self.table.places[who], self.table.places[target]
        mine[place], theirs[other] = theirs[other], mine[place]
        if self.rec.enabled:
            notes.swap(self, effect, place, target, other)

    def on_rearrange(self, who: int, event: Mapping[str, Any], position: int, base: tuple
                     ) -> None:
        order = event.get("order")
        places = self.table.places[who]
        if order is None or order == UNKNOWN_ORDER:
            self.mix(who)
            if self.rec.enabled:
                notes.rearrange(self, who, None)
            return
        for k, number in enumerate(order):
            self.place_of(who, number, *base, "order", k)
        if sorted(order) != sorted(places):
            self.fail("bad-rearrange", msg("bloops.bad-order", name=self.names[who],
                                           places=list(places) or msg("bloops.none")),
                      *base, "order", turn=self.event_turn)
        cards = [places[number] for number in order]
        for number, card in zip(sorted(places), cards):
            places[number] = card
        if self.rec.enabled:
            notes.rearrange(self, who, list(order))

    def on_bloops(self, who: int, event: Mapping[str, Any], position: int, base: tuple) -> None:
        if self.final_left == 0:
            self.fail("after-game-end", msg("bloops.after-last-turns"), *base,
                      turn=self.event_turn)
        if self.holder is not None:
            self.fail("bad-bloops", msg("bloops.already-called", name=self.names[self.holder]),
                      *base, turn=self.event_turn)
        if self.table.drawn is not None:
            self.fail("turn-not-finished", msg("bloops.still-holds-bloops",
                                               name=self.names[turn_player(self)]), *base,
                      turn=self.event_turn)
        if self.current != who:
            whose = (msg("bloops.no-turn-yet") if self.current is None
                     else msg("bloops.turn-just-ended", name=self.names[self.current]))
            self.fail("not-your-turn", msg("bloops.cannot-call", name=self.names[who], whose=whose),
                      *base, "player", turn=self.event_turn)
        self.settle()
        if self.table.pending:
            self.missing_effect(base, turn=self.event_turn)
        self.holder, self.final_left = who, len(self.names) - 1
        if self.rec.enabled:
            notes.bloops(self, who)

    # --- the end ---------------------------------------------------------------------------------

    def finish(self) -> str:
        """The status at the end of the log; settles the effects that can no longer happen."""
        if self.ended_by == ENDED_BY_TWENTY:
            return "complete"
        self.settle()
        table = self.table
        finished = self.turn > 0 and table.drawn is None and not table.pending
        if finished and self.final_left == 0:
            self.ended_by = ENDED_BY_BLOOPS
        elif finished and table.pile_left == 0:
            self.ended_by = ENDED_BY_PILE
        return "complete" if self.ended_by else "incomplete"

    def reveal(self, reveal: Mapping[str, Mapping[str, int]], status: str) -> None:
        self.revealing = True
        if status != "complete":
            if self.table.pending:
                self.missing_effect(("reveal",), turn=None)
            self.fail("bad-reveal", msg("bloops.reveal-too-early"), "reveal")
        given = self.named(reveal, "bad-reveal", "reveal")
        for position in sorted(given):
            key, values = given[position]
            for place_key, value in values.items():
                place = self.place_of(position, place_key, "reveal", key, place_key)
                card = self.table.places[position][place]
                self.learn(card, value,
                           lambda: msg("bloops.what.in-place", name=self.names[position],
                               place=place_words(place)),
                           "reveal", key, place_key)
                card.seen.update(range(len(self.names)))
        self.revealed = True
        if self.rec.enabled:
            notes.reveal(self)

    def outcome(self, status: str) -> dict[str, Any]:
        return ending.outcome(self, status)


# ``apply``'s handler of each event type (``on_<type>``): one lookup, not a method name formatted
# per event.
_HANDLERS: dict[str, Callable[..., None]] = {
    name[len("on_"):]: method for name, method in vars(BloopsReplay).items()
    if name.startswith("on_") and callable(method)
}

"""Playing a card from hand: COLOUR cards, TIMERs and the six GAME cards.

Mixed into :class:`~.rules.CubeReplay`. A card is checked (it exists, the player holds it, the
event carries the fields its effect uses) before its effect; a GAME card goes to the left discard
as it is played, before its effect resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, NoReturn

from ...messages import Msg, msg
from .cards import COLOUR, CUBE, GAME, NAMES, TARGETED, category, is_colour, kind
from .knowledge import ALL as ALL_CATEGORIES
from .knowledge import BIT, Hand, Knowledge
from .steps import Step, Table

# The event keys each kind of card uses besides "play" (the others must be absent).
FIELDS: dict[str, frozenset[str]] = {
    COLOUR: frozenset({"step"}),
    "PB": frozenset({"step"}),
    "WR": frozenset({"step"}),
    "DNF": frozenset({"target", "step"}),
    "LOOK-AHEAD": frozenset({"draw"}),
    "ONE-HAND": frozenset({"target", "take"}),
    "BLIND-SOLVE": frozenset({"target", "take"}),
    "CORNER-TWIST": frozenset({"target", "step", "take"}),
    "POP": frozenset({"target", "step"}),
    "SCRAMBLE": frozenset({"target", "give", "take"}),
}
NEEDS = {COLOUR: ("step",), "PB": ("step",), "WR": ("step",), "DNF": ("step",),
         "CORNER-TWIST": ("step", "take"), "POP": ("step",), "SCRAMBLE": ("give",)}


def _rule(card: str) -> str:
    return COLOUR if category(card) == COLOUR else kind(card)


class Effects:
    """The effect of every playable card. ``self`` is the running :class:`~.rules.CubeReplay`,
    which defines the state and the checks declared here for the type checker (this module does
    not import the rules that mix it in)."""

    if TYPE_CHECKING:
        names: list[str]
        know: Knowledge
        tables: list[Table]

        def fail(self, code: str, message: Msg | str, *tokens: Any) -> NoReturn: ...
        def check_card(self, card: str, *tokens: Any) -> None: ...
        def player(self, name: str | None, *tokens: Any) -> int: ...
        def why_not_there(self, card: str, hand: Hand | None = None) -> Msg: ...
        def draw_cards(self, position: int, cards: list[str | None], wanted: int,
                       *tokens: Any) -> None: ...
        def take(self, hand: Hand, card: str, *tokens: Any, who: int | None = None) -> str: ...

    def play(self, position: int, event: Mapping[str, Any], tokens: tuple) -> None:
        card = event["play"]
        self.check_card(card, *tokens, "play")
        if category(card) == CUBE:
            self.fail("bad-play", msg("cube.play-cube", card=card), *tokens, "play")
        hand = self.know.hands[position]
        card = self.take(hand, card, *tokens, "play")
        rule = _rule(card)
        name = NAMES.get(rule) or msg("cube.a-colour-card")
        for key in event:
            if key != "play" and event[key] is not None and key not in FIELDS[rule]:
                self.fail("bad-play", msg("cube.takes-no", card=name, key=key), *tokens, key)
        for key in NEEDS.get(rule, ()):
            if event.get(key) is None:
                self.fail("bad-play", msg("cube.needs", card=name, key=key), *tokens)
        target = self.target(position, event, tokens) if rule in TARGETED else None
        if category(card) == GAME:
            self.know.left.append(card)
        getattr(self, "effect_" + rule.lower().replace("-", "_"))(
            position, card, event, tokens, target)

    def target(self, position: int, event: Mapping[str, Any], tokens: tuple) -> int:
        name = event.get("target")
        if name is None:
            if len(self.names) > 2:
                self.fail("missing-target", msg("cube.missing-target"), *tokens)
            return 1 - position
        target = self.player(name, *tokens, "target")
        if target == position:
            self.fail("bad-target", msg("cube.target-self", name=self.names[position]),
                      *tokens, "target")
        return target

    # --- COLOUR and TIMER ------------------------------------------------------------------------

    def effect_colour(self, position: int, card: str, event: Mapping[str, Any],
                      tokens: tuple, target: int | None) -> None:
        table, step = self.tables[position], event["step"]
        why = table.why_not_colour(step, kind(card))
        if why is not None:
            self.fail("bad-colour", msg("cube.bad-colour", card=card, name=self.names[position],
                                        step=step, why=why), *tokens, "step")
        table.steps[step].colours.append(card)

    def effect_pb(self, position: int, card: str, event: Mapping[str, Any],
                  tokens: tuple, target: int | None) -> None:
        step = self.tables[position].steps.get(event["step"])
        if step is None:
            self.fail("bad-timer", msg("cube.timer-no-step", step=event["step"],
                                       name=self.names[position]), *tokens, "step")
        if step.timer is not None:
            self.fail("bad-timer", msg("cube.timer-twice", step=step.name, timer=step.timer),
                      *tokens, "step")
        step.timer = card

    effect_wr = effect_pb

    def effect_dnf(self, position: int, card: str, event: Mapping[str, Any],
                   tokens: tuple, target: int) -> None:
        step = self.opponent_step(target, event["step"], tokens)
        if step.timer is None or kind(step.timer) != "PB":
            key = "cube.dnf-no-timer" if step.timer is None else "cube.dnf-world-record"
            self.fail("bad-target", msg(key, name=self.names[target], step=step.name),
                      *tokens, "step")
        self.know.right.append(step.timer)
        step.timer = None
        self.know.left.append(card)

    def opponent_step(self, target: int, name: str, tokens: tuple) -> Step:
        step = self.tables[target].steps.get(name)
        if step is None:
            self.fail("bad-target", msg("cube.no-step", name=self.names[target], step=name),
                      *tokens, "step")
        return step

    def unprotected_step(self, target: int, name: str, tokens: tuple) -> Step:
        step = self.opponent_step(target, name, tokens)
        if step.protected():
            self.fail("bad-target", msg("cube.protected", name=self.names[target], step=name,
                                        timer=step.timer), *tokens, "step")
        return step

    # --- GAME cards ------------------------------------------------------------------------------

    def effect_look_ahead(self, position: int, card: str, event: Mapping[str, Any],
                          tokens: tuple, target: int | None) -> None:
        self.draw_cards(position, event.get("draw") or [], 2, *tokens, "draw")

    def taken(self, event: Mapping[str, Any], tokens: tuple, most: int) -> list:
        take = event.get("take") or []
        if len(take) > most:
            self.fail("bad-take", msg("cube.take-most", most=most, count=len(take)),
                      *tokens, "take")
        return take

    def move(self, source: Hand, dest: Hand, card: str | None, tokens: tuple, *,
             mask: int = ALL_CATEGORIES, colour: bool = False) -> None:
        """Move one card between hands: named (revealed), or hidden (``None``)."""
        if card is None:
            if not self.know.take_hidden(source, dest, mask):
                key = "cube.take-no-deal" if self.know.refuted() else \
                    "cube.no-colour-to-take" if colour else "cube.no-card-to-take"
                self.fail("bad-take", msg(key), *tokens)
            return
        self.check_card(card, *tokens)
        if not BIT[category(card)] & mask:
            self.fail("bad-take", msg("cube.not-a-colour" if colour else "cube.not-a-card",
                                      card=card), *tokens)
        held = self.know.remove(source, card)
        if held is None:
            self.fail("bad-take", msg("cube.not-in-that-hand", card=card,
                                      why=self.why_not_there(card, source)), *tokens)
        self.know.add(dest, held)

    def effect_one_hand(self, position: int, card: str, event: Mapping[str, Any],
                        tokens: tuple, target: int) -> None:
        source, dest = self.know.hands[target], self.know.hands[position]
        take = self.taken(event, tokens, 1)
        if source.size() and not take:
            self.fail("bad-take", msg("cube.one-hand-takes", name=self.names[target],
                                      count=source.size()), *tokens)
        for k, taken in enumerate(take):
            self.move(source, dest, taken, (*tokens, "take", k))

    def effect_blind_solve(self, position: int, card: str, event: Mapping[str, Any],
                           tokens: tuple, target: int) -> None:
        source, dest = self.know.hands[target], self.know.hands[position]
        take = self.taken(event, tokens, 1)
        if not take:
            held = [c for c in source.known if is_colour(c)]
            if held:
                self.fail("bad-take", msg("cube.blind-solve-held", name=self.names[target],
                                          card=held[0]), *tokens)
            if not self.know.forbid(source, BIT[COLOUR]):
                self.fail("bad-take", msg("cube.blind-solve-hidden", name=self.names[target]),
                          *tokens)
            return
        self.move(source, dest, take[0], (*tokens, "take", 0), mask=BIT[COLOUR], colour=True)

    def effect_corner_twist(self, position: int, card: str, event: Mapping[str, Any],
                            tokens: tuple, target: int) -> None:
        if event["step"] == "CROSS":
            self.fail("bad-target", msg("cube.corner-twist-cross"), *tokens, "step")
        step = self.unprotected_step(target, event["step"], tokens)
        take = event["take"]
        colour = None
        if len(take) == 1 and take[0] is not None:
            self.check_card(take[0], *tokens, "take", 0)
            token = self.know.token(take[0])  # any copy of the kind on that step
            colour = next((c for c in sorted(step.colours, key=lambda c: c != take[0])
                           if self.know.token(c) == token), None)
        if colour is None:
            on = list(step.colours) or msg("cube.no-colour")
            self.fail("bad-take", msg("cube.corner-twist-take", name=self.names[target],
                                      step=step.name, on=on), *tokens, "take")
        step.colours.remove(colour)
        self.know.add(self.know.hands[position], colour)

    def effect_pop(self, position: int, card: str, event: Mapping[str, Any],
                   tokens: tuple, target: int) -> None:
        step = self.unprotected_step(target, event["step"], tokens)
        del self.tables[target].steps[step.name]
        for colour in step.colours:
            self.know.add(self.know.hands[target], colour)
        mine = self.tables[position].steps
        if step.name in mine:
            self.know.right.append(step.card)
        else:
            mine[step.name] = Step(step.card)

    def effect_scramble(self, position: int, card: str, event: Mapping[str, Any],
                        tokens: tuple, target: int) -> None:
        give = event["give"]
        self.check_card(give, *tokens, "give")
        if not is_colour(give):
            self.fail("bad-take", msg("cube.scramble-gives", card=give), *tokens, "give")
        mine, theirs = self.know.hands[position], self.know.hands[target]
        give = self.take(mine, give, *tokens, "give")
        take = event.get("take") or []
        for k, taken in enumerate(take):
            if taken is not None:
                self.move(theirs, mine, taken, (*tokens, "take", k), mask=BIT[COLOUR],
                          colour=True)
        # Every COLOUR card goes: a known colour not named must be one of the unseen entries.
        unseen = [k for k, taken in enumerate(take) if taken is None]
        left = [c for c in theirs.known if is_colour(c)]
        if len(left) > len(unseen):
            self.fail("bad-take", msg("cube.scramble-also", name=self.names[target],
                                      card=left[len(unseen)]), *tokens, "take")
        for card in left:
            held = self.know.remove(theirs, card)
            assert held is not None  # (a card known in that hand: every deal has it there)
            self.know.add(mine, held)
        for k in unseen[len(left):]:
            if not self.know.take_hidden(theirs, mine, BIT[COLOUR]):
                self.fail("bad-take", msg("cube.scramble-no-other", name=self.names[target]),
                          *tokens, "take", k)
        if not self.know.forbid(theirs, BIT[COLOUR]):  # every COLOUR card went
            self.fail("bad-take", msg("cube.scramble-hidden", name=self.names[target]),
                      *tokens, "take")
        self.know.add(theirs if take else mine, give)

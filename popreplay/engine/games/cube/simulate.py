"""Random legal cube games, the same for the same seed: for tests, demos and benchmarks.

The simulator sees every card (a digital game), so its logs give every identity. Its players are
random but keen: they usually put a fitting colour on a step when they can, and show the F.M.C. as
soon as they hold it.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Mapping, Sequence

from .cards import (COLOUR, CUBE, DEAL, FMC_MARKS, GAME, HAND_LIMIT, STEPS, TIMER, category, deck,
                    decks, kind)
from .steps import Step, Table

NAMES = ("Ana", "Bruno", "Chloé", "Dmitri")
MAX_TURNS = 400
ATTEMPTS = 40


class _Table:
    """The simulated game, every card known."""

    def __init__(self, rng: random.Random, players: int) -> None:
        self.rng = rng
        self.n = players
        self.pile = list(deck(players))
        rng.shuffle(self.pile)
        self.left: list[str] = []
        self.right: list[str] = []
        self.hands: list[list[str]] = [[self.pile.pop() for _ in range(DEAL)]
                                       for _ in range(players)]
        self.tables = [Table() for _ in range(players)]
        self.winner: int | None = None

    def draw(self, hand: list[str], count: int) -> list[str]:
        drawn = []
        for _ in range(count):
            if not self.pile:
                if not (self.left or self.right):
                    break
                self.pile = self.left + self.right
                self.left, self.right = [], []
                self.rng.shuffle(self.pile)
            drawn.append(self.pile.pop())
        hand.extend(drawn)
        return drawn


def simulate(*, mode: str, players: int, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if mode != "standard":
        raise ValueError(f"unknown mode {mode!r}; cube has one mode: standard")
    if not 2 <= players <= 4:
        raise ValueError("cube is for 2–4 players")
    if options:
        raise ValueError(f"cube has no options (got {', '.join(sorted(options))})")
    for attempt in range(ATTEMPTS):
        log = _game(random.Random(f"cube/{players}/{seed}/{attempt}"), players, seed)
        if log is not None:
            return _finish(log)
    raise RuntimeError(f"no simulated cube game ended within {MAX_TURNS} turns")  # pragma: no cover


def _finish(log: dict[str, Any]) -> dict[str, Any]:
    from ...replay import StepRecorder
    from .rules import CubeReplay

    game = CubeReplay(log, StepRecorder(enabled=False))
    game.run()
    outcome = game.outcome()
    log["claimed"] = {k: outcome[k] for k in ("winners", "won_by", "turn")}
    return log


def _game(rng: random.Random, players: int, seed: int) -> dict[str, Any] | None:
    sim = _Table(rng, players)
    names = list(NAMES[:players])
    # The marks go on TIMER and GAME cards, which players keep in hand; the simulated players hoard
    # marked cards, so an F.M.C. win happens now and then.
    markable = sorted(c for c in deck(players) if category(c) in (GAME, TIMER))
    marked = rng.sample(markable, len(FMC_MARKS) * decks(players))
    fmc = {mark: sorted(marked[i::len(FMC_MARKS)]) for i, mark in enumerate(FMC_MARKS)}
    log: dict[str, Any] = {
        "format": "popreplay/1", "game": "cube", "mode": "standard", "players": names,
        "meta": {"title": f"Simulated cube #{seed}", "source": "simulated"},
        "deck": {"fmc": fmc},
        "deal": {name: list(hand) for name, hand in zip(names, sim.hands)},
        "turns": [],
    }
    mark_of = {card: i for i, mark in enumerate(FMC_MARKS) for card in fmc[mark]}
    for t in range(MAX_TURNS):
        log["turns"].append(_turn(sim, names, t % players, mark_of))
        if sim.winner is not None:
            return log
    return None


def _turn(sim: _Table, names: list[str], p: int, mark_of: dict[str, int]) -> dict[str, Any]:
    hand, table = sim.hands[p], sim.tables[p]
    held = len(hand)
    turn: dict[str, Any] = {"player": names[p],
                            "draw": sim.draw(hand, DEAL - held if held <= 2 else 2)}
    lay = [c for c in hand if category(c) == CUBE]
    for card in lay:
        hand.remove(card)
        if kind(card) in table.steps:
            sim.right.append(card)
        else:
            table.steps[kind(card)] = Step(card)
    if lay:
        turn["lay"] = lay
    events: list[dict[str, Any]] = []
    for _ in range(12):
        show = _fmc(hand, mark_of)
        if show is not None:
            events.append({"show": show})
            sim.winner = p
            break
        moves = _moves(sim, p, mark_of)
        if not moves or sim.rng.random() < 0.12:
            break
        colours = [m for m in moves if m[0] == "colour"]
        move = sim.rng.choice(colours if colours and sim.rng.random() < 0.8 else moves)
        events.append(move[1]())
        if table.completed() == len(STEPS):
            sim.winner = p
            break
    if sim.winner is None and len(hand) > HAND_LIMIT:
        surplus = sim.rng.sample(hand, len(hand) - HAND_LIMIT)
        for card in surplus:
            hand.remove(card)
        sim.right.extend(surplus)
        events.append({"discard": surplus})
    if events:
        turn["events"] = events
    return turn


def _fmc(hand: list[str], mark_of: dict[str, int]) -> list[str] | None:
    show: list[str | None] = [None] * len(FMC_MARKS)
    for card in hand:
        if card in mark_of:
            show[mark_of[card]] = card
    return None if None in show else show  # type: ignore[return-value]


Move = tuple[str, Callable[[], dict[str, Any]]]
Played = Callable[..., dict[str, Any]]  # a card leaves the hand: its event, with ``fields``


def _moves(sim: _Table, p: int, mark_of: dict[str, int]) -> list[Move]:
    moves: list[Move] = []
    hand, table = sim.hands[p], sim.tables[p]
    opponents = [o for o in range(sim.n) if o != p]
    names = NAMES

    def played(card: str, **fields: Any) -> dict[str, Any]:
        hand.remove(card)
        if "target" in fields and sim.n == 2 and sim.rng.random() < 0.5:
            del fields["target"]  # with 2 players the target may go unnamed
        return {"play": card, **fields}

    for card in sorted(set(hand) - set(mark_of)):
        rule = kind(card)
        if category(card) == COLOUR:
            for step in STEPS:
                if table.can_colour(step, rule):
                    moves.append(("colour", _colour(sim, p, card, step, played)))
        elif rule in ("PB", "WR"):
            for placed in table.steps.values():
                if placed.timer is None:
                    moves.append(("timer", _timer(placed, card, played)))
        elif rule == "DNF":
            for o in opponents:
                for placed in sim.tables[o].steps.values():
                    if placed.timer is not None and kind(placed.timer) == "PB":
                        moves.append(("dnf", _dnf(sim, o, placed, card, played)))
        elif category(card) != CUBE:
            for o in opponents:
                moves.extend(_game_moves(sim, p, o, card, played, names))
    return moves


def _colour(sim: _Table, p: int, card: str, step: str, played: Played) -> Callable[[], dict]:
    def apply() -> dict[str, Any]:
        sim.tables[p].steps[step].colours.append(card)
        return played(card, step=step)
    return apply


def _timer(step: Step, card: str, played: Played) -> Callable[[], dict]:
    def apply() -> dict[str, Any]:
        step.timer = card
        return played(card, step=step.name)
    return apply


def _dnf(sim: _Table, o: int, step: Step, card: str, played: Played) -> Callable[[], dict]:
    def apply() -> dict[str, Any]:
        timer = step.timer
        assert timer is not None  # (a DNF is offered for a step with a PB on it)
        sim.right.append(timer)
        step.timer = None
        event = played(card, target=NAMES[o], step=step.name)
        sim.left.append(card)
        return event
    return apply


def _game_moves(sim: _Table, p: int, o: int, card: str, played: Played,
                names: Sequence[str]) -> list[Move]:
    rule, rng = kind(card), sim.rng
    mine, theirs = sim.hands[p], sim.hands[o]
    target = names[o]

    def spend() -> None:
        sim.left.append(card)

    if rule == "LOOK-AHEAD":
        if o != (p + 1) % sim.n:
            return []

        def look() -> dict[str, Any]:
            event = played(card)
            spend()
            return {**event, "draw": sim.draw(mine, 2)}
        return [("game", look)]
    if rule == "ONE-HAND":
        def one_hand() -> dict[str, Any]:
            event = played(card, target=target)
            spend()
            take = [theirs.pop(rng.randrange(len(theirs)))] if theirs else []
            mine.extend(take)
            return {**event, "take": take}
        return [("game", one_hand)]
    if rule == "BLIND-SOLVE":
        def blind() -> dict[str, Any]:
            event = played(card, target=target)
            spend()
            colours = [c for c in theirs if category(c) == COLOUR]
            take = [rng.choice(colours)] if colours else []
            for c in take:
                theirs.remove(c)
            mine.extend(take)
            return {**event, "take": take}
        return [("game", blind)]
    if rule == "SCRAMBLE":
        gives = [c for c in mine if category(c) == COLOUR]
        if not gives:
            return []

        def scramble() -> dict[str, Any]:
            event = played(card, target=target)
            spend()
            give = rng.choice(gives)
            take = [c for c in theirs if category(c) == COLOUR]
            if take:
                mine.remove(give)
                theirs.append(give)
                for c in take:
                    theirs.remove(c)
                mine.extend(take)
            return {**event, "give": give, "take": take}
        return [("game", scramble)]
    steps = [s for s in sim.tables[o].steps.values() if not s.protected()]
    if rule == "CORNER-TWIST":
        return [("game", _twist(sim, p, o, s, c, card, played)) for s in steps
                if s.name != "CROSS" for c in s.colours]
    return [("game", _pop(sim, p, o, s, card, played)) for s in steps]  # POP


def _twist(sim: _Table, p: int, o: int, step: Step, colour: str, card: str,
           played: Played) -> Callable[[], dict]:
    def apply() -> dict[str, Any]:
        event = played(card, target=NAMES[o], step=step.name, take=[colour])
        sim.left.append(card)
        step.colours.remove(colour)
        sim.hands[p].append(colour)
        return event
    return apply


def _pop(sim: _Table, p: int, o: int, step: Step, card: str, played: Played) -> Callable[[], dict]:
    def apply() -> dict[str, Any]:
        event = played(card, target=NAMES[o], step=step.name)
        sim.left.append(card)
        del sim.tables[o].steps[step.name]
        sim.hands[o].extend(step.colours)
        if step.name in sim.tables[p].steps:
            sim.right.append(step.card)
        else:
            sim.tables[p].steps[step.name] = Step(step.card)
        return event
    return apply

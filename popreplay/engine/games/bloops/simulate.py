"""Random legal Bloops games, the same for the same seed: for tests, demos and benchmarks.

The simulator drives the rules engine itself (:meth:`BloopsReplay.apply`), so it cannot make up a
rule of its own. Half the games are logged by an observer who saw every card; the other half give
only what was face up, and the final reveal. Players now and then rearrange their cards: the
observer logs the new order, the other logger only that it happened (``"order": "unknown"``). The
engine that drives the game is told everything; the log holds what its logger saw.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...replay import StepRecorder
from .cards import EFFECTS, GIVE, LOOK, SIMULATED_DECK
from .modes import MODES
from .rules import BloopsReplay

NAMES = ("Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji")


def simulate(*, mode: str, players: int, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    low, high = MODES[mode]
    if not low <= players <= high:
        raise ValueError(f"{mode} is for {low}–{high} players")
    if options:
        raise ValueError("Bloops has no options")
    return _Simulation(random.Random(f"bloops/{mode}/{players}/{seed}"), mode, players,
                       seed).play()


class _Simulation:
    """One game. Tests may give their own ``deck`` and choose the logger's ``full_view``."""

    def __init__(self, rng: random.Random, mode: str, players: int, seed: int, *,
                 deck: Mapping[str, int] = SIMULATED_DECK, full_view: bool | None = None
                 ) -> None:
        self.rng = rng
        self.names = list(NAMES[:players])
        cards = [int(v) for v, count in deck.items() for _ in range(count)]
        rng.shuffle(cards)
        self.truth = dict(enumerate(cards, start=1))  # card number -> value
        self.full_view = rng.random() < 0.5
        if full_view is not None:
            self.full_view = full_view
        view = "an observer who saw every card" if self.full_view else "the face-up cards only"
        self.log: dict[str, Any] = {
            "format": "popreplay/1", "game": "bloops", "mode": mode, "players": self.names,
            "meta": {"title": f"Simulated Bloops #{seed}", "source": "simulated",
                     "notes": f"values from {view}"},
            "deck": dict(deck),
            "deal": {name: [self.shown(6 * p + k + 1) for k in range(6)]
                     for p, name in enumerate(self.names)},
            "events": [],
        }
        truth = {**self.log, "deal": {name: [self.truth[6 * p + k + 1] for k in range(6)]
                                      for p, name in enumerate(self.names)}}
        self.game = BloopsReplay(truth, StepRecorder(enabled=False))
        self.game.start()
        self.call_at = rng.randint(3 * players, 7 * players)
        self.mixer = random.Random(f"bloops-rearrange/{mode}/{players}/{seed}")

    def shown(self, number: int) -> int | None:
        return self.truth[number] if self.full_view else None

    def emit(self, event: dict[str, Any], logged: dict[str, Any] | None = None) -> None:
        """The engine gets the event as it happened; the log gets what its logger saw."""
        self.log["events"].append(event if logged is None else logged)
        self.game.apply(event, len(self.log["events"]) - 1)

    def hidden(self, event: dict[str, Any], *keys: str) -> dict[str, Any] | None:
        """The event with the values of ``keys`` as the logger saw them."""
        return None if self.full_view else {**event, **{key: None for key in keys}}

    # --- a whole game ----------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        game, n = self.game, len(self.names)
        while not self.over():
            who = 0 if game.current is None else (game.current + 1) % n
            self.turn(who)
            self.reactions()
            self.rearrange()
            if game.ended_by or game.holder is not None:
                continue
            if game.turn >= self.call_at or (game.turn >= 2 * n and self.rng.random() < 0.08):
                self.emit({"type": "bloops", "player": self.names[who]})
                self.reactions(chance=0.15)
        return self.finish()

    def over(self) -> bool:
        game = self.game
        return bool(game.ended_by) or game.final_left == 0 or game.table.pile_left == 0

    def turn(self, who: int) -> None:
        game, rng, name = self.game, self.rng, self.names[who]
        number = game.table.next_card
        value = self.truth[number]
        event = {"type": "draw", "player": name, "value": value}
        self.emit(event, self.hidden(event, "value"))
        places = game.table.places[who]
        keep = (0.75 if value <= 5 else 0.3) if value < 10 else 0.1
        if places and rng.random() < keep:
            known = [p for p in places if who in places[p].seen]  # what this player remembers
            if known and rng.random() < 0.7:
                place = max(known, key=lambda p: (self.truth[places[p].number], -p))
            else:
                place = rng.choice(sorted(places))
            self.emit({"type": "keep", "player": name, "place": place,
                       "value": self.truth[places[place].number]})
        else:
            self.emit({"type": "discard", "player": name, "value": value})

    def reactions(self, *, chance: float = 0.35) -> None:
        """Counter-discards and effects, interleaved, until nothing more happens."""
        game, counters = self.game, 0
        while not game.ended_by:
            game.settle()
            choices = ["effect"] if game.table.pending else []
            if counters < 3 and game.counter_open and self.rng.random() < chance:
                choices.append("counter")
            if not choices:
                return
            if self.rng.choice(choices) == "effect":
                self.effect()
            elif self.counter():
                counters += 1
            else:
                counters = 3

    def rearrange(self) -> None:
        """Now and then a player moves their cards around."""
        if self.game.ended_by or self.mixer.random() >= 0.06:
            return
        who = self.mixer.randrange(len(self.names))
        order = sorted(self.game.table.places[who])
        if len(order) < 2:
            return
        self.mixer.shuffle(order)
        event = {"type": "rearrange", "player": self.names[who], "order": order}
        self.emit(event, None if self.full_view else {**event, "order": "unknown"})

    def counter(self) -> bool:
        game, rng = self.game, self.rng
        top = game.table.top_value()
        every = [(p, place, card) for p, places in enumerate(game.table.places)
                 for place, card in places.items()]
        if not every:
            return False
        right = [entry for entry in every if self.truth[entry[2].number] == top]
        who, place, card = rng.choice(right if right and rng.random() < 0.8 else every)
        value = self.truth[card.number]
        event: dict[str, Any] = {"type": "counter", "player": self.names[who], "place": place,
                                 "value": value}
        if value != top and game.table.pile_left > 0:
            event["penalty"] = self.truth[game.table.next_card]
        logged = None if self.full_view else {k: v for k, v in event.items() if k != "penalty"}
        self.emit(event, logged)
        return True

    def effect(self) -> None:
        game, rng = self.game, self.rng
        effect = game.table.pending[0]
        who, name, kind = effect.owner, self.names[effect.owner], EFFECTS[effect.value]
        places = game.table.places
        others = [p for p in range(len(self.names)) if p != who]
        if kind == GIVE:
            target = rng.choice(others)
            event = {"type": "give", "player": name, "target": self.names[target],
                     "value": self.truth[game.table.next_card]}
            self.emit(event, self.hidden(event, "value"))
        elif kind == LOOK:
            target = rng.choice([p for p in range(len(self.names)) if places[p]])
            place = rng.choice(sorted(places[target]))
            event = {"type": "look", "player": name, "target": self.names[target],
                     "place": place, "value": self.truth[places[target][place].number]}
            self.emit(event, self.hidden(event, "value"))
        else:
            target = rng.choice([p for p in others if p != game.holder and places[p]])
            self.emit({"type": "swap", "player": name, "place": rng.choice(sorted(places[who])),
                       "target": self.names[target],
                       "target_place": rng.choice(sorted(places[target]))})

    def finish(self) -> dict[str, Any]:
        game = self.game
        status = game.finish()
        self.log["reveal"] = {
            name: {str(place): self.truth[card.number]
                   for place, card in game.table.places[p].items()}
            for p, name in enumerate(self.names)}
        if self.full_view and status == "complete":
            # the log is the engine's own deal and events, every card known: replaying it again
            # (with the reveal, of values the engine already knows) would end as the engine did
            outcome = game.outcome(status)
        else:  # the logger saw less: the claims are what the log itself establishes
            check = BloopsReplay(self.log, StepRecorder(enabled=False))
            outcome = check.outcome(check.run())
        self.log["claimed"] = {k: outcome[k] for k in ("ended_by", "scores", "winners")}
        return self.log

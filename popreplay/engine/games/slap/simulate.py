"""Random legal slap games, the same for the same seed: for tests, demos and benchmarks.

The simulator drives the rules engine itself (``SlapReplay.apply``), so every event it writes is
legal by construction. One player, the "champion", grows faster as the game goes on, so that an
elimination game always ends. Simulator options (not written to the log): ``deal`` = ``"full"``
(default: every card dealt is named), ``"counts"`` (pile sizes only) or ``"none"`` (no deal).
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any, Mapping

from ...replay import StepRecorder
from .cards import DECK
from .modes import MAX_PLAYERS, MIN_PLAYERS, MODES, even_deal
from .rules import SlapReplay
from .table import CENTRAL, FOLIES, LONE_RAINBOW, PILE_OF, SHADOW_TRAP

NAMES = ("Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji", "Farid")
DEAL_OPTIONS = ("full", "counts", "none")
MAX_EVENTS = 5_000  # the log format's limit (logformat/slap.py): every simulated log is valid


class _World:
    """The real cards of a simulated game, told every move by the engine's table (its ``watch``):
    the engine knows won cards only as a set; here they are shuffled under the winner's pile."""

    def __init__(self, rng: random.Random, deal: list[list[str]]) -> None:
        self.rng = rng
        self.piles = [deque(cards) for cards in deal]
        self.central: list[str] = []
        self.folies: list[str] = []

    def flip(self, position: int, card: str) -> None:
        assert self.piles[position].popleft() == card
        self.central.append(card)

    def pay(self, position: int, count: int) -> None:
        pile = self.piles[position]
        self.folies.extend(pile.popleft() for _ in range(min(count, len(pile))))

    def win(self, position: int, *, central: bool, others: bool, folies: bool) -> None:
        won: list[str] = []
        if central:
            won, self.central = self.central, []
        if others:
            players = len(self.piles)
            for k in range(1, players):
                pile = self.piles[(position + k) % players]
                if pile:
                    won.append(pile.popleft())
        if folies:
            won, self.folies = won + self.folies, []
        self.rng.shuffle(won)
        self.piles[position].extend(won)


class _Driver:
    def __init__(self, rng: random.Random, log: dict[str, Any]) -> None:
        self.rng = rng
        self.log = log
        self.events: list[dict[str, Any]] = log["events"]
        self.game = SlapReplay(log, StepRecorder(enabled=False))
        self.game.start()
        self.world = _World(rng, [log["deal"][name] for name in log["players"]])
        self.game.table.watch = self.world
        self.champion = rng.randrange(len(log["players"]))

    def push(self, event: dict[str, Any]) -> None:
        self.game.apply(len(self.events), event)
        self.events.append(event)

    @property
    def skill(self) -> float:
        return min(1.0, 0.45 + self.game.flips / 400)

    def still_in(self) -> list[int]:
        return self.game.table.still_in()

    def slap(self, player: int, pile: str = CENTRAL) -> None:
        event: dict[str, Any] = {"slap": self.log["players"][player]}
        if pile != CENTRAL:
            event["pile"] = pile
        self.push(event)

    def play_flip(self) -> bool:
        game = self.game
        game.close_window()
        if game.settle_stall():
            return False
        player = game.expected_flipper()
        if player is None:
            return False
        self.push({"flip": self.log["players"][player],
                   "card": self.world.piles[player][0]})
        return True

    def react(self, missed: bool) -> bool:
        """Slaps after a flip; returns whether a rewarding condition went unclaimed."""
        rng, game = self.rng, self.game
        window = game.window
        assert window is not None  # (called after a flip)
        rewarding = window.rewarding
        if rewarding:
            if rng.random() < 0.85 + 0.15 * (self.skill >= 1.0):
                champion = self.champion in self.still_in() and rng.random() < self.skill
                first = self.champion if champion else rng.choice(self.still_in())
                pile = CENTRAL if any(PILE_OF[c] == CENTRAL for c in rewarding) else FOLIES
                self.slap(first, pile)
                if game.ended_by is None and rng.random() < 0.2:
                    self.slap(rng.choice(self.still_in()), pile)
            else:
                return True
        elif missed and game.previous is not None and not window.conditions \
                and rng.random() < 0.4:
            pile = CENTRAL if any(PILE_OF[c] == CENTRAL for c in game.previous.rewarding) \
                else FOLIES
            self.slap(rng.choice(self.still_in()), pile)
            return False
        if game.ended_by is None and LONE_RAINBOW in window.conditions:
            order = self.still_in()
            rng.shuffle(order)
            for player in order:
                # the first slap may eliminate the players without cards (their last chance)
                if game.ended_by is None and game.table.is_in(player) and rng.random() < 0.85:
                    self.slap(player)
        elif game.ended_by is None and not rewarding:
            chance = 0.1 if SHADOW_TRAP in window.conditions else 0.02
            if rng.random() < chance:
                self.slap(rng.choice(self.still_in()), rng.choice((CENTRAL, CENTRAL, FOLIES)))
        return False


def simulate(*, mode: str, players: int, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"slap is for {MIN_PLAYERS}–{MAX_PLAYERS} players")
    deal_option = options.get("deal", "full")
    unknown = set(options) - {"deal"}
    if unknown or deal_option not in DEAL_OPTIONS:
        raise ValueError(f"slap simulator options: deal={'|'.join(DEAL_OPTIONS)}")
    # A random elimination game can go on for ever (cards keep changing hands): one that has not
    # ended within MAX_EVENTS is dropped and played again from a derived seed, so every simulated
    # game is complete, and the same seed still gives the same game.
    for attempt in range(100):
        key = f"slap/{mode}/{players}/{seed}" + (f"/{attempt}" if attempt else "")
        log, deal, driver = _play(random.Random(key), mode, players, seed)
        if driver.game.ended_by is not None:
            break
    if deal_option == "counts":
        log["deal"] = {name: len(cards) for name, cards in deal.items()}
    elif deal_option == "none":
        del log["deal"]
    outcome = driver.game.outcome()
    log["claimed"] = {"winners": outcome["winners"], "cards": outcome["cards"],
                      "eliminated": outcome["eliminated"]}
    return log


def _play(rng: random.Random, mode: str, players: int, seed: int) -> tuple[dict, dict, _Driver]:
    """One simulated game, stopped at its end, at time up, or after MAX_EVENTS events."""
    names = list(NAMES[:players])
    deck = list(DECK)
    rng.shuffle(deck)
    deal: dict[str, list[str]] = {}
    for name, count in zip(names, even_deal(players)):
        deal[name], deck = deck[:count], deck[count:]
    log: dict[str, Any] = {"format": "popreplay/1", "game": "slap", "mode": mode,
                           "players": names,
                           "meta": {"title": f"Simulated {mode} #{seed}", "source": "simulated"},
                           "deal": deal, "events": []}
    driver = _Driver(rng, log)
    limit = rng.randint(30, 300) if mode == "timed" else None
    missed = False
    while driver.game.ended_by is None and len(log["events"]) < MAX_EVENTS:
        if limit is not None and driver.game.flips >= limit:
            driver.push({"time_up": True})
            break
        if not driver.play_flip():
            break
        missed = driver.react(missed)
    return log, deal, driver

"""Random legal POP! games, the same for the same seed: for tests, demos and benchmarks."""

from __future__ import annotations

import random
from typing import Any, Mapping

from .cards import ARROW, COLOUR, DECK
from .grid import Area, index_of, touches
from .modes import MODES

TRIES = 12  # candidate plays a simulated player weighs each turn

NAMES = ("Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji")


def _layout(rng: random.Random, pile: list[int], heights: list[int]) -> list[list[int | None]]:
    """Deal rows top to bottom; a card that would touch its colour is put back (the rulebook's
    "replace one of them"). Columns shorter than the tallest get gaps on top."""
    rows = max(heights)
    grid: list[list[int | None]] = [[None] * 5 for _ in range(rows)]
    colours = Area(grid).colours  # the dealt cards' colours, for the colour rule (grid.touches)
    for r in range(rows):
        for c in range(5):
            if r < rows - heights[c]:
                continue
            here = index_of(c, r)
            for i, card in enumerate(pile):
                colour = COLOUR[card]
                assert colour is not None  # the pile holds the deck's numbered cards
                if not touches(colours, here, colour):
                    grid[r][c] = pile.pop(i)
                    colours[here] = colour
                    break
    return grid


def simulate(*, mode: str, players: int, seed: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    spec = MODES[mode]
    if not spec.min_players <= players <= spec.max_players:
        raise ValueError(f"{mode} is for {spec.min_players}–{spec.max_players} players")
    rng = random.Random(f"pop/{mode}/{players}/{seed}/{sorted(options.items())}")
    names = list(NAMES[:players]) if players > 1 else ["Solo"]
    variant = bool(options.get("two_player_variant"))
    difficulty = options.get("difficulty", 1 if mode == "solo" else None)
    log: dict[str, Any] = {"format": "popreplay/1", "game": "pop", "mode": mode, "players": names}
    log_options = {}
    if variant:
        log_options["two_player_variant"] = True
    if mode == "solo":
        log_options["difficulty"] = difficulty
    if log_options:
        log["options"] = log_options
    log["meta"] = {"title": f"Simulated {mode} #{seed}", "source": "simulated"}
    log["rounds"] = [_round(rng, mode, names, variant=variant, difficulty=difficulty)
                     for _ in range(spec.rounds)]
    return _finish(log)


def _finish(log: dict[str, Any]) -> dict[str, Any]:
    """Cut the turns after a coop loss or a solo win, and claim what really happened."""
    from ...replay import StepRecorder
    from .rules import PopReplay

    game = PopReplay(log, StepRecorder(enabled=False))
    status = game.run_until_end()
    if game.finished_by is not None:
        turns = log["rounds"][0]["turns"]
        del turns[game.turns_begun:]
        turns[-1].pop("draws", None)
        game = PopReplay(log, StepRecorder(enabled=False))
        status = game.run()
    outcome = game.outcome(status)
    if log["mode"] == "battle":
        log["claimed"] = {"totals": outcome["totals"], "winners": outcome["winners"]}
    else:
        log["claimed"] = {k: v for k, v in outcome.items() if k in ("result", "solved")}
    return log


def _round(rng: random.Random, mode: str, names: list[str], *, variant: bool,
           difficulty: int | None) -> dict[str, Any]:
    spec = MODES[mode]
    pile = list(DECK)
    rng.shuffle(pile)
    if mode == "puzzle":
        heights = [rng.randint(0, 3) for _ in range(5)]
        heights[rng.randrange(5)] = max(1, max(heights))
    else:
        rows = spec.layout_rows(difficulty)
        if rows is None:
            raise ValueError(f"a {mode} game needs a difficulty")
        heights = [rows] * 5
    layout = _layout(rng, pile, heights)
    hand_size = spec.hand_size or 5 + rng.randint(0, 3)
    hands = {name: sorted(pile.pop() for _ in range(hand_size)) for name in names}
    held = {name: list(cards) for name, cards in hands.items()}
    area = Area(layout)
    chief_count = spec.chief_cards(len(names), variant=variant)
    per_player = spec.player_cards(variant=variant)
    turns = []
    for _ in range(spec.turns(difficulty)):
        turn: dict[str, Any] = {}
        if variant:
            turn["draws"] = {name: [pile.pop()] for name in names}
            for name in names:
                held[name] += turn["draws"][name]
        chief = [pile.pop() for _ in range(chief_count)]
        plays = _choose(rng, mode, area, held, per_player, chief)
        for name, cards in plays.items():
            for card in cards:
                held[name].remove(card)
        _place_turn(area, [c for cs in plays.values() for c in cs] + chief)
        turn["plays"] = plays
        if chief_count:
            turn["chief"] = chief
        if mode == "solo" and pile:
            turn["draws"] = {names[0]: sorted(pile.pop() for _ in range(5))}
            held[names[0]] += turn["draws"][names[0]]
        turns.append(turn)
    round_log: dict[str, Any] = {"layout": layout, "hands": hands, "turns": turns}
    return round_log


def _place_turn(area: Area, cards: list[int]) -> int:
    """Place one turn's cards as the rules do; return how many cards exploded."""
    ordered = sorted(cards)
    columns = list(enumerate(ordered))
    if sum(ARROW[c] for c in ordered) >= 3:
        columns.reverse()
    exploded = 0
    for column, card in columns:
        index = area.place(column, card)
        exploded += sum(len(wave) for wave in area.resolve(index))
    return exploded


def _choose(rng: random.Random, mode: str, area: Area, held: dict[str, list[int]],
            per_player: int, chief: list[int]) -> dict[str, list[int]]:
    """Coop players look for a turn without explosion, solo and puzzle players for the most
    explosions; battle players play at random. Only the cards each player holds are ever chosen."""
    best, best_score = None, None
    for _ in range(TRIES if mode != "battle" else 1):
        plays = {name: sorted(rng.sample(cards, per_player)) for name, cards in held.items()}
        if mode == "battle":
            return plays
        exploded = _place_turn(area.copy(), [c for cs in plays.values() for c in cs] + chief)
        score = -exploded if mode == "coop" else exploded
        if best_score is None or score > best_score:
            best, best_score = plays, score
        if mode == "coop" and exploded == 0:
            break
    assert best is not None  # (TRIES >= 1)
    return best

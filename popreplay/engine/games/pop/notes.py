"""Annotated steps of a POP! replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. Every step is ``{index, kind, round, turn, note, data, state}``
(see ``docs/log-format.md``); ``state`` is the table after the step. A Chief card has owner ``null``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import ARROW, ICONS, QUEUES

if TYPE_CHECKING:
    from .rules import PopReplay, Round

CHIEF_NAME = "the Multicolour Chief"


def card_list(cards) -> str:
    cards = [str(c) for c in cards]
    if len(cards) <= 1:
        return "".join(cards)
    return ", ".join(cards[:-1]) + " and " + cards[-1]


def _owner(game: PopReplay, owner: int | None) -> str | None:
    return None if owner is None else game.names[owner]


def _who(game: PopReplay, owner: int | None) -> str:
    return CHIEF_NAME if owner is None else game.names[owner]


def state(game: PopReplay, rnd: Round, area: dict | None = None) -> dict:
    names = game.names
    totals = [sum(r.scores[p] for r in game.rounds) for p in range(len(names))]
    return {
        "area": area if area is not None else rnd.area.snapshot(),
        "scores": dict(zip(names, rnd.scores)),
        "totals": dict(zip(names, totals)),
        "collected": {n: sorted(c) for n, c in zip(names, rnd.collected)},
        "chief_pending": sorted(rnd.pending),
        "unplaced": list(rnd.unplaced),
        "hands": None if rnd.hands is None else {
            n: sorted(h) for n, h in zip(names, rnd.hands)},
    }


def _add(game: PopReplay, rnd: Round, kind: str, turn: int | None, note: str, data: dict,
         area: dict | None = None) -> None:
    game.rec.add(kind, round=rnd.number, turn=turn, note=note, data=data,
                 state=state(game, rnd, area))


def deal(game: PopReplay, rnd: Round) -> None:
    rows = rnd.area.rows()
    cards = sum(c is not None for row in rows for c in row)
    hands = "" if rnd.hands is None else f"; hands of {len(next(iter(rnd.hands), ()))} are dealt"
    note = (f"Round {rnd.number}: {cards} starting card{'s' * (cards != 1)} in "
            f"{len(rows)} row{'s' * (len(rows) != 1)}{hands}.")
    _add(game, rnd, "deal", None, note, {"layout": rows})


def draw(game: PopReplay, rnd: Round, name: str, cards: list[int], turn: int) -> None:
    note = f"{name} draws {card_list(cards)}."
    _add(game, rnd, "draw", turn, note, {"player": name, "cards": list(cards)})


def reveal(game: PopReplay, rnd: Round, owners: list[tuple[int, int | None]], arrows: int,
           turn: int) -> None:
    descending = arrows >= 3
    cards = [{"card": card, "owner": _owner(game, owner), "queue": QUEUES[i],
              "arrow": ARROW[card]} for i, (card, owner) in enumerate(owners)]
    order = [c["card"] for c in (reversed(cards) if descending else cards)]
    direction = "descending" if descending else "ascending"
    note = (f"Turn {turn}: {card_list(c['card'] for c in cards)} are revealed — {arrows} "
            f"Arrow{'s' * (arrows != 1)}, placed in {direction} order "
            f"({'E' if descending else 'A'} first).")
    _add(game, rnd, "reveal", turn, note,
         {"cards": cards, "arrows": arrows, "direction": direction, "order": order})


def placement(game: PopReplay, rnd: Round, owner: int | None, waves: list[list[int]],
              taken: list[int], turn: int, placed: dict, where: tuple[int, int, int]) -> None:
    card, column, row = where
    queue = QUEUES[column]
    rows = placed["rows"]
    above = rows[row - 1][column] if row >= 1 else None
    who = _who(game, owner)
    lead = f"{who}'s {card} lands {f'under {above} in' if above is not None else 'at the head of'}"
    lead += f" queue {queue}"
    if not waves:
        note = f"{lead}: nothing explodes."
    else:
        count = sum(len(w) for w in waves)
        gained = sum(_icons(w) for w in waves)
        if owner is None:
            note = f"{lead}: {count} cards explode and wait beside the Chief ({gained} icons)."
        else:
            note = f"{lead}: {count} cards explode, {who} collects {gained + _icons(taken)} icons."
    _add(game, rnd, "place", turn, note,
         {"card": card, "owner": _owner(game, owner), "queue": queue, "row": row,
          "under": above, "explodes": waves[0] if waves else []}, area=placed)


def wave(game: PopReplay, rnd: Round, owner: int | None, number: int, cards: list[int],
         taken: list[int], turn: int, area: dict) -> None:
    icons = _icons(cards)
    who = _who(game, owner)
    if owner is None:
        note = f"Wave {number}: {card_list(cards)} explode ({icons} icons) and wait beside the Chief."
    else:
        note = f"Wave {number}: {card_list(cards)} explode — {icons} icons to {who}."
        if taken:
            note += (f" {who} also takes the Chief's waiting pile: {card_list(taken)} "
                     f"({_icons(taken)} icons).")
    _add(game, rnd, "explode", turn, note,
         {"wave": number, "cards": cards, "collector": _owner(game, owner), "icons": icons,
          "chief_pile_taken": sorted(taken)}, area=area)


def _icons(cards) -> int:
    return sum(ICONS[c] for c in cards)


def round_end(game: PopReplay, rnd: Round, index: int) -> None:
    scores = ", ".join(f"{n} {s}" for n, s in zip(game.names, rnd.scores))
    note = f"Round {rnd.number} ends" + (f": {scores}." if game.mode.name == "battle" else ".")
    _add(game, rnd, "round-end", None, note,
         {"scores": dict(zip(game.names, rnd.scores)), "kept": dict(zip(game.names,
          game.kept[index])), "chief_pending": sorted(rnd.pending)})


def game_end(game: PopReplay, outcome: dict) -> None:
    rnd = game.rounds[-1]
    mode = game.mode.name
    if mode == "battle":
        winners = outcome["winners"] or []
        best = outcome["totals"][winners[0]] if winners else None
        note = f"Game over: {card_list(winners)} win{'s' * (len(winners) == 1)} with {best} points."
        if outcome["tie_break"] == "kept-card":
            note += " The tie is broken by the card left in hand."
        elif outcome["tie_break"] == "shared":
            note += " The victory is shared."
        elif outcome["tie_break"] == "unknown":
            note += " Tied: the kept cards are not recorded, so the tie cannot be broken."
    elif mode == "coop":
        note = (f"The group {'wins' if outcome['result'] == 'won' else 'loses'}: "
                f"level {outcome['level']}.")
    elif mode == "solo":
        note = ("Solo won: title " + outcome["title"] + "." if outcome["result"] == "won"
                else f"Solo lost: {outcome['cards_left_in_play']} cards are still in play.")
    else:
        note = ("Puzzle solved." if outcome["solved"]
                else f"Puzzle not solved: {outcome['layout_cards_left']} starting cards remain.")
    _add(game, rnd, "game-end", None, note, {"outcome": outcome})


def violation(game: PopReplay, error: dict) -> None:
    rnd = game.rounds[-1] if game.rounds else None
    note = f"Illegal: {error['message']}."
    if rnd is None:
        game.rec.add("violation", round=None, turn=None, note=note, data={"error": error},
                     state=None)
    else:
        game.rec.add("violation", round=error["round"], turn=error["turn"], note=note,
                     data={"error": error}, state=state(game, rnd))

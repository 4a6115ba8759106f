"""Annotated steps of a POP! replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. Every step is ``{index, kind, round, turn, note, data, state}``
(see ``docs/log-format.md``); ``state`` is the table after the step. A Chief card has owner ``null``.
"""

from __future__ import annotations

from typing import Iterable

from ...messages import Msg, msg
from .cards import ARROW, ICONS, QUEUES
from .messages import CHIEF_NAME
from .state import PopState, Round


def card_list(cards: Iterable[int]) -> str:
    texts = [str(c) for c in cards]
    if len(texts) <= 1:
        return "".join(texts)
    return ", ".join(texts[:-1]) + " and " + texts[-1]


def _owner(game: PopState, owner: int | None) -> str | None:
    return None if owner is None else game.names[owner]


def _who(game: PopState, owner: int | None) -> str:
    return CHIEF_NAME if owner is None else game.names[owner]


def state(game: PopState, rnd: Round, area: dict | None = None) -> dict:
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


def _add(game: PopState, rnd: Round, kind: str, turn: int | None, note: Msg, data: dict,
         area: dict | None = None) -> None:
    game.rec.add(kind, round=rnd.number, turn=turn, note=note, data=data,
                 state=state(game, rnd, area))


def deal(game: PopState, rnd: Round) -> None:
    rows = rnd.area.rows()
    cards = sum(c is not None for row in rows for c in row)
    hands = ("" if rnd.hands is None
             else msg("pop.note.deal-hands", size=len(next(iter(rnd.hands), ()))))
    note = msg("pop.note.deal", round=rnd.number, cards=cards, rows=len(rows), hands=hands)
    _add(game, rnd, "deal", None, note, {"layout": rows})


def draw(game: PopState, rnd: Round, name: str, cards: list[int], turn: int) -> None:
    note = msg("pop.note.draw", name=name, cards=list(cards))
    _add(game, rnd, "draw", turn, note, {"player": name, "cards": list(cards)})


def reveal(game: PopState, rnd: Round, owners: list[tuple[int, int | None]], arrows: int,
           turn: int) -> None:
    descending = arrows >= 3
    cards = [{"card": card, "owner": _owner(game, owner), "queue": QUEUES[i],
              "arrow": ARROW[card]} for i, (card, owner) in enumerate(owners)]
    order = [c["card"] for c in (reversed(cards) if descending else cards)]
    direction = "descending" if descending else "ascending"
    note = msg(f"pop.note.reveal-{direction}", turn=turn, cards=[c["card"] for c in cards],
               arrows=arrows)
    _add(game, rnd, "reveal", turn, note,
         {"cards": cards, "arrows": arrows, "direction": direction, "order": order})


def placement(game: PopState, rnd: Round, owner: int | None, waves: list[list[int]],
              taken: list[int], turn: int, placed: dict, where: tuple[int, int, int]) -> None:
    card, column, row = where
    queue = QUEUES[column]
    rows = placed["rows"]
    above = rows[row - 1][column] if row >= 1 else None
    who = _who(game, owner)
    lead = (msg("pop.note.lands-under", who=who, card=card, above=above, queue=queue)
            if above is not None else msg("pop.note.lands-head", who=who, card=card, queue=queue))
    if not waves:
        note = msg("pop.note.place-nothing", lead=lead)
    else:
        count = sum(len(w) for w in waves)
        gained = sum(_icons(w) for w in waves)
        if owner is None:
            note = msg("pop.note.place-chief", lead=lead, count=count, icons=gained)
        else:
            note = msg("pop.note.place-collect", lead=lead, count=count, who=who,
                       icons=gained + _icons(taken))
    _add(game, rnd, "place", turn, note,
         {"card": card, "owner": _owner(game, owner), "queue": queue, "row": row,
          "under": above, "explodes": waves[0] if waves else []}, area=placed)


def wave(game: PopState, rnd: Round, owner: int | None, number: int, cards: list[int],
         taken: list[int], turn: int, area: dict) -> None:
    icons = _icons(cards)
    who = _who(game, owner)
    if owner is None:
        note = msg("pop.note.wave-chief", wave=number, cards=list(cards), icons=icons)
    elif taken:
        note = msg("pop.note.wave-pile", wave=number, cards=list(cards), icons=icons, who=who,
                   taken=list(taken), taken_icons=_icons(taken))
    else:
        note = msg("pop.note.wave", wave=number, cards=list(cards), icons=icons, who=who)
    _add(game, rnd, "explode", turn, note,
         {"wave": number, "cards": cards, "collector": _owner(game, owner), "icons": icons,
          "chief_pile_taken": sorted(taken)}, area=area)


def _icons(cards: Iterable[int]) -> int:
    return sum(ICONS[c] for c in cards)


def round_end(game: PopState, rnd: Round, index: int) -> None:
    if game.mode.name == "battle":
        note = msg("pop.note.round-end-scores", round=rnd.number,
                   scores=dict(zip(game.names, rnd.scores)))
    else:
        note = msg("pop.note.round-end", round=rnd.number)
    _add(game, rnd, "round-end", None, note,
         {"scores": dict(zip(game.names, rnd.scores)), "kept": dict(zip(game.names,
          game.kept[index])), "chief_pending": sorted(rnd.pending)})


def game_end(game: PopState, outcome: dict) -> None:
    rnd = game.rounds[-1]
    mode = game.mode.name
    if mode == "battle":
        winners = outcome["winners"] or []
        best = outcome["totals"][winners[0]] if winners else None
        tie = outcome["tie_break"]
        note = msg("pop.note.battle-end", winners=list(winners), points=best,
                   tie=msg(f"pop.note.tie-{tie}") if tie in ("kept-card", "shared", "unknown")
                   else "")
    elif mode == "coop":
        note = msg("pop.note.coop-won" if outcome["result"] == "won" else "pop.note.coop-lost",
                   level=msg(f"pop.level.{outcome['level']}"))
    elif mode == "solo":
        note = (msg("pop.note.solo-won", title=msg(f"pop.title.{outcome['title']}"))
                if outcome["result"] == "won"
                else msg("pop.note.solo-lost", count=outcome["cards_left_in_play"]))
    else:
        note = (msg("pop.note.puzzle-solved") if outcome["solved"]
                else msg("pop.note.puzzle-not-solved", count=outcome["layout_cards_left"]))
    _add(game, rnd, "game-end", None, note, {"outcome": outcome})


def violation(game: PopState, error: dict) -> None:
    rnd = game.rounds[-1] if game.rounds else None
    note = msg("core.illegal", message=error["message"])
    if rnd is None:
        game.rec.add("violation", round=None, turn=None, note=note, data={"error": error},
                     state=None)
    else:
        game.rec.add("violation", round=error["round"], turn=error["turn"], note=note,
                     data={"error": error}, state=state(game, rnd))

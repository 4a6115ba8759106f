"""Annotated steps of a slap replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. Every step is ``{index, kind, round, turn, note, data,
state}``; ``state`` is described in ``docs/formats/slap.md``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...messages import Msg, msg
from ...replay import StepRecorder
from .messages import card as card_word
from .hidden import Entry
from .table import SHADOW_TRAP, Challenge, Table, Window


class SlapReplay(Protocol):
    """What the notes read of the replay (:class:`~.rules.SlapReplay`, which they do not
    import: the rules call the notes)."""

    @property
    def rec(self) -> StepRecorder: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def table(self) -> Table: ...
    @property
    def window(self) -> Window | None: ...
    @property
    def challenge(self) -> Challenge | None: ...
    @property
    def next_from(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def ended_by(self) -> str | None: ...


def next_flipper(game: SlapReplay) -> int | None:
    """Who flips next as the table stands (a finished challenge goes to its setter)."""
    table, challenge = game.table, game.challenge
    if challenge is not None:
        answer = challenge.player
        if answer is None or challenge.left == 0 or not table.counts[answer]:
            return challenge.setter
        return answer
    return table.next_with_cards(game.next_from)


def state(game: SlapReplay) -> dict[str, Any]:
    """The table after a step. Each part equal to the step before's is that step's object
    (piles and won sets are kept as they were shown, ``Table.shown_pile``, ``Hidden.shown_sets``):
    a step costs what changed, and the replay format's patches skip the rest by identity."""
    names, table = game.names, game.table
    challenge, window = game.challenge, game.window
    following = None if game.ended_by else next_flipper(game)
    last = table.shown_last
    counts, eliminated = table.counts, table.eliminated
    # (zip and map rather than comprehensions: the same dicts and lists, built in C)
    now = {
        "piles": dict(zip(names, map(table.shown_pile, range(len(names))))),
        "counts": dict(zip(names, counts)),
        "central": list(table.central),
        "folies": table.shown_folies(),
        "sets": table.hidden.shown_sets(),
        "status": dict(zip(names, [("in" if counts[p] else "no-cards") if p not in eliminated
                                   else "eliminated" for p in range(len(names))])),
        "eliminated": list(map(names.__getitem__, eliminated)),
        "next": None if following is None else names[following],
        "challenge": None if challenge is None else {
            "setter": names[challenge.setter],
            "player": None if challenge.player is None else names[challenge.player],
            "size": challenge.size, "left": challenge.left},
        "window": None if window is None else {
            "card": window.card, "flipper": names[window.flipper],
            "conditions": list(window.conditions),
            "won_by": None if window.won_by is None else names[window.won_by]},
    }
    if last:
        for key in _SHARED:
            value, before = now[key], last[key]
            if value is not before and value == before:  # (no bool among these values)
                now[key] = before
    table.shown_last = now
    return now


_SHARED = ("piles", "counts", "central", "status", "eliminated", "challenge", "window")


def _add(game: SlapReplay, kind: str, round: int | None, turn: int | None, note: Msg,
         data: dict[str, Any]) -> None:
    game.rec.add(kind, round=round, turn=turn, note=note, data=data, state=state(game))


def _counts(game: SlapReplay) -> dict[str, int]:
    return {n: game.table.counts[p] for p, n in enumerate(game.names)}


def deal(game: SlapReplay) -> None:
    known = len(game.table.hidden.seen)
    detail = msg("slap.note.deal-all-known") if known == 102 else (
        msg("slap.note.deal-known", known=known) if known else msg("slap.note.deal-unknown"))
    note = msg("slap.note.deal", detail=detail, counts=_counts(game), first=game.names[0])
    _add(game, "deal", None, None, note, {"counts": _counts(game)})


def flip(game: SlapReplay, player: int, card: str) -> None:
    window = game.window
    assert window is not None  # (the flip opened it)
    name = game.names[player]
    central = game.table.central
    under = _onto(central[-2]) if len(central) >= 2 else ""
    found = _found(window.conditions)
    challenge = game.challenge
    said: Msg | str = ""
    if challenge is not None and challenge.setter == player and challenge.left == challenge.size:
        if challenge.player is None:
            said = msg("slap.note.challenge-unanswerable", size=challenge.size)
        else:
            said = msg("slap.note.challenge", name=game.names[challenge.player],
                       size=challenge.size)
    elif challenge is not None and challenge.left:
        said = msg("slap.note.challenge-card", left=challenge.left)
    elif challenge is not None:
        said = msg("slap.note.challenge-last", setter=game.names[challenge.setter])
    last = "" if game.table.counts[player] else msg("slap.note.last-chance", name=name)
    note = msg("slap.note.flip", name=name, card=card_word(card), under=under, found=found,
               challenge=said, last=last)
    _add(game, "flip", window.round, window.turn, note,
         {"player": name, "card": card, "under": central[-2] if len(central) >= 2 else None,
          "conditions": list(window.conditions)})


def _onto(card: str) -> Msg:
    """"onto <card>" of a flip's note, made once per card (the notes never change a message)."""
    said = _ONTO.get(card)
    if said is None:
        said = _ONTO[card] = msg("slap.note.onto", card=card_word(card))
    return said


def _found(conditions: tuple[str, ...]) -> Msg:
    """What a flipped card makes, made once per list of conditions."""
    said = _FOUND.get(conditions)
    if said is None:
        said = _FOUND[conditions] = (
            msg("slap.note.found", conditions=[msg(f"slap.cond.{c}") for c in conditions])
            if conditions else msg("slap.note.full-stop"))
    return said


_ONTO: dict[str, Msg] = {}
_FOUND: dict[tuple[str, ...], Msg] = {}


def slap(game: SlapReplay, player: int, pile: str, result: dict[str, Any]) -> None:
    name = game.names[player]
    window = game.window
    where = msg("slap.note.on-folies") if pile == "folies" else ""
    kind = result["result"]
    if kind == "won":
        gained = result["gained"]
        parts = []
        for key in ("central", "players", "folies"):
            if key in gained:
                parts.append(msg(f"slap.note.gain-{key}", count=len(gained[key])))
        what = msg("slap.note.missed" if result["claimed"] else "slap.note.first")
        back = msg("slap.note.back-in", name=name) if result["back_in"] else ""
        out = (msg("slap.note.eliminated", out=list(result["eliminated"]))
               if result["eliminated"] else "")
        note = msg("slap.note.won", name=name, where=where, what=what,
                   parts=parts or msg("slap.note.nothing"), back=back, out=out)
    elif kind == "valid":
        assert window is not None  # (a valid slap answers the open window)
        interrupted = (msg("slap.note.interrupted", flipper=game.names[window.flipper])
                       if result.get("interrupted") else "")
        out = (msg("slap.note.eliminated-last-chance", out=list(result["eliminated"]))
               if result.get("eliminated") else "")
        note = msg("slap.note.valid", name=name, interrupted=interrupted, out=out)
    elif kind == "late":
        note = msg("slap.note.late", name=name, where=where)
    else:
        paid = len(result["paid"])
        real = [c for c in window.conditions if c != SHADOW_TRAP] if window else []
        if window is None:
            why = "slap.note.wrong-early"
        elif real:
            why = "slap.note.wrong-pile"
        elif window.conditions:
            why = "slap.note.wrong-trap"
        else:
            why = "slap.note.wrong-nothing"
        note = msg("slap.note.wrong", name=name, where=where, why=msg(why), paid=paid)
    data = {"player": name, "pile": pile, **result}
    if "paid" in data:
        data["paid"] = game.table.shown(data["paid"])
    round_, turn = (window.round, window.turn) if window is not None else (game.round, None)
    _add(game, "slap", round_, turn, note, data)


def challenge_won(game: SlapReplay, challenge: Challenge, cards: list[str], *, back: bool) -> None:
    setter = game.names[challenge.setter]
    if challenge.player is None:
        why = msg("slap.note.challenge-nobody")
    elif challenge.left:
        why = msg("slap.note.challenge-ran-out", name=game.names[challenge.player])
    else:
        why = msg("slap.note.challenge-no-answer")
    note = msg("slap.note.challenge-won", setter=setter, why=why, count=len(cards),
               back=msg("slap.note.back-in", name=setter) if back else "")
    _add(game, "challenge-won", game.round, game.turn or None, note,
         {"player": setter, "cards": len(cards)})


def rainbow_penalties(game: SlapReplay, window: Window, paid: dict[int, list[Entry]], *,
                      all_slapped: bool) -> None:
    names = game.names
    if all_slapped:
        last = next(iter(paid))
        note = msg("slap.note.rainbow-all", name=names[last], count=len(paid[last]))
    else:
        note = msg("slap.note.rainbow-missed", payments=[
            msg("slap.note.rainbow-pays", name=names[p], count=len(cards))
            for p, cards in paid.items()])
    _add(game, "rainbow-penalty", window.round, window.turn, note,
         {"paid": {names[p]: game.table.shown(cards) for p, cards in paid.items()},
          "all_slapped": all_slapped})


def stalled(game: SlapReplay) -> None:
    _add(game, "stalled", game.round, None, msg("slap.note.stalled"), {})


def time_up(game: SlapReplay) -> None:
    _add(game, "time-up", game.round, None, msg("slap.note.time-up", counts=_counts(game)), {})


def game_end(game: SlapReplay, outcome: dict[str, Any]) -> None:
    winners = outcome["winners"] or []
    if outcome["ended_by"] == "elimination":
        note = msg("slap.note.end-elimination", name=winners[0])
    elif outcome["ended_by"] == "no-cards":
        note = msg("slap.note.end-no-cards")
    else:
        note = msg("slap.note.end-cards", winners=list(winners),
                   count=outcome["cards"][winners[0]])
    _add(game, "game-end", game.round, None, note, {"outcome": outcome})


def violation(game: SlapReplay, error: dict[str, Any]) -> None:
    game.rec.add("violation", round=error["round"], turn=error["turn"],
                 note=msg("core.illegal", message=error["message"]), data={"error": error},
                 state=state(game))

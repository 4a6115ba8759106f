"""Annotated steps of a slap replay: what happened, the whole table after it, one plain note.

Only called when steps are recorded. Every step is ``{index, kind, round, turn, note, data,
state}``; ``state`` is described in ``docs/formats/slap.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .table import (
    LONE_RAINBOW,
    RAINBOW_ON_SHADOW,
    SAME_VALUE,
    SHADOW_ON_SHADOW,
    SHADOW_TRAP,
    THREE_OF_A_COLOUR,
)

if TYPE_CHECKING:
    from .rules import SlapReplay
    from .table import Challenge, Window

CONDITION_TEXT = {
    SAME_VALUE: "same value",
    THREE_OF_A_COLOUR: "three of one colour",
    SHADOW_ON_SHADOW: "shadow on shadow",
    RAINBOW_ON_SHADOW: "rainbow on shadow",
    LONE_RAINBOW: "a lone rainbow: everyone must slap",
    SHADOW_TRAP: "the shadow trap: nobody slaps",
}


def _cards(count: int) -> str:
    return f"{count} card{'s' * (count != 1)}"


def _list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def next_flipper(game: SlapReplay) -> int | None:
    """Who flips next as the table stands (a finished challenge goes to its setter)."""
    table, challenge = game.table, game.challenge
    if challenge is not None:
        answer = challenge.player
        if answer is None or challenge.left == 0 or not table.counts[answer]:
            return challenge.setter
        return answer
    return table.next_with_cards(game.next_from)


def _status(game: SlapReplay, position: int) -> str:
    table = game.table
    if not table.is_in(position):
        return "eliminated"
    return "in" if table.counts[position] else "no-cards"


def _sets(table) -> dict[str, dict[str, Any]]:
    """Every family of face-down places that is not a plain unseen card: a set of won cards
    (order unknown) or a card that left one unseen; keyed by its places' prefix (``?12`` for
    ``?12.1``, ``?12.2``…)."""
    hidden = table.hidden
    return {f"?{fid}": {"count": size, "cards": hidden.members(fid), "unseen": hidden.free[fid]}
            for fid, size in sorted(hidden.size.items()) if size > 1 or hidden.cards[fid]}


def state(game: SlapReplay) -> dict[str, Any]:
    names, table = game.names, game.table
    challenge, window = game.challenge, game.window
    following = None if game.ended_by else next_flipper(game)
    return {
        "piles": {n: table.shown(table.piles[p]) for p, n in enumerate(names)},
        "counts": {n: table.counts[p] for p, n in enumerate(names)},
        "central": list(table.central),
        "folies": table.shown(table.folies),
        "sets": _sets(table),
        "status": {n: _status(game, p) for p, n in enumerate(names)},
        "eliminated": [names[p] for p in table.eliminated],
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


def _add(game: SlapReplay, kind: str, round: int | None, turn: int | None, note: str,
         data: dict[str, Any]) -> None:
    game.rec.add(kind, round=round, turn=turn, note=note, data=data, state=state(game))


def deal(game: SlapReplay) -> None:
    counts = ", ".join(f"{n} {game.table.counts[p]}" for p, n in enumerate(game.names))
    known = len(game.table.hidden.seen)
    detail = "every card is known" if known == 102 else (
        f"{known} known card{'s' * (known != 1)}" if known else "the cards are not known")
    note = f"The 102 cards are dealt ({detail}): {counts}. {game.names[0]} flips first."
    _add(game, "deal", None, None, note,
         {"counts": {n: game.table.counts[p] for p, n in enumerate(game.names)}})


def flip(game: SlapReplay, player: int, card: str) -> None:
    window = game.window
    name = game.names[player]
    central = game.table.central
    under = f" onto {central[-2]}" if len(central) >= 2 else ""
    note = f"{name} flips {card}{under}"
    found = [CONDITION_TEXT[c] for c in window.conditions]
    note += (" — " + "; ".join(found) + "." if found else ".")
    challenge = game.challenge
    if challenge is not None and challenge.setter == player and challenge.left == challenge.size:
        if challenge.player is None:
            note += f" A challenge of {challenge.size}, but nobody can answer it."
        else:
            note += (f" Challenge: {game.names[challenge.player]} must flip "
                     f"{_cards(challenge.size)}.")
    elif challenge is not None and challenge.left:
        note += f" Challenge card: {challenge.left} left."
    elif challenge is not None:
        note += (f" Last challenge card, no 1–5: {game.names[challenge.setter]} takes the pile "
                 "unless a slap comes first.")
    if not game.table.counts[player]:
        note += f" {name} has no cards left: a last chance at the next won slap."
    _add(game, "flip", window.round, window.turn, note,
         {"player": name, "card": card, "under": central[-2] if len(central) >= 2 else None,
          "conditions": list(window.conditions)})


def slap(game: SlapReplay, player: int, pile: str, result: dict[str, Any]) -> None:
    name = game.names[player]
    window = game.window
    where = " the Folies pile" if pile == "folies" else ""
    kind = result["result"]
    if kind == "won":
        gained = result["gained"]
        parts = []
        if "central" in gained:
            parts.append(f"the central pile ({_cards(len(gained['central']))})")
        if "players" in gained:
            parts.append(f"one card from each other player ({_cards(len(gained['players']))})")
        if "folies" in gained:
            parts.append(f"the Folies pile ({_cards(len(gained['folies']))})")
        what = "a missed slap one card later" if result["claimed"] else "first"
        note = f"{name} slaps{where} {what} and wins {_list(parts) or 'nothing'}."
        if result["back_in"]:
            note += f" {name} is back in the game."
        if result["eliminated"]:
            out = _list(result["eliminated"])
            note += f" {out} {'is' if len(result['eliminated']) == 1 else 'are'} eliminated."
    elif kind == "valid":
        note = f"{name} slaps the rainbow in time."
        if result.get("interrupted"):
            note += (" A valid slap: the challenge is over, nobody takes the central pile; "
                     f"{game.names[window.flipper]}'s next player flips next.")
        if result.get("eliminated"):
            out = _list(result["eliminated"])
            note += (f" {out} {'is' if len(result['eliminated']) == 1 else 'are'} eliminated "
                     "(this was their last chance).")
    elif kind == "late":
        note = f"{name} slaps{where} too late: the card is already won, no penalty."
    else:
        paid = len(result["paid"])
        real = [c for c in window.conditions if c != SHADOW_TRAP] if window else []
        if window is None:
            why = "before any card is flipped"
        elif real:
            why = "on the wrong pile"
        elif window.conditions:
            why = "on the shadow trap"
        else:
            why = "with no condition"
        note = f"{name} slaps{where} {why} and pays {_cards(paid)} to the Folies pile."
    data = {"player": name, "pile": pile, **result}
    if "paid" in data:
        data["paid"] = game.table.shown(data["paid"])
    round_, turn = (window.round, window.turn) if window is not None else (game.round, None)
    _add(game, "slap", round_, turn, note, data)


def challenge_won(game: SlapReplay, challenge: Challenge, cards: list[str], *, back: bool) -> None:
    setter = game.names[challenge.setter]
    if challenge.player is None:
        why = "nobody could answer it"
    elif challenge.left:
        why = f"{game.names[challenge.player]} ran out of cards"
    else:
        why = "no card from 1 to 5 answered it"
    note = f"{setter} wins the challenge ({why}) and takes the central pile ({_cards(len(cards))})."
    if back:
        note += f" {setter} is back in the game."
    _add(game, "challenge-won", game.round, game.turn or None, note,
         {"player": setter, "cards": len(cards)})


def rainbow_penalties(game: SlapReplay, window: Window, paid: dict[int, list[str]], *,
                      all_slapped: bool) -> None:
    names = game.names
    if all_slapped:
        last = next(iter(paid))
        note = (f"Everyone slapped the rainbow; {names[last]} was last and pays "
                f"{_cards(len(paid[last]))} to the Folies pile.")
    else:
        note = "Did not slap the rainbow: " + "; ".join(
            f"{names[p]} pays {_cards(len(cards))}" for p, cards in paid.items()) + "."
    _add(game, "rainbow-penalty", window.round, window.turn, note,
         {"paid": {names[p]: game.table.shown(cards) for p, cards in paid.items()},
          "all_slapped": all_slapped})


def stalled(game: SlapReplay) -> None:
    note = ("Nobody in the game holds a card any more: nobody can flip, the game ends "
            "without a winner.")
    _add(game, "stalled", game.round, None, note, {})


def time_up(game: SlapReplay) -> None:
    counts = ", ".join(f"{n} {game.table.counts[p]}" for p, n in enumerate(game.names))
    _add(game, "time-up", game.round, None, f"Time is up: {counts}.", {})


def game_end(game: SlapReplay, outcome: dict[str, Any]) -> None:
    winners = outcome["winners"] or []
    if outcome["ended_by"] == "elimination":
        note = f"Game over: {winners[0]} is the last player in the game and wins."
    elif outcome["ended_by"] == "no-cards":
        note = "Game over: nobody holds a card, nobody wins."
    else:
        best = outcome["cards"][winners[0]]
        verb = "wins" if len(winners) == 1 else "share the victory"
        note = f"Game over: {_list(winners)} {verb} with {_cards(best)}."
    _add(game, "game-end", game.round, None, note, {"outcome": outcome})


def violation(game: SlapReplay, error: dict[str, Any]) -> None:
    game.rec.add("violation", round=error["round"], turn=error["turn"],
                 note=f"Illegal: {error['message']}.", data={"error": error},
                 state=state(game))

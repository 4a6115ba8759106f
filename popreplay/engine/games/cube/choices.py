"""What can come next in a cube draft, as the engine sees it (for the recorder's entry panel).

``choices(log, pending=...)`` replays the draft with the engine's own :class:`CubeReplay` and reads
its state through the small functions below; no rule is written twice. Cards are offered by kind:
copies of one kind are interchangeable at the table, so each kind comes with the ids of its copies
that can be the card entered (``{"ORANGE": ["ORANGE-2"]}``); copies that carry an F.M.C. mark are
told apart and come under their own id.

``pending`` is the entry being built, when its next field depends on the fields before it:
- ``{"deal": {name: [cards so far]}}``: the cards that can still be dealt (the deal is offered
  until the first turn: a recorder's first draft deals every card unseen);
- ``{"player": name, "draw": [cards so far]}`` (a turn's start): the cards that can be drawn next,
  then, once the draw is whole, the CUBE cards the turn lays;
- ``{"play": "LOOK-AHEAD-1", "draw": [cards so far]}``: the cards Look Ahead can draw next.

``cut(log, step)`` is the draft a what-if branch starts from: the log up to replay step ``step``.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable, Mapping

from ...messages import msg
from ...replay import RuleViolation, StepRecorder
from .cards import (COLOUR, CUBE, DEAL, FMC_MARKS, HAND_LIMIT, STEPS, category, deck, is_kind,
                    kind)
from .exact import Draw, Remove
from .knowledge import Hand, Knowledge
from .rules import CubeReplay


# --- reading the engine's state ------------------------------------------------------------------

def replayed(log: Mapping[str, Any]) -> CubeReplay:
    """The draft replayed turn by turn; raises :class:`RuleViolation`.

    The last turn of a draft is still open: a hand over the limit there is not yet a fault (the
    surplus is discarded at the end of the turn, which is what comes next).
    """
    game = CubeReplay(log, StepRecorder(enabled=False))
    try:
        game.run()
    except RuleViolation as stop:
        if not open_surplus(log, stop):
            raise
    return game


def open_surplus(log: Mapping[str, Any], stop: RuleViolation) -> bool:
    """Is this violation only the surplus of the last turn, which the turn may still discard?"""
    last = len(log.get("turns") or []) - 1
    return stop.violation.code == "hand-limit" and stop.violation.path == f"/turns/{last}"


def marked(game: CubeReplay) -> frozenset[str]:
    return frozenset(game.fmc or ())


def by_kind(game: CubeReplay, cards: Iterable[str]) -> dict[str, list[str]]:
    """Card ids grouped for the kind buttons: unmarked copies under their kind, in deck order;
    an F.M.C.-marked copy under its own id (it is told apart)."""
    wanted = set(cards)
    out: dict[str, list[str]] = {}
    for card in deck(len(game.names)):
        if card in wanted:
            out.setdefault(card if card in marked(game) else kind(card), []).append(card)
    return out


def drawable(know: Knowledge) -> set[str]:
    """The cards the next draw from the pile can be."""
    return know.drawable()


def next_draw(know: Knowledge, hand: Hand) -> set[str]:
    """The cards the next draw into ``hand`` can be, a reshuffle first when the pile is empty."""
    if know.pile_size() == 0 and (know.left or know.right):
        know = copy.deepcopy(know)
        know.reshuffle()
        hand = know.hands[hand.index]
    return exactly(know, hand, drawable(know), Draw)


def exactly(know: Knowledge, hand: Hand, cards: Iterable[str],
            op: type[Remove] | type[Draw]) -> set[str]:
    """Of ``cards``, which the picture allows, those the exact search allows too, when it runs
    (the picture may have forgotten which card went where: docs/rules/cube.md §9): ``op``
    :class:`~.exact.Remove`, ``hand`` shows the card; :class:`~.exact.Draw`, ``hand`` draws it.
    One question per kind (copies are interchangeable); a card the hand certainly holds needs
    none."""
    cards = set(cards)
    held = {know.token(card) for card in hand.known} if op is Remove else set()
    asked = {token: op(hand.index, token)
             for token in sorted({know.token(card) for card in cards} - held)}
    verdict = know.possible(list(asked.values()))
    return {card for card in cards
            if know.token(card) in held or verdict[asked[know.token(card)]]}


def draw_more(know: Knowledge, hand: Hand, cards: list[str | None]) -> bool:
    """Draw ``cards`` into ``hand`` as the engine's ``draw_cards`` does (a reshuffle when the pile
    is empty); False if one of them cannot be drawn."""
    for card in cards:
        if know.pile_size() == 0:
            if not (know.left or know.right):
                return False
            know.reshuffle()
        if not know.draw(hand, card):
            return False
    return True


def available(know: Knowledge) -> int:
    return know.pile_size() + len(know.left) + len(know.right)


def draw_count(game: CubeReplay, position: int) -> int:
    """How many cards the next turn of ``position`` draws (the rule of ``play_turn``)."""
    held = game.know.hands[position].size()
    return min(DEAL - held if held <= 2 else 2, available(game.know))


def holdable(game: CubeReplay, hand: Hand) -> set[str]:
    """The cards a hand can show: its known cards, and any free card one of its slots may be
    (which the exact search, where it runs, allows too)."""
    return exactly(game.know, hand, game.know.holdable(hand), Remove)


def unseen_may(game: CubeReplay, hand: Hand) -> list[str]:
    """The free cards the hand's hidden slots may be."""
    if not hand.slots:
        return []
    return sorted(exactly(game.know, hand, game.know.holdable(hand) - set(hand.known), Remove))


def hand_view(hand: Hand) -> dict[str, Any]:
    return {"known": list(hand.known), "hidden": len(hand.slots)}


def next_player(game: CubeReplay) -> int:
    return 0 if game.turn is None else game.turn % len(game.names)


# --- the answer ----------------------------------------------------------------------------------

# Offline, the page takes out of these offers the cards entered since this answer
# (docs/recorder.md, "Offline"; the generic narrowing in static/record.js): a card drawn is no
# longer one the first draw can give, and a card played, discarded or shown has left the hand.
SPENT: list[dict[str, Any]] = [
    {"offer": "/next/turn/cards/*",
     "by": [{"at": "/turns/*/draw"}, {"at": "/turns/*/events/*", "key": "draw"}]},
    {"offer": "/next/play/cards/*/cards",
     "by": [{"at": "/turns/*/events/*", "key": "play"}, {"at": "/turns/*/events/*", "key": "discard"},
            {"at": "/turns/*/events/*", "key": "show"}]},
]


def choices(log: Mapping[str, Any], *, pending: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What may be entered next (``next``), or, with ``pending``, the options of its next field."""
    if log.get("deal") is None or (pending is not None and "deal" in pending):
        return deal_choices(log, pending)
    try:
        game = replayed(log)
    except RuleViolation as stop:
        return {"error": stop.violation.to_dict(), "next": {}}
    entries = next_entries(game)
    if not log.get("turns"):  # the deal may be entered (again) until the first turn
        entries = {"deal": deal_choices(log, None)["next"]["deal"], **entries}
    if pending is not None and "draw" in pending:
        try:
            return pending_draw(game, pending)
        except RuleViolation as stop:
            return {"error": stop.violation.to_dict(), "next": {}}
    return {
        "turn": game.turn or 0,
        "current": None if game.current is None else game.names[game.current],
        "over": game.winner is not None,
        "hands": {name: hand_view(game.know.hands[p]) for p, name in enumerate(game.names)},
        "next": entries,
        "spent": [{"offer": rule["offer"], "by": [dict(by) for by in rule["by"]]} for rule in SPENT],
    }


def deal_choices(log: Mapping[str, Any], pending: Mapping[str, Any] | None) -> dict[str, Any]:
    names = list(log.get("players") or [])
    game = CubeReplay({**log, "deal": {}}, StepRecorder(enabled=False))
    game.cards = frozenset(deck(len(names)))
    try:
        game.check_players()
        game.check_deck(log.get("deck") or {})
    except RuleViolation as stop:
        return {"error": stop.violation.to_dict(), "next": {}}
    given = (pending or {}).get("deal") or {}
    used = {card for cards in given.values() for card in cards if card is not None}
    free = [card for card in deck(len(names)) if card not in used]
    return {"turn": 0, "current": None, "over": False, "hands": {},
            "next": {"deal": {"players": names, "count": DEAL, "cards": by_kind(game, free)}}}


def next_entries(game: CubeReplay) -> dict[str, Any]:
    if game.winner is not None:
        return {}
    out: dict[str, Any] = {}
    position = game.current
    if position is not None:
        hand = game.know.hands[position]
        out["play"] = play_choices(game, position)
        if hand.size() > HAND_LIMIT:
            out["discard"] = {"player": game.names[position], "count": hand.size() - HAND_LIMIT,
                              "cards": by_kind(game, holdable(game, hand))}
        show = fmc_choices(game, position)
        if show is not None:
            out["show"] = show
        # Any player holding the six marked cards may show them at any moment (issue 14 ruling):
        # the current player first, then the others in player order.
        order = [position] + [p for p in range(len(game.names)) if p != position]
        shows = [s for s in (fmc_choices(game, p) for p in order) if s is not None]
        if shows:
            out["shows"] = shows
    if position is None or game.know.hands[position].size() <= HAND_LIMIT:
        nxt = next_player(game)
        out["turn"] = {"player": game.names[nxt], "count": draw_count(game, nxt),
                       "cards": by_kind(game, next_draw(game.know, game.know.hands[nxt]))}
    return out


def pending_draw(game: CubeReplay, pending: Mapping[str, Any]) -> dict[str, Any]:
    """The next card of a draw being entered (a turn's start or Look Ahead), or the turn's lay."""
    so_far = list(pending.get("draw") or [])
    if "play" in pending:
        position = game.current
        if position is None:  # no turn has begun: no card can have been played
            return _refused("cube.pending.no-turn", "/pending/play")
        played = pending["play"]
        if not isinstance(played, str) or (played not in game.cards and not is_kind(played)):
            return _refused("cube.pending.not-a-card", "/pending/play")
        count = min(2, available(game.know))
        card = game.know.remove(game.know.hands[position], played)
        if card is not None:
            game.know.left.append(card)
    else:
        position = game.player(pending.get("player"), "pending", "player")
        count = draw_count(game, position)
    know = copy.deepcopy(game.know)
    hand = know.hands[position]
    if len(so_far) > count or not draw_more(know, hand, so_far):
        return _refused("cube.pending.draw", "/pending/draw")
    if len(so_far) < count:
        return {"next": {"draw": {"player": game.names[position], "left": count - len(so_far),
                                  "cards": by_kind(game, next_draw(know, hand))}}}
    if "play" in pending:
        return {"next": {"draw": {"player": game.names[position], "left": 0, "cards": {}}}}
    laid = [card for card in hand.known if category(card) == CUBE]
    hidden = sorted(exactly(know, hand, [card for card in know.holdable(hand) - set(hand.known)
                                         if category(card) == CUBE], Remove)) if hand.slots else []
    return {"next": {"lay": {"player": game.names[position], "cards": laid,
                             "hidden": len(hand.slots), "may": by_kind(game, hidden)}}}


def _refused(message_id: str, path: str) -> dict[str, Any]:
    """What the recorder has pending cannot be: the error, and nothing to offer."""
    return {"error": {"code": "pending", "message": msg(message_id), "round": None, "turn": None,
                      "path": path}, "next": {}}


# --- a card played from hand ---------------------------------------------------------------------

def play_choices(game: CubeReplay, position: int) -> dict[str, Any]:
    """Every card the current player can play, by kind, with the fields each can take."""
    hand = game.know.hands[position]
    cards = {card for card in holdable(game, hand) if category(card) != CUBE}
    grouped = by_kind(game, cards)
    options = {}
    for key, ids in grouped.items():
        fields = card_fields(game, position, ids[0])
        if fields is not None:
            options[key] = {"cards": ids, **fields}
    return {"player": game.names[position], "cards": options}


def opponents(game: CubeReplay, position: int) -> list[int]:
    return [p for p in range(len(game.names)) if p != position]


def colours_held(game: CubeReplay, hand: Hand) -> dict[str, Any]:
    return {"known": [c for c in hand.known if category(c) == COLOUR], "hidden": len(hand.slots)}


def card_fields(game: CubeReplay, position: int, card: str) -> dict[str, Any] | None:
    """The fields a card's play can take, or ``None`` when it has no legal use now."""
    rule, table, names = kind(card), game.tables[position], game.names
    if category(card) == COLOUR:
        steps = [s for s in STEPS if table.can_colour(s, rule)]
        return {"steps": steps} if steps else None
    if rule in ("PB", "WR"):
        steps = [s for s in STEPS if s in table.steps and table.steps[s].timer is None]
        return {"steps": steps} if steps else None
    targets: dict[str, Any] = {}
    for o in opponents(game, position):
        option = target_option(game, position, o, rule)
        if option is not None:
            targets[names[o]] = option
    if rule == "LOOK-AHEAD":
        return {"draw": min(2, available(game.know))}
    if rule == "SCRAMBLE":
        hand = game.know.hands[position]
        gives = [c for c in holdable(game, hand) if category(c) == COLOUR and c != card]
        return {"give": by_kind(game, gives), "targets": targets} if gives and targets else None
    return {"targets": targets} if targets else None


def target_option(game: CubeReplay, position: int, o: int, rule: str) -> Any:
    """What a targeted card can do to opponent ``o``; ``None`` when nothing."""
    table, hand = game.tables[o], game.know.hands[o]
    unprotected = [s for s in STEPS if s in table.steps and not table.steps[s].protected()]
    if rule == "DNF":
        steps = [s for s in STEPS if s in table.steps
                 and (timer := table.steps[s].timer) is not None and kind(timer) == "PB"]
        return {"steps": steps} if steps else None
    if rule == "POP":
        return {"steps": unprotected} if unprotected else None
    if rule == "CORNER-TWIST":
        colours = {s: list(table.steps[s].colours) for s in unprotected
                   if s != "CROSS" and table.steps[s].colours}
        return {"colours": colours} if colours else None
    pool = unseen_may(game, hand)
    if rule == "ONE-HAND":  # a card taken from an unseen slot may be named (the taker sees it)
        return {**hand_view(hand), "may": by_kind(game, pool)}
    if rule == "BLIND-SOLVE":
        return {**colours_held(game, hand),
                "may": by_kind(game, [c for c in pool if category(c) == COLOUR])}
    if rule == "SCRAMBLE":
        return colours_held(game, hand)
    return None


def fmc_choices(game: CubeReplay, position: int) -> dict[str, Any] | None:
    """The six marked cards the player at ``position`` can show, mark by mark; ``None`` if not
    all."""
    if game.fmc is None:
        return None
    hand = game.know.hands[position]
    can = exactly(game.know, hand, [c for c in game.know.holdable(hand) if c in game.fmc], Remove)
    marks = []
    for index, mark in enumerate(FMC_MARKS):
        cards = sorted(c for c, m in game.fmc.items() if m == index and c in can)
        if not cards:
            return None
        marks.append({"mark": mark, "cards": cards})
    return {"player": game.names[position], "marks": marks}


# --- what-if branches ----------------------------------------------------------------------------

def step_count(log: Mapping[str, Any]) -> int:
    """How many replay steps a log's turns make (the deal's included; not the game-end step)."""
    recorder = StepRecorder(enabled=True)
    try:
        CubeReplay(log, recorder).run()
    except RuleViolation:
        return len(recorder.steps) + 1
    return len(recorder.steps)


def cut(log: Mapping[str, Any], step: int) -> dict[str, Any]:
    """The draft a what-if branch starts from: the deal and the turns (the last one cut inside:
    its draw, lay, events) whose replay steps all come at or before step ``step`` of the full
    log's replay. ``claimed`` goes.

    Found from one replay (issue 25, finding 1: halving replayed the log once per halving step and
    once per event of the turn, 4 to 10 s for a heavy game): the turns are played until one ends
    past the step; the beginnings of that turn are each tried on a copy of the game as it was
    before it (what replaying the shorter log would give, without replaying it)."""
    base = {k: v for k, v in log.items() if k != "claimed"}
    turns = list(log.get("turns") or [])
    low = _whole_turns(base, turns, step)
    kept = turns[:low]
    if low < len(turns):
        before = CubeReplay({**base, "turns": kept}, StepRecorder(enabled=True))
        before.run()  # it fitted: no rule broken
        part = None
        for candidate in turn_starts(turns[low]):
            if not _fits(before, low, candidate, step):
                break
            part = candidate
        if part is not None:
            kept.append(part)
    return {**base, "turns": kept}


def _whole_turns(base: Mapping[str, Any], turns: list[Any], step: int) -> int:
    """How many whole turns replay to at most ``step + 1`` steps (a rule broken counts one step
    more): the turns played in one replay until one ends past the step."""
    recorder = StepRecorder(enabled=True)
    game = CubeReplay({**base, "turns": []}, recorder)
    played = 0
    try:
        game.run()  # the deal
        while played < len(turns):
            game.play_turn(played, turns[played])
            if len(recorder.steps) > step + 1:
                return played
            played += 1
    except RuleViolation:  # every longer log stops here too: all of them fit, or none
        return len(turns) if len(recorder.steps) + 1 <= step + 1 else played
    return played


def _fits(before: CubeReplay, index: int, turn: Mapping[str, Any], step: int) -> bool:
    """Whether the log's first ``index`` turns (replayed: ``before``) and then ``turn`` replay to
    at most ``step + 1`` steps, tried on a copy of ``before`` (its log shared, its steps counted)."""
    recorder = StepRecorder(enabled=True, steps=list(before.rec.steps))
    game = copy.deepcopy(before, {id(before.log): before.log, id(before.rec): recorder})
    try:
        game.play_turn(index, turn)
    except RuleViolation:
        return len(recorder.steps) + 1 <= step + 1
    return len(recorder.steps) <= step + 1


def turn_starts(turn: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A turn's beginnings, shortest first: its draw, its lay, then one more event each time."""
    head = {k: v for k, v in turn.items() if k in ("player", "draw")}
    starts = [head]
    if turn.get("lay"):
        head = {**head, "lay": turn["lay"]}
        starts.append(head)
    events = list(turn.get("events") or [])
    starts += [{**head, "events": events[:k]} for k in range(1, len(events) + 1)]
    return starts

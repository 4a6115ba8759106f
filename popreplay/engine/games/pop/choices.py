"""What can come next in a POP! draft, as the engine sees it (for the recorder's entry panel).

``choices(log, pending=...)`` replays the draft with the engine's own :class:`PopReplay` and reads
its state: which entry may come next (a new round: its layout and, when recorded, its hands; a
turn; the cards kept at the end of a battle round without hands), the *slots* of that entry in the
order the recorder taps them (whose card, how many, where it goes in the entry), and for the slot
being filled the cards that can still be there (not seen this round, in that player's known hand,
not tapped already). ``pending`` is the entry being built: ``{"entry": "round"|"turn"|"kept",
"cards": [...], "hands": bool, "rows": n}`` (see docs/recorder.md, "POP!").

``cut(log, step)`` is the draft a what-if branch starts from.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...pointer import pointer
from ...replay import RuleViolation, StepRecorder
from ...messages import Msg, msg
from .cards import colour
from .grid import Area, index_of, touches
from .rules import PopReplay

ALL_CARDS = range(1, 51)
MAX_PUZZLE_ROWS = 6
KINDS = ("round", "turn", "kept")


class PendingError(Exception):
    def __init__(self, message: Msg, *tokens: Any) -> None:
        super().__init__(message)
        self.message = message
        self.path = pointer("pending", *tokens)


# --- reading the engine's state ------------------------------------------------------------------

def replayed(log: Mapping[str, Any]) -> PopReplay:
    """The draft replayed; raises :class:`RuleViolation`."""
    game = PopReplay(log, StepRecorder(enabled=False))
    game.run()
    return game


def slot(path: tuple, role: str, player: str | None, count: int, **extra: Any) -> dict[str, Any]:
    return {"path": pointer(*path), "role": role, "player": player, "count": count, **extra}


def round_plan(game: PopReplay, hands: bool, rows: int) -> dict[str, Any]:
    mode = game.mode
    layout_rows = mode.layout_rows(game.difficulty)
    puzzle = layout_rows is None
    slots = [slot(("layout", r), "layout", None, 5, gaps=puzzle)
             for r in range(rows if layout_rows is None else layout_rows)]
    if hands and not puzzle:
        size = mode.hand_size
        assert size is not None  # (only a puzzle has no hand size)
        slots += [slot(("hands", name), "hand", name, size) for name in game.names]
    plan = {"at": pointer("rounds"), "how": "append", "base": {"turns": []}, "slots": slots,
            "round": len(game.rounds) + 1, "hands": bool(hands and not puzzle)}
    if puzzle:
        plan["rows"] = rows
        plan["max_rows"] = MAX_PUZZLE_ROWS
    return plan


def turn_plan(game: PopReplay, solo_draw: int) -> dict[str, Any]:
    rnd = game.rounds[-1]
    tracked = rnd.hands is not None
    slots = []
    if game.variant and tracked:
        slots += [slot(("draws", name), "draw", name, 1) for name in game.names]
    slots += [slot(("plays", name), "play", name, game.per_player,
                   source="hand" if tracked else "grid") for name in game.names]
    if game.per_chief:
        slots.append(slot(("chief",), "chief", None, game.per_chief))
    if solo_draw:
        slots.append(slot(("draws", game.names[0]), "draw", game.names[0], solo_draw))
    if game.variant and tracked:
        # the card a player draws before the plays may be played at once: for a page that has
        # lost the network, each play slot names the draw slot whose card joins its hand
        # (docs/recorder.md, "Offline")
        for k, s in enumerate(slots):
            if s["role"] == "play":
                s["joins"] = [j for j, d in enumerate(slots)
                              if d["role"] == "draw" and d["player"] == s["player"]]
    index = len(game.rounds) - 1
    return {"at": pointer("rounds", index, "turns"), "how": "append", "base": {},
            "slots": slots, "round": rnd.number, "turn": rnd.turns_placed + 1,
            "last_turn": game.turn_limit}


def kept_plan(game: PopReplay) -> dict[str, Any]:
    index = len(game.rounds) - 1
    return {"at": pointer("rounds", index, "kept"), "how": "set", "base": {}, "optional": True,
            "slots": [slot((name,), "kept", name, 1, one=True) for name in game.names],
            "round": index + 1}


def hidden_from(game: PopReplay, rnd: Any, asker: str | None) -> set[int]:
    """The cards of the round still played that ``asker`` cannot see: the other players' hands
    now (dealt or drawn, not played). ``None``: whoever asks may see every card."""
    if asker is None or rnd is None or rnd.hands is None:
        return set()
    return {c for name, hand in zip(game.names, rnd.hands) if name != asker for c in hand}


def possible(game: PopReplay, plan: dict[str, Any], at: dict[str, Any],
             tapped: list[tuple[dict[str, Any], Any]], asker: str | None = None) -> list[int]:
    """The cards the slot ``at`` can take, after the entry's cards ``tapped`` so far (each with
    its slot), as ``asker`` may know them (``pending.as``: another player's hand is unseen to
    them, so a draw, a Chief's card or that player's play is judged without it)."""
    role = at["role"]
    if role == "layout":
        return layout_cards(at, [card for _, card in tapped])
    taken = {card for _, card in tapped if card is not None}
    rnd = game.rounds[-1] if game.rounds and role != "hand" else None
    hidden = hidden_from(game, rnd, asker)
    seen = (rnd.seen - hidden if hidden else rnd.seen) if rnd is not None else set()
    if role == "play" and rnd is not None:
        position = game.names.index(at["player"])
        drawn = {card for where, card in tapped  # drawn this turn, before the plays
                 if where["role"] == "draw" and where["player"] == at["player"]}
        played = {card for where, card in tapped if where["role"] == "play"}
        if rnd.hands is not None and not (hidden and at["player"] != asker):
            return sorted((rnd.hands[position] | drawn) - played)
        if rnd.hands is not None:  # another's hand, unseen to the asker: any card it cannot see
            return [c for c in ALL_CARDS if (c in drawn or c not in seen and c not in taken)
                    and c not in played]
        drawn |= set(rnd.drawn[position])
        return [c for c in ALL_CARDS if (c in drawn or c not in seen and c not in taken)
                and c not in played]
    return [c for c in ALL_CARDS if c not in seen and c not in taken]


def layout_cards(at: dict[str, Any], tapped: list) -> list[int]:
    """A layout card: new in the round, and not touching its colour among the cards tapped so
    far (``grid.touches``: no two cards of one colour touch in a starting layout). In a puzzle,
    whether a card floats above a gap is judged once the layout is whole."""
    row = int(at["path"].rsplit("/", 1)[1])
    rows = [tapped[r * 5:(r + 1) * 5] for r in range(row + 1)]
    column = len(rows[row])
    colours = Area([cards + [None] * (5 - len(cards)) for cards in rows]).colours
    here = index_of(column, row)
    taken = set(tapped)
    return [c for c in ALL_CARDS if c not in taken and not touches(colours, here, colour(c))]


def solo_draw_size(game: PopReplay, log: Mapping[str, Any], plays: list[int] | None) -> int:
    """How many cards the solo player draws after this turn (0: the pile is empty, or the plays
    empty the play area and win). Without the plays yet, the draw if the game goes on."""
    rnd = game.rounds[-1]
    if rnd.hands is None:
        return 0
    pile = 50 - len(rnd.seen)
    if pile <= 0:
        return 0
    if plays is not None and len(plays) == game.per_player:
        trial = dict(log)
        rounds = list(log["rounds"])
        last = dict(rounds[-1])
        last["turns"] = list(last["turns"]) + [{"plays": {game.names[0]: plays}}]
        rounds[-1] = last
        trial["rounds"] = rounds
        after = PopReplay(trial, StepRecorder(enabled=False))
        try:
            after.run()
        except RuleViolation:
            pass  # the draw that is missing, or a card not held: the draw size stands
        if after.finished_by == "won":
            return 0
    return min(5, pile)


def fill(game: PopReplay, plan: dict[str, Any], cards: list,
         asker: str | None = None) -> dict[str, Any]:
    """Walk the pending cards through the plan's slots; the slot being filled and its cards."""
    slots = plan["slots"]
    tapped: list = []
    at_slot, used = 0, 0
    for k, card in enumerate(cards):
        while at_slot < len(slots) and used >= slots[at_slot]["count"]:
            at_slot, used = at_slot + 1, 0
        if at_slot >= len(slots):
            raise PendingError(msg("pop.pending.whole"), "cards", k)
        at = slots[at_slot]
        if card is None and not at.get("gaps"):
            raise PendingError(msg("pop.pending.no-gaps"), "cards", k)
        if card is not None and card not in possible(game, plan, at, tapped, asker):
            raise PendingError(msg("pop.pending.card", card=card, where=describe(at)), "cards", k)
        tapped.append((at, card))
        used += 1
    while at_slot < len(slots) and used >= slots[at_slot]["count"]:
        at_slot, used = at_slot + 1, 0
    done = at_slot >= len(slots)
    out = dict(plan)
    out["filled"] = len(tapped)
    out["total"] = sum(s["count"] for s in slots)
    out["slot"] = None if done else at_slot
    out["left"] = 0 if done else slots[at_slot]["count"] - used
    out["cards"] = [] if done else possible(game, plan, slots[at_slot], tapped, asker)
    out["done"] = done
    if not cards and "turn" in plan:
        # For a page that loses the network: what each slot of this turn can take with no other
        # tap of the entry. Offline, the panel offers these, less the cards the draft has entered
        # since (docs/recorder.md, "Offline").
        out["may"] = [possible(game, plan, s, [], asker) for s in slots]
    return out


def describe(at: Mapping[str, Any]) -> Msg:
    """Where a slot's card goes, in words ("in Ana's hand")."""
    return msg(f"pop.slot.{at['role']}", name=at["player"])


# --- the answer ----------------------------------------------------------------------------------

def choices(log: Mapping[str, Any], *, pending: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every entry that may come next, with the slots of each; the one in ``pending`` is walked
    through its cards."""
    try:
        game = replayed(log)
    except RuleViolation as stop:
        return {"error": stop.violation.to_dict(), "next": {}}
    pending = pending or {}
    rounds = log.get("rounds") or []
    rnd = game.rounds[-1] if game.rounds else None
    over = game.is_complete()
    kind = pending.get("entry")
    cards = pending.get("cards") or []
    asker = pending.get("as") if isinstance(pending.get("as"), str) else None
    plans: dict[str, dict[str, Any]] = {}
    if game.finished_by is None and rnd is not None and rnd.turns_placed < game.turn_limit:
        plays = None
        if game.is_solo and kind == "turn":
            plays = [c for c in cards[:game.per_player] if c is not None]
        plans["turn"] = turn_plan(game, solo_draw_size(game, log, plays) if game.is_solo else 0)
    elif game.finished_by is None and len(game.rounds) < game.mode.rounds:
        had_hands = rnd.hands is not None if rnd is not None else False
        hands = pending.get("hands", had_hands) if kind == "round" or rnd is None else had_hands
        rows = pending.get("rows", 1) if kind == "round" else 1
        if not isinstance(rows, int) or isinstance(rows, bool) or not 1 <= rows <= MAX_PUZZLE_ROWS:
            return pending_error(PendingError(msg("pop.pending.rows", most=MAX_PUZZLE_ROWS),
                                              "rows"))
        plans["round"] = round_plan(game, bool(hands), rows)
    if (game.is_battle and rnd is not None and rnd.hands is None
            and rnd.turns_placed >= game.turn_limit and rounds[-1].get("kept") is None):
        plans["kept"] = kept_plan(game)
    if kind is not None and kind not in plans:
        return pending_error(PendingError(
            msg(f"pop.pending.no-{kind}") if kind in KINDS else
            msg("pop.pending.entry", kinds=list(KINDS)), "entry"))
    nxt: dict[str, Any] = {}
    try:
        for name, plan in plans.items():
            nxt[name] = fill(game, plan, cards if name == kind else [], asker)
    except PendingError as error:
        return pending_error(error)
    return {
        "over": over,
        "round": rnd.number if rnd is not None else None,
        "turns": rnd.turns_placed if rnd is not None else 0,
        "seen": sorted(rnd.seen) if rnd is not None else [],
        "hands": None if rnd is None or rnd.hands is None else {
            name: sorted(hand) for name, hand in zip(game.names, rnd.hands)},
        "next": nxt,
    }


def pending_error(error: PendingError) -> dict[str, Any]:
    return {"error": {"code": "pending", "message": error.message, "round": None, "turn": None,
                      "path": error.path}, "next": {}}


# --- what-if branches ----------------------------------------------------------------------------

def cut(log: Mapping[str, Any], step: int) -> dict[str, Any]:
    """The draft a what-if branch from step ``step`` starts from: every round whose deal comes at
    or before the step, and in it every turn whose steps all come at or before it (a turn is one
    entry: a step inside a turn cuts before that turn); ``kept`` only when the round's end is at or
    before the step; ``claimed`` goes."""
    recorder = StepRecorder(enabled=True)
    game = PopReplay(log, recorder)
    try:
        game.run()
    except RuleViolation:
        pass
    first: dict[int, int] = {}
    last: dict[tuple[int, int | None], int] = {}
    for entry in recorder.steps:
        number, t = entry["round"], entry["turn"]
        if number is not None:
            first.setdefault(number, entry["index"])
            last[(number, t)] = entry["index"]  # (round, None): its deal, then its end
    out = {k: v for k, v in log.items() if k not in ("claimed", "rounds")}
    rounds = []
    for index, data in enumerate(log.get("rounds") or []):
        number = index + 1
        if first.get(number, step + 1) > step:
            break
        turns = []
        for t, turn in enumerate(data.get("turns") or [], start=1):
            end = last.get((number, t))
            if end is None or end > step:
                break
            turns.append(turn)
        head = {k: v for k, v in data.items() if k not in ("turns", "kept")}
        head["turns"] = turns
        whole = len(turns) == len(data.get("turns") or [])
        if whole and data.get("kept") is not None and last[(number, None)] <= step:
            head["kept"] = data["kept"]
        rounds.append(head)
        if not whole:
            break
    out["rounds"] = rounds
    return out

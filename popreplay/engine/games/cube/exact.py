"""The exact check of hidden cards, for what the single picture of :mod:`.knowledge` forgets.

The picture keeps one state: which tokens each hand certainly holds, and each hidden slot's group
and mask. It is exact until an unseen card leaves a hand whose candidates differ (a known card or
a hidden one, slots of two groups, masks that are not nested), or a named card leaves such a hand:
then the picture forgets (merges the groups, widens the masks), which never refuses a legal log
but may accept one that no deal could produce.

From that moment, :class:`Exact` runs beside it. A :class:`World` is the picture *with every
choice made*: which candidate each unseen take moved, which slot each named card left. In a world
nothing is forgotten, so its consistency is exactly the matching of each group's tokens to its
places (Hall's condition over sets of categories, :func:`fits`). The log is consistent if and only
if some sequence of choices gives a consistent world after every event. ``Exact`` keeps one such
sequence (the *witness*) with the alternatives it did not take; an event that no successor of the
witness admits sends it back through the alternatives, depth first. A world found dead at an event
index stays dead (later events only add constraints) and is remembered.

**The bounds.** The search is exponential in the worst case. A search that expands more than
:data:`BUDGET` worlds stops; :class:`~.knowledge.Knowledge` then starts a new one from the picture
as it is at that event (what the picture forgot before that is lost; what comes after is checked
exactly again). Past :data:`TOTAL` worlds in one replay, the picture alone decides. Neither bound
ever refuses a legal log. The recorder's question "which of these cards can be there?"
(:meth:`Exact.admits`) stops after :data:`PROBE` worlds and then offers every card still open.

Worlds are never changed once built (successors copy what they change; only the search's
``branch`` mark is set later), so a copy of the search (the recorder's "what can come next")
shares them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, TypeVar

ALL = 15
BUDGET = 10_000  # worlds one search may expand
TOTAL = 20_000  # worlds the searches of one replay may expand
PROBE = 1_000  # worlds the recorder's question "which of these cards can be there?" may expand

Tokens = dict[str, int]  # token -> count; no zero entries
Places = dict[tuple[int, int], int]  # (group, mask) -> hidden slots; no zero entries
Bits = dict[str, int]  # token -> its category bit
_Key = TypeVar("_Key", bound=Hashable)


def hall(by_category: list[int], masks: list[tuple[int, int]]) -> bool:
    """Hall's condition for one group (used by the picture and by every world): can tokens
    counted by category bit (``by_category[bit]``) fill places whose masks are ``masks``
    ((mask, count) pairs of the narrowed places; the others accept any token, and the group has
    as many tokens as places)? For every set ``U`` of categories, the places that accept only
    categories of ``U`` are no more than the tokens of ``U`` (a set of places whose masks join to
    ``U`` needs no more than all of them)."""
    for union in range(ALL):
        need = 0
        for mask, count in masks:
            if not mask & ~union:
                need += count
        if need and need > (by_category[1] * (union & 1) + by_category[2] * (union >> 1 & 1)
                            + by_category[4] * (union >> 2 & 1)
                            + by_category[8] * (union >> 3 & 1)):
            return False
    return True


def fits(supply: Tokens, masks: Iterable[tuple[int, int]], bit: Bits) -> bool:
    """:func:`hall` for tokens given by kind (``supply``)."""
    narrowed = [(mask, count) for mask, count in masks if count]
    if not narrowed:
        return True
    by_category = [0] * 16
    for token, count in supply.items():
        by_category[bit[token]] += count
    return hall(by_category, narrowed)


def _add(counts: dict[_Key, int], key: _Key, count: int = 1) -> None:
    value = counts.get(key, 0) + count
    if value:
        counts[key] = value
    else:
        del counts[key]


class World:
    """One way the hidden cards can be: per hand, the tokens it holds for certain (``known``) and
    its hidden slots by (group, mask); per group, its tokens not placed yet; the draw pile."""

    __slots__ = ("known", "slots", "supply", "pile", "pile_group", "branch", "_key")

    def __init__(self, known: list[Tokens], slots: list[Places], supply: dict[int, Tokens],
                 pile: int, pile_group: int) -> None:
        self.known, self.slots, self.supply = known, slots, supply
        self.pile, self.pile_group = pile, pile_group
        self.branch = False  # where the search branches (its dead worlds are remembered there)
        self._key: tuple[Hashable, ...] | None = None

    def child(self) -> World:
        """A copy to change: the lists are new, their dicts shared until ``own_*`` copies one."""
        return World(list(self.known), list(self.slots), dict(self.supply), self.pile,
                     self.pile_group)

    def own_known(self, parent: World, hand: int) -> Tokens:
        """``self.known[hand]``, copied first if it is still the parent's."""
        counts = self.known[hand]
        if counts is parent.known[hand]:
            counts = self.known[hand] = dict(counts)
        return counts

    def own_slots(self, parent: World, hand: int) -> Places:
        """``self.slots[hand]``, copied first if it is still the parent's."""
        counts = self.slots[hand]
        if counts is parent.slots[hand]:
            counts = self.slots[hand] = dict(counts)
        return counts

    def own_supply(self, parent: World, group: int) -> Tokens:
        counts = self.supply.get(group)
        if counts is None or counts is parent.supply.get(group):
            counts = self.supply[group] = dict(counts or {})
        return counts

    def key(self) -> tuple[Hashable, ...]:
        if self._key is None:
            self._key = (
                tuple([frozenset(counts.items()) for counts in self.known]),
                tuple([frozenset(counts.items()) for counts in self.slots]),
                frozenset([(group, frozenset(counts.items()))
                           for group, counts in self.supply.items() if counts]),
                self.pile, self.pile_group)
        return self._key

    def fits(self, group: int, bit: Bits) -> bool:
        masks: dict[int, int] = {}
        for slots in self.slots:
            for (g, mask), count in slots.items():
                if g == group and mask != ALL:
                    masks[mask] = masks.get(mask, 0) + count
        return fits(self.supply.get(group, {}), masks.items(), bit)


def settle(world: World, parent: World, group: int) -> None:
    """Say what a group's places certainly hold, once it is certain (``world`` is consistent):
    when the group has tokens of one kind only, every slot of it is that kind; when all its slots
    are in one hand and none is in the draw pile, that hand holds exactly its tokens (the hand is
    a multiset: which slot is which no longer matters). The slots become known cards. Worlds that
    differ only in how they say it become one, and a named card then leaves at once."""
    supply = world.supply.get(group)
    if not supply:
        if supply is not None and group != world.pile_group:
            del world.supply[group]
        return
    holders = [hand for hand, slots in enumerate(world.slots)
               if any(g == group for g, _ in slots)]
    if not holders:
        return
    token = next(iter(supply)) if len(supply) == 1 else None
    if token is None and (len(holders) > 1 or group == world.pile_group):
        return
    supply = world.own_supply(parent, group)
    for hand in holders:
        slots = world.own_slots(parent, hand)
        known = world.own_known(parent, hand)
        for key in [key for key in slots if key[0] == group]:
            count = slots.pop(key)
            if token is not None:
                _add(known, token, count)
                _add(supply, token, -count)
        if token is None:  # the one hand holding them
            for held, count in supply.items():
                _add(known, held, count)
            supply.clear()
    if not supply and group != world.pile_group:
        del world.supply[group]


NEW_GROUP = 1_000_000  # groups made by event ``i`` are ``NEW_GROUP + i`` in every world


# --- the operations: what one event does to the hands, as the search sees it -----------------
#
# Each is a small value (hashable: the recorder's questions are keyed by them) with one method,
# ``successors(world, bit, index)``: the consistent worlds after it at event ``index``, one per
# choice the log leaves open (none: refuted), in the order the search tries them.


@dataclass(frozen=True, slots=True)
class Draw:
    """``hand`` draws from the pile: ``token``, or a card it does not name (None)."""

    hand: int
    token: str | None

    def successors(self, world: World, bit: Bits, index: int) -> list[World]:
        if world.pile <= 0:
            return []
        hand, token, group = self.hand, self.token, world.pile_group
        out = world.child()
        out.pile -= 1
        if token is None:
            _add(out.own_slots(world, hand), (group, ALL))
            return [out]
        if not world.supply.get(group, {}).get(token):
            return []
        _add(out.own_supply(world, group), token, -1)
        _add(out.own_known(world, hand), token)
        if not out.fits(group, bit):
            return []
        settle(out, world, group)
        return [out]


@dataclass(frozen=True, slots=True)
class Add:
    """A named card from outside the hands (a table, a discard, another hand) joins ``hand``."""

    hand: int
    token: str

    def successors(self, world: World, bit: Bits, index: int) -> list[World]:
        out = world.child()
        _add(out.own_known(world, self.hand), self.token)
        return [out]


@dataclass(frozen=True, slots=True)
class Remove:
    """A named card leaves ``hand``: a known copy, else one of the hidden slots it can be."""

    hand: int
    token: str

    def successors(self, world: World, bit: Bits, index: int) -> list[World]:
        hand, token = self.hand, self.token
        if world.known[hand].get(token):  # a known copy goes: that leaves the most open
            out = world.child()
            _add(out.own_known(world, hand), token, -1)
            return [out]
        category = bit[token]
        candidates = [(group, mask) for (group, mask) in world.slots[hand]
                      if mask & category and world.supply.get(group, {}).get(token)]
        # Of two slots of one group with nested masks, the narrower goes (the wider can do all
        # it could).
        candidates = [(g, m) for g, m in candidates
                      if not any(g2 == g and m2 != m and not m2 & ~m for g2, m2 in candidates)]
        result = []
        for group, mask in sorted(candidates, key=lambda c: (bin(c[1]).count("1"), c)):
            out = world.child()
            _add(out.own_slots(world, hand), (group, mask), -1)
            _add(out.own_supply(world, group), token, -1)
            if out.fits(group, bit):
                settle(out, world, group)
                result.append(out)
        return result


@dataclass(frozen=True, slots=True)
class Forbid:
    """``hand``'s hidden cards are of none of the categories in ``mask``."""

    hand: int
    mask: int

    def successors(self, world: World, bit: Bits, index: int) -> list[World]:
        hand, mask = self.hand, self.mask
        if any(bit[token] & mask for token in world.known[hand]):
            return []
        out = world.child()
        slots: Places = {}
        touched = set()
        for (group, old), count in world.slots[hand].items():
            new = old & ~mask
            if new != old:
                touched.add(group)
            _add(slots, (group, new), count)
        out.slots[hand] = slots
        return [out] if all(out.fits(group, bit) for group in sorted(touched)) else []


@dataclass(frozen=True, slots=True)
class Take:
    """An unseen card of the categories in ``mask`` goes from ``source`` to ``dest``."""

    source: int
    dest: int
    mask: int

    def successors(self, world: World, bit: Bits, index: int) -> list[World]:
        source, dest, mask = self.source, self.dest, self.mask
        result = []
        # Hidden slots first, the widest first: they keep the known cards where they were.
        for group, old in sorted(world.slots[source], key=lambda c: (-bin(c[1]).count("1"), c)):
            if not old & mask:
                continue
            out = world.child()
            _add(out.own_slots(world, source), (group, old), -1)
            _add(out.own_slots(world, dest), (group, old & mask))
            if old & mask == old or out.fits(group, bit):
                settle(out, world, group)
                result.append(out)
        known = {token: count for token, count in world.known[source].items()
                 if bit[token] & mask}
        if len(known) == 1:  # a known card of one kind moved
            token = next(iter(known))
            out = world.child()
            _add(out.own_known(world, source), token, -1)
            _add(out.own_known(world, dest), token)
            result.append(out)
        elif known:
            # One of the known candidates moved, which one is not said: they become a group of
            # their own, with its places in both hands (exact, and one world instead of one
            # per kind).
            group = NEW_GROUP + index
            out = world.child()
            held = out.own_known(world, source)
            for token in known:
                del held[token]
            out.supply[group] = known
            _add(out.own_slots(world, source), (group, ALL), sum(known.values()) - 1)
            _add(out.own_slots(world, dest), (group, ALL))
            result.append(out)
        return result


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Both discards (``tokens``) become the new draw pile, a group of its own."""

    tokens: tuple[str, ...]

    def successors(self, world: World, bit: Bits, index: int) -> list[World]:
        out = world.child()
        group = NEW_GROUP + index
        supply: Tokens = {}
        for token in self.tokens:
            _add(supply, token)
        out.supply[group] = supply
        out.pile, out.pile_group = len(self.tokens), group
        return [out]


Op = Draw | Add | Remove | Forbid | Take | Reshuffle  # one event, as the search sees it


class Exact:
    """The depth-first search for one sequence of choices that every event so far admits."""

    def __init__(self, world: World, bit: Bits) -> None:
        self.bit = bit
        self.world: World | None = world  # the witness; None once the log is refuted
        self.ops: list[Op] = []
        self.frames: list[tuple[World, list[World]]] = []  # per op: the world before, untried
        self.dead: set[tuple[int, tuple[Hashable, ...]]] = set()
        self.dead_depth = -1  # the deepest event with a dead world
        self.work = 0  # worlds expanded (for the bench and the tests)
        self.limit: int | None = None  # stop past this many worlds (None: BUDGET)
        self.probed: dict[Op, bool] = {}  # the answers of admits() since the last event
        self.gave_up = False

    def __deepcopy__(self, memo: dict[int, object]) -> Exact:
        out = Exact.__new__(Exact)
        out.bit, out.world, out.ops = self.bit, self.world, list(self.ops)
        out.frames = [(parent, list(untried)) for parent, untried in self.frames]
        out.dead, out.work, out.gave_up = set(self.dead), self.work, self.gave_up
        out.dead_depth, out.limit, out.probed = self.dead_depth, self.limit, {}
        return out

    def admits(self, ops: Iterable[Op], worlds: int = PROBE) -> dict[Op, bool]:
        """Which of ``ops`` (each one more event) some world admits, decided together on a copy
        of the search (this one is unchanged): the copy goes on from the witness to the next
        world that admits every event so far, and the next, until each op is admitted by one of
        them or no world is left. Past ``worlds`` more worlds, the ops not yet admitted count as
        admitted: nothing is ever ruled out for want of search. Answers are kept until the next
        event."""
        probed = self.probed
        left = [op for op in dict.fromkeys(ops) if op not in probed]
        if left and (self.gave_up or self.world is None):
            probed.update((op, self.gave_up) for op in left)
            left = []
        if left:
            trial = self.__deepcopy__({})
            trial.limit = self.work + worlds
            world, end, bit = trial.world, len(trial.ops), self.bit
            assert world is not None  # (a copy of this search, which has a witness)
            while True:
                undecided = []
                for op in left:
                    if op.successors(world, bit, end):
                        probed[op] = True
                    else:
                        undecided.append(op)
                left = undecided
                if not left:
                    break
                found = trial._another()
                if trial.gave_up or not found:
                    probed.update((op, trial.gave_up) for op in left)
                    break
                world = trial.world
                assert world is not None  # (the world found)
        return {op: probed[op] for op in ops}

    def _another(self) -> bool:
        """The next world after the witness that admits every event (for :meth:`admits`). The
        witness's branches are marked explored as the search leaves them (as dead worlds are:
        a world met again at the same event leads to the same worlds)."""
        frames = self.frames
        while frames:
            parent, untried = frames[-1]
            if untried:
                return self._search(untried.pop(), len(frames))
            frames.pop()
            self._dead(len(frames), parent)
        self.world = None
        return False

    def apply(self, op: Op) -> bool:
        """Add one event; False if no sequence of choices admits every event so far."""
        if self.gave_up:
            return True
        if self.world is None:
            return False
        self.probed = {}
        self.ops.append(op)
        return self._search(self.world, len(self.ops) - 1)

    def _search(self, world: World, depth: int) -> bool:
        """Depth first from ``world`` at event ``depth``. Dead worlds are remembered only where
        the search branches (a world one of several choices made, or one with several
        successors): a world on a forced path is dead exactly when the branch above it is."""
        ops, frames, dead, bit = self.ops, self.frames, self.dead, self.bit
        end = len(ops)
        limit = BUDGET if self.limit is None else self.limit
        while True:
            if depth == end:
                self.world = world
                return True
            if world.branch and depth <= self.dead_depth and (depth, world.key()) in dead:
                found = []
            else:
                self.work += 1
                found = ops[depth].successors(world, bit, depth)
            if self.work > limit:
                self.gave_up, self.world = True, None
                self.ops, self.frames, self.dead = [], [], set()
                return True
            if found:
                if len(found) > 1:
                    world.branch = True
                    for successor in found:
                        successor.branch = True
                found.reverse()
                frames.append((world, found))
                world = found.pop()
                depth += 1
                continue
            self._dead(depth, world)
            while frames:
                parent, untried = frames[-1]
                if untried:
                    world = untried.pop()
                    depth = len(frames)
                    break
                frames.pop()
                self._dead(len(frames), parent)
            else:
                self.world = None
                return False

    def _dead(self, depth: int, world: World) -> None:
        if world.branch:
            self.dead.add((depth, world.key()))
            if depth > self.dead_depth:
                self.dead_depth = depth

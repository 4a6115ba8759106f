"""What the log says about the cards nobody has seen, checked exactly.

Every card whose place the log does not fix is in a *family*: a group of face-down places of one
pile segment (or one card on the Folies pile) whose cards are known only as a set. A dealt card the
log does not name is a family of one place that may hold any card not seen yet ("free"). Won cards
go under the winner's pile as one family: the order nobody recorded is unknown, so a later flip from
that segment may reveal any card still in it. A card that leaves a family unseen (paid to the Folies
pile, taken by a shadow on shadow) is a new family of one place that may hold any card of the old one.

A seen card (named by the deal or a flip) whose place is uncertain is *tracked*: ``fam[card]`` is
every family it may be in. Never-seen cards are interchangeable, so they are a pool counted per
family, not tracked one by one. The log is consistent while the cards can be matched to the places:
each family's places filled exactly, each tracked card in one of its families, never-seen cards only
in families that accept them. That is a bipartite matching of cards to places; it is kept as a
*witness* (one such matching: ``where`` for tracked cards, ``free_in`` for the pool) and repaired
by one augmenting path when a flip takes a card the witness had put elsewhere. No path: no deal
gives that card there, and the log is illegal (``docs/rules/slap.md``, "Hidden cards").
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Iterable

Entry = str | int  # a certain card id, or a family id
FREE = ""  # a never-seen card moving along an augmenting path

ELSEWHERE = "elsewhere"  # a seen card that cannot be in this family
NOT_MEMBER = "not-member"  # a never-seen card, and the family holds seen cards only
IMPOSSIBLE = "impossible"  # the card could be there, but no deal puts it there with the rest


class Hidden:
    __slots__ = ("count", "size", "free", "cards", "held", "free_in", "fam", "where", "seen",
                 "touched", "shown", "shown_last", "shown_copy")

    def __init__(self) -> None:
        self.count = 0  # family ids handed out; dealt slots are 1, 2, … in deal order
        self.size: dict[int, int] = {}  # places in each family
        self.free: dict[int, bool] = {}  # may it hold never-seen cards?
        self.cards: dict[int, set[str]] = {}  # tracked cards that may be in it
        self.held: dict[int, set[str]] = {}  # tracked cards the witness puts in it
        self.free_in: dict[int, int] = {}  # never-seen cards the witness puts in it
        self.fam: dict[str, set[int]] = {}  # tracked card -> families it may be in
        self.where: dict[str, int] = {}  # tracked card -> its family in the witness
        self.seen: set[str] = set()  # every card the log has named
        # for the steps (shown_sets): families whose size, cards or "free" changed since the last
        # step, and what the last step showed of each family (its entries shared with later steps)
        self.touched: set[int] = set()
        self.shown: dict[str, dict[str, Any]] = {}
        self.shown_last = 0  # the largest family id in ``shown``
        self.shown_copy: dict[str, dict[str, Any]] | None = None  # what the last call returned

    def _new(self, size: int, free: bool) -> int:
        self.count += 1
        fid = self.count
        self.touched.add(fid)
        self.size[fid], self.free[fid] = size, free
        self.cards[fid], self.held[fid], self.free_in[fid] = set(), set(), 0
        return fid

    def slot(self) -> int:
        """A dealt card the log does not name: one place, any card not seen yet."""
        fid = self._new(1, True)
        self.free_in[fid] = 1
        return fid

    def _drop(self, fid: int) -> None:
        self.touched.add(fid)
        for card in self.cards.pop(fid):
            self.fam[card].discard(fid)
        del self.size[fid], self.free[fid], self.held[fid], self.free_in[fid]

    # --- cards moving without being seen ---------------------------------------------------------

    def split(self, fid: int) -> int:
        """One card leaves a family of two or more places unseen: a new family of one place that
        may hold any card the old one may hold."""
        part = self._new(1, self.free[fid])
        self.size[fid] -= 1
        self.touched.add(fid)
        cards = self.cards[fid]
        self.cards[part] = set(cards)
        for card in cards:
            self.fam[card].add(part)
        if self.free_in[fid]:
            self.free_in[fid] -= 1
            self.free_in[part] = 1
        else:
            card = self.held[fid].pop()
            self.held[part].add(card)
            self.where[card] = part
        return part

    def merge(self, items: Iterable[Entry]) -> Entry:
        """Cards won together go under a pile as one set: one family (a single item stays as it
        is)."""
        items = list(items)
        if len(items) == 1:
            return items[0]
        fid = self._new(len(items), False)
        cards, held = self.cards[fid], self.held[fid]
        for item in items:
            if isinstance(item, str):
                self.fam[item] = {fid}
                self.where[item] = fid
                cards.add(item)
                held.add(item)
                continue
            self.free[fid] = self.free[fid] or self.free[item]
            self.free_in[fid] += self.free_in[item]
            for card in self.held[item]:
                self.where[card] = fid
            held |= self.held[item]
            for card in self.cards[item]:
                self.fam[card].add(fid)
            cards |= self.cards[item]
            self._drop(item)
        return fid

    # --- a flip reveals a card from a family -----------------------------------------------------

    def reveal(self, fid: int, card: str) -> str | None:
        """The top card of a family's segment is flipped and is ``card``. Returns why it cannot
        be (``ELSEWHERE``, ``NOT_MEMBER``, ``IMPOSSIBLE``), or None: then the card is placed for
        good (it goes to the central pile) and the family has one place less."""
        families = self.fam.get(card)
        if families is not None:
            if fid not in families:
                return ELSEWHERE
            if not self._take_tracked(fid, card):
                return IMPOSSIBLE
            for other in families:
                self.cards[other].discard(card)
            self.touched.update(families)
            del self.fam[card], self.where[card]
        elif card in self.seen:
            return ELSEWHERE
        elif not self.free[fid]:
            return NOT_MEMBER
        elif not self._take_free(fid):
            return IMPOSSIBLE
        self.seen.add(card)
        self.size[fid] -= 1
        self.touched.add(fid)
        if not self.size[fid]:
            self._drop(fid)
        return None

    def _take_tracked(self, fid: int, card: str) -> bool:
        home = self.where[card]
        if home != fid:
            path = self._path(fid, lambda f: f == home)
            if path is None:
                return False
            self._shift(path)
        self.held[home].discard(card)
        return True

    def _take_free(self, fid: int) -> bool:
        if self.free_in[fid]:
            self.free_in[fid] -= 1
            return True
        path = self._path(fid, lambda f: self.free_in[f] > 0)
        if path is None:
            return False
        self._shift(path)
        self.free_in[path[-1][2]] -= 1
        return True

    def _path(self, start: int,
              target: Callable[[int], bool]) -> list[tuple[int, str, int]] | None:
        """An augmenting path: moves (from, card or FREE, to) that take one card out of ``start``
        and put one more into the first family ``target`` accepts, each family keeping its size."""
        back: dict[int, tuple[int, str] | None] = {start: None}
        queue = deque([start])
        jumped = False
        while queue:
            here = queue.popleft()
            steps = [(card, there) for card in self.held[here] for there in self.fam[card]]
            if self.free_in[here] and not jumped:
                jumped = True  # a never-seen card may go to any family that accepts one
                steps += [(FREE, there) for there, free in self.free.items() if free]
            for card, there in steps:
                if there in back:
                    continue
                back[there] = (here, card)
                if target(there):
                    path = []
                    move = back[there]
                    while move is not None:
                        here, card = move
                        path.append((here, card, there))
                        there = here
                        move = back[there]
                    return path[::-1]
                queue.append(there)
        return None

    def _shift(self, path: list[tuple[int, str, int]]) -> None:
        for here, card, there in path:
            if card == FREE:
                self.free_in[here] -= 1
                self.free_in[there] += 1
            else:
                self.held[here].remove(card)
                self.held[there].add(card)
                self.where[card] = there

    # --- what a place can hold (for the violation codes) -----------------------------------------

    def possible(self, fid: int) -> list[str]:
        """The seen cards some arrangement puts in the family (sorted): the ones the witness puts
        there, and every other one an augmenting path can bring in."""
        return sorted(card for card in self.cards[fid] if card in self.held[fid]
                      or self._path(fid, self.where[card].__eq__) is not None)

    def takes_free(self, fid: int) -> bool:
        """Does some arrangement put a never-seen card in the family?"""
        return bool(self.free_in[fid]) or (
            self.free[fid] and self._path(fid, lambda f: self.free_in[f] > 0) is not None)

    def certain(self, fid: int) -> str | None:
        """The card every arrangement puts in a family of one place, when there is one: the last
        card left of cards won together (a place that may hold a never-seen card is never
        certain)."""
        if self.size[fid] != 1 or self.takes_free(fid):
            return None
        cards = self.possible(fid)
        return cards[0] if len(cards) == 1 else None

    # --- for messages and steps ------------------------------------------------------------------

    def members(self, fid: int) -> list[str]:
        """The seen cards a family may hold (sorted)."""
        return sorted(self.cards[fid])

    def shown_sets(self) -> dict[str, dict[str, Any]]:
        """Every family of face-down places a step shows, by ``?<id>`` in the order of the ids:
        a set of won cards (order unknown) or a card that left one unseen (more than one place,
        or seen cards it may hold): ``{count, cards, unseen}``. A new dict each time, whose
        entries are rebuilt only for the families changed since the last call (``touched``) and
        shared with the last call's otherwise, or the last call's dict itself when none changed:
        a step's cost does not grow with the game."""
        shown, touched, copy = self.shown, self.touched, self.shown_copy
        if touched:
            changed = copy is None
            order_kept = True
            for fid in sorted(touched):
                key = f"?{fid}"
                size = self.size.get(fid)
                if size is not None and (size > 1 or self.cards[fid]):
                    if key not in shown:
                        order_kept = order_kept and fid > self.shown_last
                        self.shown_last = max(self.shown_last, fid)
                    entry = {"count": size, "cards": self.members(fid), "unseen": self.free[fid]}
                    if shown.get(key) != entry:  # (an equal entry stays the one shown)
                        shown[key] = entry
                        changed = True
                elif shown.pop(key, None) is not None:
                    changed = True
            touched.clear()
            if not order_kept:  # a family shown again after an older one: back in id order
                self.shown = shown = dict(sorted(shown.items(), key=lambda item: int(item[0][1:])))
            if changed:
                copy = None
        if copy is None:
            self.shown_copy = copy = dict(shown)
        return copy

    def describe(self, fid: int) -> str:
        cards = self.members(fid)
        if self.free[fid]:
            cards.append("a card not seen yet")
        return ", ".join(cards[:-1]) + " or " + cards[-1] if len(cards) > 1 else "".join(cards)

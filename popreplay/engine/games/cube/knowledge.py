"""Where every card is, as far as the log tells (``docs/rules/cube.md``, "Hidden cards").

**Tokens.** Copies of one kind are interchangeable, so the engine reasons about *tokens*, not
copies: a kind (``ORANGE``) stands for any of its unmarked copies, and a copy the deck declares
F.M.C.-marked is a token of its own (its id). A card the log names, by kind alone (``ORANGE``) or
by a numbered id (``ORANGE-2``), is a token; the engine gives it an id for the steps: the id
written when that copy is free, else the first free copy of the kind.

**Places and groups.** A card whose identity the log has not given is a *place*: a hidden slot in
a hand (``"?7"``) or a position in the unseen draw pile. Every place belongs to one *group*: the
pool (group 0: the deal and the first draw pile) or the new draw pile of a reshuffle, which holds
exactly the discards shuffled in. A group knows the multiset of tokens not placed yet (its
``supply``) and its places: the draw pile's positions (all of them in the pile's group) and the
slots that came from it, wherever they moved. Each slot has a *mask*, the categories it may still
be: a lay leaves no CUBE card in the hand, a Blind Solve that finds nothing (or a Scramble) leaves
no COLOUR card, and a card Blind Solve or Scramble takes unseen is a COLOUR card.

**Exactness.** The log is consistent if and only if, in every group, the tokens can be matched to
the places, each place getting a token its mask allows. Tokens have one category each and masks
are sets of categories, so this transportation problem is decided by Hall's condition over the 16
sets of categories: for every set ``U``, the places that accept only categories in ``U`` are no more
than the tokens of ``U``. It is checked only when information is added (a card named from a hidden
place or from a pile that also fed hidden places, a mask narrowed) and only while some mask
narrows a place (with every mask open, equal counts suffice): a full-information log never runs it.

**Where the picture forgets** (``docs/rules/cube.md``, section 9): when an unseen card leaves a
hand whose candidates differ (known and hidden, two groups, masks that are not nested), one
picture cannot say which moved; it merges and widens, which never refuses a possible log. From the
first such moment :mod:`.exact` runs beside it (:meth:`Knowledge.forget`): every change to a hand
goes through this class (``draw``, ``remove``, ``add``, ``forbid``, ``take_hidden``,
``reshuffle``), which passes it on, and the exact search has the last word.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterator

from ...messages import Msg, msg
from . import exact as search
from .cards import category, kind
from .exact import Add, Draw, Exact, Forbid, Op, Remove, Reshuffle, Take, World, hall
from .hands import ALL, BIT, CATEGORY_BITS, Hand, Slot, bits, start

class Knowledge:
    def __init__(self, cards: tuple[str, ...], players: int,
                 marked: frozenset[str] = frozenset()) -> None:
        self.marked = frozenset(marked)
        self.cards, self.order, free, self.bit, by_category = start(cards)
        self.free: dict[str, list[str]] = {token: list(ids) for token, ids in free.items()}
        if self.marked:  # a marked copy is a token of its own
            self.bit = dict(self.bit)
            for card in sorted(self.marked, key=self.order.__getitem__):
                self.free[kind(card)].remove(card)
                self.free[card] = [card]
                self.bit[card] = BIT[category(card)]
        self.groups: dict[int, Counter[str]] = {
            0: Counter({token: len(ids) for token, ids in self.free.items()})}
        self.by_category: dict[int, list[int]] = {0: list(by_category)}
        self.pile = len(cards)  # cards in the draw pile, all places of ``pile_group``
        self.pile_group = 0
        self.left: list[str] = []  # played GAME cards (and DNF), bottom to top
        self.right: list[str] = []  # surplus, duplicates, removed Personal Bests
        self.hands = [Hand(index) for index in range(players)]
        self._slot = 0
        self.masked = 0  # slots whose mask is not ALL; while 0, counts alone are consistent
        self.narrowed: dict[int, Counter[int]] = {0: Counter()}  # group -> mask -> slots (not ALL)
        self.checks = 0  # matching checks run (for the bench and the tests)
        # The exact search (:mod:`.exact`), from the first time the picture forgets.
        self.exact: Exact | None = None
        self.searches = 0  # exact searches started (a search past its budget starts again)
        self.spent = 0  # worlds expanded by the searches before the current one
        self.stopped = False  # past the replay's budget: the picture alone decides

    def _categories(self, supply: Counter[str]) -> list[int]:
        """A group's tokens counted by category bit (kept alongside ``groups`` for the check)."""
        out = [0] * 16
        for token, count in supply.items():
            out[self.bit[token]] += count
        return out

    def supply(self, group: int, token: str, count: int) -> None:
        self.groups[group][token] += count
        self.by_category[group][self.bit[token]] += count

    # --- tokens and ids --------------------------------------------------------------------------

    def token(self, card: str) -> str:
        return card if card in self.marked else kind(card)

    def assign(self, token: str, card: str) -> str:
        """The id a named card takes: ``card`` itself when that copy is free or only a label in a
        hand (labels of one token in hands are swapped freely), else the first free copy."""
        ids = self.free[token]
        if card in ids:
            ids.remove(card)
            return card
        other = ids.pop(0)
        return card if self.relabel(card, other) else other

    def relabel(self, card: str, other: str) -> bool:
        """If ``card`` is a known card in a hand, it takes the label ``other`` (same token), so
        that ``card`` can be used elsewhere. False when ``card`` is not in a hand."""
        for hand in self.hands:
            if card in hand.known:
                hand.known[hand.known.index(card)] = other
                return True
        return False

    def release(self, card: str) -> None:
        ids = self.free.setdefault(self.token(card), [])
        ids.append(card)
        ids.sort(key=self.order.__getitem__)

    # --- counts ----------------------------------------------------------------------------------

    def pile_size(self) -> int:
        return self.pile

    def hidden(self) -> int:
        return sum(len(hand.slots) for hand in self.hands)

    def new_slot(self, group: int, mask: int = ALL) -> Slot:
        self._slot += 1
        if mask != ALL:
            self.masked += 1
            self.narrowed[group][mask] += 1
        return Slot(f"?{self._slot}", group, mask)

    def narrow(self, slot: Slot, mask: int) -> None:
        self.set_mask(slot, slot.mask & mask)

    def set_mask(self, slot: Slot, new: int) -> None:
        old = slot.mask
        if new != old:
            self.masked += (new != ALL) - (old != ALL)
            narrowed = self.narrowed[slot.group]
            if old != ALL:
                narrowed[old] -= 1
            if new != ALL:
                narrowed[new] += 1
            slot.mask = new

    def merge(self, groups: set[int]) -> int:
        """Several groups become one (their tokens may now fill any of their places): used when
        the log does not say from which group an unseen card came. The merged group accepts every
        deal the separate groups accepted, and possibly more."""
        target = min(groups)
        for group in sorted(groups - {target}):
            self.groups[target].update(self.groups.pop(group))
            self.narrowed[target].update(self.narrowed.pop(group))
            merged = self.by_category.pop(group)
            self.by_category[target] = [a + b for a, b in zip(self.by_category[target], merged)]
            for hand in self.hands:
                for slot in hand.slots:
                    if slot.group == group:
                        slot.group = target
            if self.pile_group == group:
                self.pile_group = target
        return target

    def widen(self, slots: list[Slot]) -> None:
        """Every one of ``slots`` may now be what any of them may be."""
        union = 0
        for slot in slots:
            union |= slot.mask
        for slot in slots:
            self.set_mask(slot, union)

    def slots_of(self, group: int) -> Iterator[Slot]:
        for hand in self.hands:
            for slot in hand.slots:
                if slot.group == group:
                    yield slot

    # --- the matching ----------------------------------------------------------------------------

    def consistent(self, group: int, bit: int = 0, mask: int = ALL) -> bool:
        """Can the group's tokens fill its places, each with a token its mask allows?

        Hall's condition on the places' side (:func:`.exact.hall`, which every world of the
        exact search uses too): for every set of categories, the places that allow only those
        are no more than their tokens. A set that holds an open place (the pile, a slot of mask
        ``ALL``) allows every token, and the group has as many tokens as places, so only the
        narrowed masks count.

        ``bit`` and ``mask``: the check follows the removal of one token of category ``bit`` from
        a place of mask ``mask`` (the group was consistent before). Both sides of a set holding
        ``mask`` lost one, so only a set without it whose categories include ``bit`` can fail: when
        no other narrowed mask allows ``bit``, nothing can, and the check is skipped.
        """
        if not self.masked:
            return True
        masks = [(m, count) for m, count in self.narrowed[group].items() if count]
        if not masks:
            return True
        if bit and not any(m & bit for m, _ in masks if m != mask):
            return True
        self.checks += 1
        supply = self.by_category[group]
        # Enough tokens that every narrowed place allows: every set passes at once.
        common, places = ALL, 0
        for m, count in masks:
            common &= m
            places += count
        if places <= supply[1] * (common & 1) + supply[2] * (common >> 1 & 1) + \
                supply[4] * (common >> 2 & 1) + supply[8] * (common >> 3 & 1):
            return True
        return hall(supply, masks)

    # --- the draw pile ---------------------------------------------------------------------------

    def reshuffle(self) -> list[str]:
        """Both discards become the new draw pile: a new group holding exactly those cards."""
        cards = self.left + self.right
        group = max(self.groups) + 1
        self.groups[group] = Counter(self.token(card) for card in cards)
        self.by_category[group] = self._categories(self.groups[group])
        self.narrowed[group] = Counter()
        for card in cards:
            self.release(card)
        self.left, self.right = [], []
        self.pile, self.pile_group = len(cards), group
        if self.exact is not None:
            self._mirror(Reshuffle(tuple(self.token(card) for card in cards)))
        return cards

    def draw(self, hand: Hand, card: str | None) -> bool:
        """Draw one card (``None``: identity not given). False if no deal has ``card`` there."""
        if card is None:
            self.pile -= 1
            hand.slots.append(self.new_slot(self.pile_group))
            return self.exact is None or self._mirror(Draw(hand.index, None))
        token = card if card in self.marked else kind(card)
        group = self.pile_group
        supply = self.groups[group]
        count = supply.get(token)
        if not count or self.pile <= 0:
            return False
        supply[token] = count - 1
        self.by_category[group][self.bit[token]] -= 1
        self.pile -= 1
        ids = self.free[token]
        if card in ids:
            ids.remove(card)
            hand.known.append(card)
        else:
            hand.known.append(self.assign(token, card))
        if self.masked and not self.consistent(group, self.bit[token]):
            return False
        return self.exact is None or self._mirror(Draw(hand.index, token))

    def in_pile(self, card: str) -> bool:
        return self.pile > 0 and bool(self.groups[self.pile_group].get(self.token(card)))

    # --- hands -----------------------------------------------------------------------------------

    def remove(self, hand: Hand, card: str) -> str | None:
        """Take a named card out of a hand: a known copy of its token, or one of the hidden slots
        (the log is then checked again). The id it leaves with, or None if no deal has it there."""
        if self.exact is None and card in hand.known:  # the common case, at once
            hand.known.remove(card)
            return card
        held = self._remove(hand, card)
        if held is None or self.exact is None:
            return held
        return held if self._mirror(Remove(hand.index, self.token(card))) else None

    def add(self, hand: Hand, card: str) -> None:
        """A named card, out of the hands (a table, a discard, or just taken out of another hand),
        goes into ``hand``."""
        hand.known.append(card)
        if self.exact is not None:
            self._mirror(Add(hand.index, self.token(card)))

    def _remove(self, hand: Hand, card: str) -> str | None:
        if card in hand.known:
            hand.known.remove(card)
            return card
        token = self.token(card)
        for held in hand.known:
            if held not in self.marked and kind(held) == token:
                hand.known.remove(held)
                free = self.free[token]
                if card in free:  # the copy leaves under the id the log wrote
                    free.remove(card)
                    self.release(held)
                    return card
                if card != held and self.token(card) == token and self.relabel(card, held):
                    return card
                return held
        bit = self.bit.get(token, 0)
        candidates = [slot for slot in hand.slots
                      if slot.mask & bit and self.groups[slot.group].get(token)]
        if not candidates:
            return None
        slot = candidates[0]
        if len(candidates) > 1:
            groups = {s.group for s in candidates}  # more than one: from which is not known
            # The narrowest mask goes: the others, wider, allow more. When the masks are not
            # nested, the others widen to every mask that could be left.
            slot = min(candidates, key=lambda s: bits(s.mask))
            widen = any(slot.mask & ~other.mask for other in candidates)
            if len(groups) > 1 or widen:
                self.forget()
            if len(groups) > 1:
                self.merge(groups)
            if widen:
                self.widen(candidates)
        hand.slots.remove(slot)
        if slot.mask != ALL:
            self.masked -= 1
            self.narrowed[slot.group][slot.mask] -= 1
        group = slot.group
        self.groups[group][token] -= 1
        self.by_category[group][bit] -= 1
        if self.masked and not self.consistent(group, bit, slot.mask):
            return None
        ids = self.free[token]
        if card in ids:
            ids.remove(card)
            return card
        return self.assign(token, card)

    def reveal(self, hand: Hand, card: str) -> str | None:
        """The hand shows ``card`` and keeps it; the id it is known by."""
        held = self.remove(hand, card)
        if held is not None:
            self.add(hand, held)
        return held

    def forbid(self, hand: Hand, mask: int) -> bool:
        """The hand's hidden cards are none of the categories in ``mask`` (a lay: no CUBE card;
        a Blind Solve or Scramble that takes nothing more: no COLOUR card)."""
        ok = self._forbid(hand, mask)
        if self.exact is None or not ok:
            return ok
        return self._mirror(Forbid(hand.index, mask))

    def _forbid(self, hand: Hand, mask: int) -> bool:
        keep = ALL & ~mask
        touched: list[int] = []
        for slot in hand.slots:
            old = slot.mask
            if old & mask:
                new = old & keep
                narrowed = self.narrowed[slot.group]
                if old == ALL:
                    self.masked += 1
                else:
                    narrowed[old] -= 1
                if new != ALL:  # always: a mask without a category is never ALL
                    narrowed[new] += 1
                slot.mask = new
                if slot.group not in touched:
                    touched.append(slot.group)
        # A group without tokens of those categories loses nothing by the narrowing.
        for group in sorted(touched):
            by_category = self.by_category[group]
            if any(by_category[b] for b in CATEGORY_BITS if b & mask) and \
                    not self.consistent(group):
                return False
        return True

    def take_hidden(self, source: Hand, dest: Hand, mask: int = ALL) -> bool:
        """An unseen card of the categories in ``mask`` goes from ``source`` to ``dest``.

        A known card that could be the one taken stays known when it is the only kind it can be.
        Known candidates of several kinds, and no hidden one, become hidden places of a new group
        (exact). When the candidates differ otherwise (known and hidden, hidden from several
        groups, or with different masks), the engine forgets rather than guesses: the groups
        merge, the known candidates join them as hidden places, the candidates' masks widen to
        their union. That accepts every deal that fits, and possibly more; from the first such
        forgetting, :mod:`.exact` decides.
        """
        ok = self._take_hidden(source, dest, mask)
        if self.exact is None or not ok:
            return ok
        return self._mirror(Take(source.index, dest.index, mask))

    def _take_hidden(self, source: Hand, dest: Hand, mask: int) -> bool:
        known = [card for card in source.known if self.bit[self.token(card)] & mask]
        slots = [slot for slot in source.slots if slot.mask & mask]
        if not known and not slots:
            return False
        if (known and slots) or len({(slot.group, slot.mask) for slot in slots}) > 1:
            self.forget()
        if known and not slots and len({self.token(card) for card in known}) == 1:
            card = known[0]
            source.known.remove(card)
            dest.known.append(card)
            return True
        if known:
            if slots:
                group = self.merge({slot.group for slot in slots})
            else:
                group = max(self.groups) + 1
                self.groups[group] = Counter()
                self.by_category[group] = [0] * 16
                self.narrowed[group] = Counter()
            for card in known:
                source.known.remove(card)
                self.release(card)
                self.supply(group, self.token(card), 1)
                slot = self.new_slot(group)
                source.slots.append(slot)
                slots.append(slot)
        elif len({slot.group for slot in slots}) > 1:
            self.merge({slot.group for slot in slots})
        if len({slot.mask for slot in slots}) > 1:
            self.widen(slots)
        slot = slots[0]
        source.slots.remove(slot)
        self.narrow(slot, mask)
        dest.slots.append(slot)
        return self.consistent(slot.group)

    # --- the exact search ------------------------------------------------------------------------

    def forget(self) -> None:
        """The picture is about to forget: from now on the exact search runs beside it, from the
        picture as it is (every choice so far was forced, so it is one world)."""
        if self.exact is None:
            self.exact = Exact(self.world(), self.bit)
            self.searches = 1

    def _mirror(self, op: Op) -> bool:
        """The exact search's verdict on one more event (the picture admitted it).

        A search past its budget (``exact.BUDGET`` worlds) starts again from the picture as it is
        now: what the picture forgot before is lost, what comes after is checked exactly again.
        Past ``exact.TOTAL`` worlds in the replay, the picture alone decides."""
        exact = self.exact
        assert exact is not None  # (called only while a search runs)
        ok = exact.apply(op)
        if exact.gave_up and not self.stopped:
            self.spent += exact.work
            if self.spent >= search.TOTAL:
                self.stopped = True
            else:
                self.exact = Exact(self.world(), self.bit)
                self.searches += 1
        return ok

    def world(self) -> World:
        known, slots = [], []
        for hand in self.hands:
            counts: dict = {}
            for card in hand.known:
                token = self.token(card)
                counts[token] = counts.get(token, 0) + 1
            known.append(counts)
            counts = {}
            for slot in hand.slots:
                counts[slot.group, slot.mask] = counts.get((slot.group, slot.mask), 0) + 1
            slots.append(counts)
        supply = {group: {token: count for token, count in tokens.items() if count}
                  for group, tokens in self.groups.items()}
        return World(known, slots, supply, self.pile, self.pile_group)

    def possible(self, ops: list[Op]) -> dict[Op, bool]:
        """For each of ``ops`` (one more event each, which the picture admits): would the exact
        search admit it too? Always yes when no search runs: the picture is then exact. Asked by
        the recorder's choices, on a copy of the search, within ``exact.PROBE`` worlds for all
        of them together (past them, yes)."""
        if self.exact is None or self.stopped:
            return dict.fromkeys(ops, True)
        return self.exact.admits(ops, search.PROBE)

    def refuted(self) -> bool:
        """Did the exact search (not the picture) refuse the last event?"""
        return self.exact is not None and self.exact.world is None and not self.exact.gave_up

    def audit(self) -> list[str]:
        """The bookkeeping's invariants, for the tests: each group has as many tokens as places,
        the counts by category and by mask agree with the tokens and the slots, and the free ids
        are the groups' tokens."""
        problems = []
        for group, supply in self.groups.items():
            places = (self.pile if group == self.pile_group else 0) + sum(
                1 for _ in self.slots_of(group))
            if sum(supply.values()) != places:
                problems.append(f"group {group}: {sum(supply.values())} tokens, {places} places")
            if self._categories(supply) != self.by_category[group]:
                problems.append(f"group {group}: counts by category")
            masks = Counter(s.mask for s in self.slots_of(group) if s.mask != ALL)
            if +masks != +self.narrowed[group]:
                problems.append(f"group {group}: counts by mask")
        for token, ids in self.free.items():
            if len(ids) != sum(supply[token] for supply in self.groups.values()):
                problems.append(f"{token}: {len(ids)} free ids")
        return problems

    # --- for the steps and the recorder ----------------------------------------------------------

    def pile_cards(self) -> list[str]:
        """The draw pile's cards when they are certain (its group has no hidden slot in a hand),
        as ids; else ``[]``."""
        group = self.pile_group
        if not self.pile or any(True for _ in self.slots_of(group)):
            return []
        out: list[str] = []
        for token, count in self.groups[group].items():
            out.extend(self.free[token][:count])
        return sorted(out)

    def unlocated(self, pile: list[str] | None = None) -> list[str]:
        """Every card not known to be anywhere and not in a certain draw pile, by id. ``pile``:
        :meth:`pile_cards` when the caller has it already (the steps' state, taken at one moment),
        else computed here."""
        shown = set(self.pile_cards() if pile is None else pile)
        return sorted(card for ids in self.free.values() for card in ids if card not in shown)

    def drawable(self) -> set[str]:
        """The ids the next draw from the pile can be (any free copy of a token the pile can
        give, every hidden place of its group still filled)."""
        if not self.pile:
            return set()
        group = self.pile_group
        return {card for token, count in self.groups[group].items()
                if count and self.could_be(group, token) for card in self.free[token]}

    def holdable(self, hand: Hand) -> set[str]:
        """The ids a hand can show: its known cards, and free copies its slots may be."""
        out = set(hand.known)
        places = {(slot.group, slot.mask) for slot in hand.slots}
        for group, mask in sorted(places):
            for token, count in self.groups[group].items():
                if count and self.could_be(group, token, mask):
                    out.update(self.free[token])
        return out

    def could_be(self, group: int, token: str, mask: int = ALL) -> bool:
        """Can a place of ``group`` whose mask is ``mask`` (the draw pile's places: ``ALL``) be a
        ``token``, every other place of the group still filled? Hall's condition without that
        place and that token. (Exact for the picture; where it forgot, :mod:`.exact` decides.)"""
        bit = self.bit[token]
        if not (mask & bit and self.groups[group].get(token)):
            return False
        if not self.masked:
            return True
        masks = Counter(self.narrowed[group])
        if mask != ALL:
            masks[mask] -= 1
        supply = list(self.by_category[group])
        supply[bit] -= 1
        return hall(supply, [(m, count) for m, count in masks.items() if count > 0])

    def locate(self, card: str, names: list[str], tables: list) -> Msg:
        """Where a named card is, in words (for messages): every copy of its token."""
        token = self.token(card)
        copies = [card] if token == card and card in self.cards else sorted(
            (c for c in self.cards if self.token(c) == token), key=self.order.__getitem__)
        if len(copies) == 1:
            return self._where(copies[0], names, tables)
        places = [msg("cube.where.copy", card=copy_, where=self._where(copy_, names, tables))
                  for copy_ in copies]
        return msg("cube.where.copies", token=token, places=places)

    def _where(self, card: str, names: list[str], tables: list) -> Msg:
        for name, hand in zip(names, self.hands):
            if card in hand.known:
                return msg("cube.where.hand", name=name)
        for name, table in zip(names, tables):
            if card in table.cards():
                return msg("cube.where.table", name=name)
        if card in self.left:
            return msg("cube.where.left")
        if card in self.right:
            return msg("cube.where.right")
        return msg("cube.where.hidden")

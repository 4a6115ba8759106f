"""A second, deliberately naive reading of spec/pop.md, for differential conformance tests.

It knows nothing of the engine: a dict of (column, row) -> card, whole-area scans after every
wave, gravity by rebuilding columns. It only computes the outcome of a *legal* log.
"""

from __future__ import annotations

from itertools import permutations


def icons(n):
    return 3 if n <= 5 or n >= 46 else 2 if 16 <= n <= 20 or 31 <= n <= 35 else 1


class Table:
    def __init__(self, layout):
        self.cells = {}
        for r, row in enumerate(layout):
            for c, card in enumerate(row):
                if card is not None:
                    self.cells[(c, r)] = card
        self.queue = [len(layout)] * 5

    def place(self, c, card):
        self.cells[(c, self.queue[c])] = card
        self.queue[c] += 1

    def groups(self):
        seen, out = set(), []
        for pos in sorted(self.cells):
            if pos in seen:
                continue
            colour = self.cells[pos] % 5
            group, todo = {pos}, [pos]
            while todo:
                c, r = todo.pop()
                for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                    if n in self.cells and n not in group and self.cells[n] % 5 == colour:
                        group.add(n)
                        todo.append(n)
            seen |= group
            if len(group) >= 2:
                out.append(group)
        return out

    def gravity(self):
        for c in range(5):
            cards = [self.cells.pop((c, r)) for r in sorted(r for cc, r in list(self.cells)
                                                              if cc == c)]
            for i, card in enumerate(reversed(cards)):
                self.cells[(c, self.queue[c] - 1 - i)] = card

    def explode_all(self, first_group):
        waves, group = [], first_group
        while group:
            waves.append(sorted(self.cells.pop(p) for p in group))
            self.gravity()
            group = set().union(*self.groups()) if self.groups() else set()
        return waves


def outcome(log):
    mode, players = log["mode"], log["players"]
    difficulty = (log.get("options") or {}).get("difficulty")
    rounds_out, over, failed_turn, turns_begun = [], None, None, 0
    table = None
    layout_cards = set()
    for rnd in log["rounds"]:
        table = Table(rnd["layout"])
        layout_cards = set(table.cells.values())
        scores = {p: 0 for p in players}
        collected = {p: [] for p in players}
        pending = []
        hands = {p: set(h) for p, h in (rnd.get("hands") or {}).items()}
        drawn_left = {p: set() for p in players}  # recorded draws not played (no hands)
        shown = {c for row in rnd["layout"] for c in row if c is not None}
        for t, turn in enumerate(rnd["turns"], start=1):
            turns_begun += 1
            for p, drawn in ((turn.get("draws") or {}).items() if mode != "solo" else ()):
                hands.get(p, set()).update(drawn)
                drawn_left[p].update(drawn)
                shown.update(drawn)
            revealed = [(c, p) for p in players for c in (turn.get("plays") or {}).get(p, [])]
            revealed += [(c, None) for c in turn.get("chief") or []]
            for c, p in revealed:
                shown.add(c)
                if p is not None and p in hands:
                    hands[p].discard(c)
                if p is not None:
                    drawn_left[p].discard(c)
            revealed.sort()
            arrows = sum(1 for c, _ in revealed if c <= 10 or c >= 41)
            order = list(range(5))
            if arrows >= 3:
                order.reverse()
            for column in order:
                card, owner = revealed[column]
                table.place(column, card)
                pos = (column, table.queue[column] - 1)
                group = next((g for g in table.groups() if pos in g), None)
                waves = table.explode_all(group) if group else []
                exploded = [c for w in waves for c in w]
                if exploded:
                    if owner is None:
                        pending += exploded
                    else:
                        collected[owner] += exploded + pending
                        scores[owner] += sum(icons(c) for c in exploded + pending)
                        pending = []
                    if mode == "coop":
                        over, failed_turn = "lost", t
                if mode == "solo" and not table.cells:
                    over = "won"
                if over and mode != "puzzle":
                    break
            if mode == "solo":
                for drawn in (turn.get("draws") or {}).values():
                    hands.get(players[0], set()).update(drawn)
        kept = {p: None for p in players}
        if len(rnd["turns"]) == 8 and mode == "battle":
            for p in players:
                if p in hands and len(hands[p]) == 1:
                    kept[p] = next(iter(hands[p]))
                elif p in (rnd.get("kept") or {}):
                    kept[p] = rnd["kept"][p]
                elif drawn_left[p]:  # drew it, never played it: it is what is left
                    kept[p] = next(iter(drawn_left[p]))
            shown.update(c for c in kept.values() if c is not None)
            unseen = [c for c in range(1, 51) if c not in shown]
            # every deal of the unseen cards to the unknown kept places (no two alike)
            deals = [dict(zip([p for p in players if kept[p] is None], cards)) for cards in
                     permutations(unseen, sum(kept[p] is None for p in players))]
            for p in players:
                if kept[p] is None and len({deal[p] for deal in deals}) == 1:
                    kept[p] = deals[0][p]  # the same card in every deal
            last_deals = deals
        rounds_out.append({"scores": scores, "collected": {p: sorted(v) for p, v in
                                                           collected.items()},
                           "kept": kept, "chief_pending": sorted(pending)})
    if mode == "battle":
        totals = {p: sum(r["scores"][p] for r in rounds_out) for p in players}
        complete = len(log["rounds"]) == 3 and len(log["rounds"][-1]["turns"]) == 8
        winners = tie = None
        if complete:
            low = min(totals.values())
            tied = [p for p in players if totals[p] == low]
            if len(tied) > 1:
                kept = rounds_out[-1]["kept"]
                results = set()  # the winners under every deal of the unseen kept cards
                for deal in last_deals:
                    cards = {p: kept[p] if kept[p] is not None else deal[p] for p in tied}
                    least = min(icons(cards[p]) for p in tied)
                    results.add(tuple(p for p in tied if icons(cards[p]) == least))
                if len(results) > 1:
                    tie = "unknown"
                else:
                    tied = list(results.pop())
                    tie = "kept-card" if len(tied) == 1 else "shared"
            winners = tied
        return {"rounds": rounds_out, "totals": totals, "winners": winners, "tie_break": tie}
    if mode == "coop":
        placed = len(log["rounds"][0]["turns"])
        if over == "lost":
            left = 9 - failed_turn
            level = ("beginner" if left >= 5 else "apprentice" if left >= 3 else
                     "skilled" if left >= 1 else "expert")
            return {"result": "lost", "level": level, "failed_turn": failed_turn,
                    "cards_left": left}
        if placed == 9:
            return {"result": "won", "level": "legendary", "failed_turn": None, "cards_left": 0}
        return {"result": None, "level": None, "failed_turn": None, "cards_left": 9 - placed}
    if mode == "solo":
        result = "won" if over == "won" else ("lost" if turns_begun == 10 - difficulty else None)
        title = {1: "novice", 2: "mean", 3: "evil", 4: "renegade"}[difficulty]
        return {"result": result, "title": title if result == "won" else None,
                "difficulty": difficulty, "cards_left_in_play": len(table.cells),
                "turns_played": turns_begun}
    left = set(table.cells.values())
    played = bool(log["rounds"][0]["turns"])
    return {"solved": (not (left & layout_cards)) if played else None,
            "cards_left_in_play": len(left), "layout_cards_left": len(left & layout_cards)}

"""A table in memory for the information boundary's tests: its start, its rows and the state
after them, answered by the same functions the API calls (``decide.decide``, ``views.view``,
``corrections``' decision, ``signoff.result_for``), without HTTP or a database; and the same
table dealt again with the other seats' private cards changed (:func:`other_deal`)."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
from typing import Any

from popreplay.tables import corrections, decide, signoff, state as states, views
from popreplay.tables.model import TableError, Viewer
from popreplay.tables.rows import Row, Snapshot

_ids = itertools.count(1)


def viewer_of(who: str | None, keeper: str | None = None) -> Viewer:
    """A seat's player, ``None`` for the spectator, ``"host"`` for the host without a seat (a
    seat is the table's keeper when it is ``keeper``: tables/authority.py)."""
    if who == "host":
        return Viewer("host")
    return Viewer("watch") if who is None else Viewer("seat", who, keeper=who == keeper)


class Desk:
    def __init__(self, start: dict[str, Any], *, hands: bool = True) -> None:
        players = [str(p) for p in start["players"]]
        self.snap = Snapshot(id=f"desk{next(_ids)}-{random.random():.12f}", game=start["game"],
                             mode=str(start["mode"]), start={"log": start, "hands": hands},
                             status="live", stored_slug=None,
                             seat_tokens={p: "held" for p in players}, last_seq=0)
        self.rows: list[Row] = []
        self._state: states.State | None = None

    def make_keeper(self, player: str | None) -> None:
        """``player``'s seat enters what is nobody's own (POP!'s layout, the Chief's cards)."""
        self.snap = dataclasses.replace(self.snap, keeper=player)

    def state(self) -> states.State:
        if self._state is None or self._state.seq != len(self.rows):
            self._state = states.build(self.snap, self.rows)
        return self._state

    def _add(self, made: list[tuple]) -> None:
        for kind, by, body in made:
            self.rows.append(Row(seq=len(self.rows) + 1, kind=kind, by=by,
                                 body=copy.deepcopy(body)))

    def send(self, who: str | None, entry: dict[str, Any]) -> None:
        """An entry that must be taken."""
        self._add(decide.decide(self.state(), viewer_of(who, self.snap.keeper), entry,
                                taken=list(self.snap.seat_tokens)))

    def view(self, who: str | None) -> dict[str, Any]:
        shown = views.view(self.snap, self.state(), viewer_of(who, self.snap.keeper))
        return {k: v for k, v in shown.items() if k != "table"}

    def answer(self, who: str | None, entry: dict[str, Any]) -> tuple:
        """What the phone is answered: the refusal (status, message, errors), or that it was
        taken and the table as that phone then sees it. Nothing is kept."""
        try:
            made = decide.decide(self.state(), viewer_of(who, self.snap.keeper), entry,
                                 taken=list(self.snap.seat_tokens))
        except TableError as error:
            return ("refused", error.status, error.message, error.errors)
        kept = list(self.rows)
        self._add(made)
        try:
            return ("taken", self.view(who))
        finally:
            self.rows = kept

    def correction(self, who: str | None, entry: dict[str, Any]) -> tuple:
        """The answer to a correction (``{"seq", "set", "fixes"}``): refused, or taken."""
        entry = {"type": corrections.KIND, "fixes": [], **entry}
        try:
            corrections._decide(self.snap, list(self.rows), viewer_of(who, self.snap.keeper), entry, TableError)
        except TableError as error:
            return ("refused", error.status, error.message, error.errors)
        return ("taken",)

    def signoff(self, who: str | None) -> Any:
        return signoff.result_for(self.snap, self.state(), viewer_of(who, self.snap.keeper))


def assert_same(left: Any, right: Any, what: str) -> None:
    assert left == right, f"{what}: the answer depends on cards this phone cannot see"


def other_deal(hands: dict[str, list[Any]], viewer: str | None, pool: list[Any],
               rng: random.Random) -> dict[str, list[Any]]:
    """Another legal deal as ``viewer`` may know it: its own hand as it is, the other hands
    dealt again, in another order, from their cards and ``pool`` (cards nobody holds)."""
    others = [name for name in hands if name != viewer]
    cards = [c for name in others for c in hands[name]] + list(pool)
    rng.shuffle(cards)
    out = {name: list(hand) for name, hand in hands.items()}
    for name in others:
        out[name], cards = cards[:len(hands[name])], cards[len(hands[name]):]
    return out

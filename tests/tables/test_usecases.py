"""The table's use cases called directly (tables/usecases.py): who asks, their dependencies, one
unit of work, an outcome value (no HTTP). The HTTP tests (test_api.py …) keep the HTTP."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from popreplay import store
from popreplay.db.session import get_database
from popreplay.jsonout import compact
from popreplay.tables import authority, readings, state as states, usecases
from popreplay.tables.model import Viewer
from popreplay.tables.outcomes import (Appended, Created, Deps, Duplicate, KeeperNamed, Limits,
                                       Refused, SeatTaken, Signed, Stale, Stored)
from tests.tables.helpers import game_log, start_of

HOST = Viewer("host")


class Phones:
    """A table's phones calling the use cases, and what the fan-out was told."""

    def __init__(self, app: Any, **limits: Any) -> None:
        self.session = get_database(app).session()
        self.published: list[dict[str, Any]] = []
        self.deps = Deps(session=lambda: self.session, wait=None,
                         publish=self.published.append,
                         limits=Limits(**{"max_entries": 2000, "max_draft_bytes": 1 << 20,
                                          "max_entry_bytes": 65536, **limits}))
        self.log = game_log(seed=2)
        made = usecases.create(self.deps, log=start_of(self.log), hands=True)
        assert isinstance(made, Created), made
        self.id, self.host_token = made.table.id, made.host_token
        self.seats: dict[str, Viewer] = {}

    def seat(self, player: str, *, host: bool = False, request_id: str | None = None) -> Any:
        done = usecases.take_seat(self.deps, self.id, HOST if host else Viewer("watch"),
                                  player=player, request_id=request_id)
        if isinstance(done, SeatTaken):
            self.seats[player] = done.viewer
        return done

    def send(self, who: str, entry: dict[str, Any], *, seen: int | None = None,
             client_id: str | None = None) -> Any:
        viewer = HOST if who == "host" else self.seats[who]
        table = usecases.find(self.session, self.id)
        self.session.rollback()
        return usecases.append(self.deps, self.id, viewer, client_id=client_id or f"c{id(entry)}"
                               f"-{len(self.published)}-{who}", seen=table.last_seq
                               if seen is None else seen, entry=entry)

    def part(self, who: str, kind: str, slots: dict[int, list[Any]], **kw: Any) -> Any:
        return self.send(who, {"type": "part", "entry": kind,
                               "slots": {str(k): v for k, v in slots.items()}}, **kw)

    def deal(self, index: int = 0, by: str = "host") -> None:
        rnd = self.log["rounds"][index]
        rows = len(rnd["layout"])
        for name in self.log["players"]:
            if name not in self.seats:
                self.seat(name)
        assert isinstance(self.part(by, "round", dict(enumerate(rnd["layout"]))), Appended)
        for k, name in enumerate(self.log["players"]):
            assert isinstance(self.part(name, "round", {rows + k: rnd["hands"][name]}), Appended)


@pytest.fixture
def phones(app: Any) -> Iterator[Phones]:
    with app.app_context():
        made = Phones(app)
        yield made
        made.session.close()


def test_a_seat_taken_by_the_host_phone_keeps_the_shared_entries(phones):
    alice = phones.seat("Alice", host=True)
    assert isinstance(alice, SeatTaken) and alice.viewer.keeper
    bruno = phones.seat("Bruno")
    assert isinstance(bruno, SeatTaken) and not bruno.viewer.keeper
    again = phones.seat("Bruno")
    assert isinstance(again, Refused) and again.reason == "seat-taken"
    assert phones.published[-1] == {"table": phones.id, "seq": 0, "seats": True}
    named = usecases.name_keeper(phones.deps, phones.id, HOST, player="Bruno")
    assert isinstance(named, KeeperNamed) and named.keeper == "Bruno"
    refused = usecases.name_keeper(phones.deps, phones.id, bruno.viewer, player="Alice")
    assert isinstance(refused, Refused) and refused.reason == "forbidden"  # a seat: only itself
    took = usecases.name_keeper(phones.deps, phones.id, alice.viewer, player="Alice")
    assert isinstance(took, KeeperNamed) and took.keeper == "Alice"  # it takes over
    watching = usecases.name_keeper(phones.deps, phones.id, Viewer("watch"), player=None)
    assert isinstance(watching, Refused) and watching.reason == "forbidden"


def test_a_seat_retried_with_its_request_id_gets_the_same_token(phones):
    first = phones.seat("Bruno", request_id="bruno-7f3c9e21d0a4")
    again = phones.seat("Bruno", request_id="bruno-7f3c9e21d0a4")
    assert isinstance(first, SeatTaken) and isinstance(again, SeatTaken)
    assert again.token == first.token and again.again and not first.again
    other = phones.seat("Bruno", request_id="someone-else-5d1e2f")
    assert isinstance(other, Refused) and other.reason == "seat-taken"
    table = usecases.find(phones.session, phones.id)
    assert usecases.viewer_of(table, first.token) == Viewer("seat", "Bruno")
    short = phones.seat("Chloé", request_id="chloe-1")  # guessable: taken as no id
    assert isinstance(short, SeatTaken)
    guessed = phones.seat("Chloé", request_id="chloe-1")
    assert isinstance(guessed, Refused) and guessed.reason == "seat-taken"


def test_entries_answer_appended_duplicate_stale_and_refused(phones):
    for name in phones.log["players"]:
        phones.seat(name)
    rnd = phones.log["rounds"][0]
    layout = phones.part("host", "round", dict(enumerate(rnd["layout"])), client_id="lay")
    assert isinstance(layout, Appended) and layout.seqs == (1,)
    assert phones.published[-1] == {"table": phones.id, "seq": 1}
    again = phones.part("host", "round", dict(enumerate(rnd["layout"])), client_id="lay")
    assert isinstance(again, Duplicate) and again.seqs == (1,)
    rows = len(rnd["layout"])
    for k, name in enumerate(phones.log["players"]):
        done = phones.part(name, "round", {rows + k: rnd["hands"][name]})
        assert isinstance(done, Appended)
    assert done.seqs == (4, 5)  # the last hand makes the whole round
    late = phones.part("Alice", "turn", {0: rnd["turns"][0]["plays"]["Alice"]}, seen=1)
    assert isinstance(late, Stale) and [r.seq for r in late.missed] == [2, 3, 4, 5]
    watch = usecases.append(phones.deps, phones.id, Viewer("watch"), client_id="w", seen=5,
                            entry={"type": "part"})
    assert isinstance(watch, Refused) and watch.reason == "forbidden"
    ahead = phones.part("Alice", "turn", {0: [1]}, seen=99)
    assert isinstance(ahead, Refused) and ahead.reason == "invalid"
    assert ahead.errors[0]["path"] == "/seen"


def test_a_correction_takes_the_same_path_as_every_entry(phones):
    for name in phones.log["players"]:
        phones.seat(name)
    phones.deal()
    turn = phones.log["rounds"][0]["turns"][0]
    names = phones.log["players"]
    for k, name in enumerate(names):
        phones.part(name, "turn", {k: turn["plays"][name]})
    whole = phones.part("host", "turn", {len(names): turn["chief"]})
    assert isinstance(whole, Appended)
    seq = whole.seqs[-1]
    mine = usecases.correct(phones.deps, phones.id, phones.seats["Bruno"], client_id="fix",
                            seen=seq, seq=seq, sets={"/plays/Alice": turn["plays"]["Alice"]},
                            fixes=[])
    assert isinstance(mine, Refused) and mine.reason == "forbidden"
    stale = usecases.correct(phones.deps, phones.id, HOST, client_id="fix2", seen=1, seq=seq,
                             sets={"/plays/Alice": turn["plays"]["Alice"]}, fixes=[])
    assert isinstance(stale, Stale)


def test_storing_the_game_closes_the_table_and_a_retry_gets_the_same_owner_token(phones):
    phones.deal()
    stored = usecases.store_game(phones.deps, phones.id, HOST, visibility="unlisted")
    assert isinstance(stored, Stored) and not stored.again
    table = usecases.find(phones.session, phones.id)
    assert table.status == "stored" and table.stored_slug == stored.slug
    record = store.find_by_ref(phones.session, stored.slug)
    assert record.owner_token_hash == store.token_hash(stored.owner_token)
    again = usecases.store_game(phones.deps, phones.id, HOST, visibility="unlisted")
    assert isinstance(again, Stored) and again.again and again.owner_token == stored.owner_token
    closed = phones.part("host", "round", {0: [1]})
    assert isinstance(closed, Refused) and closed.reason == "closed"
    refused = usecases.store_game(phones.deps, phones.id, phones.seats["Alice"],
                                  visibility="public")
    assert isinstance(refused, Refused) and refused.reason == "forbidden"


def test_a_game_stored_already_leaves_the_table_open(phones):
    """Storing and closing are one transaction: when the store is refused the table stays live."""
    phones.deal()
    log = states.load(phones.session, usecases.find(phones.session, phones.id)).log
    phones.session.rollback()
    store.ingest(phones.session, compact(log).encode("utf-8"))  # the same log, uploaded
    refused = usecases.store_game(phones.deps, phones.id, HOST, visibility="public")
    assert isinstance(refused, Refused) and refused.reason == "conflict"
    phones.session.rollback()
    assert usecases.find(phones.session, phones.id).status == "live"


def test_entries_deeper_or_bigger_than_a_log_are_refused_before_the_engine(phones):
    phones.seat("Alice", host=True)
    deep: Any = 1
    for _ in range(900):
        deep = {"x": deep}
    probe = phones.send("Alice", {"type": "place", "at": "/meta", "how": "set",
                                  "value": deep})
    assert isinstance(probe, Refused) and probe.reason == "invalid"
    assert probe.errors[0]["path"] == "/entry" and "deeper" in probe.message
    big = phones.send("Alice", {"type": "place", "at": "/meta", "how": "set",
                                "value": {"notes": "x" * 70_000}})
    assert isinstance(big, Refused) and big.reason == "invalid" and "bigger" in big.message


def test_a_draft_stops_growing_at_its_size_limit(app):
    with app.app_context():
        phones = Phones(app, max_draft_bytes=3_000)
        try:
            phones.seat("Alice", host=True)
            meta = phones.send("Alice", {"type": "place", "at": "/meta", "how": "set",
                                         "value": {"notes": "y" * 2_990}})
            assert isinstance(meta, Refused) and meta.reason == "full"
            assert meta.errors[0]["code"] == "table-full"
            small = phones.send("Alice", {"type": "place", "at": "/meta", "how": "set",
                                          "value": {"notes": "short"}})
            assert isinstance(small, Appended)
        finally:
            phones.session.close()


def test_entries_after_a_number_past_any_sequence_number_is_refused(phones):
    table = usecases.find(phones.session, phones.id)
    far = readings.entries_after(phones.deps, table, HOST, 2**63)
    assert isinstance(far, Refused) and far.reason == "invalid"
    assert readings.entries_after(phones.deps, table, HOST, 0) == []


def test_sign_off_is_a_seats_and_comes_at_the_end(phones):
    phones.seat("Alice")
    early = usecases.sign_off(phones.deps, phones.id, phones.seats["Alice"], verdict="confirm",
                              step=None, sentence=None, claims=None)
    assert isinstance(early, Refused) and early.reason == "closed"
    host = usecases.sign_off(phones.deps, phones.id, HOST, verdict="confirm", step=None,
                             sentence=None, claims=None)
    assert isinstance(host, Refused) and host.reason == "forbidden"
    phones.deal()
    usecases.store_game(phones.deps, phones.id, HOST, visibility="public")
    signed = usecases.sign_off(phones.deps, phones.id, phones.seats["Alice"], verdict="confirm",
                               step=None, sentence=None, claims=None)
    assert isinstance(signed, Signed) and signed.player == "Alice"


def test_the_keeper_is_who_asks_now(phones):
    alice = phones.seat("Alice", host=True)
    table = usecases.find(phones.session, phones.id)
    assert authority.viewer("seat", "Alice", table).keeper
    usecases.name_keeper(phones.deps, phones.id, HOST, player=None)
    phones.session.expire_all()
    table = usecases.find(phones.session, phones.id)
    assert not authority.viewer("seat", "Alice", table).keeper
    rnd = phones.log["rounds"][0]
    refused = phones.send("Alice", {"type": "part", "entry": "round", "slots": {
        "0": rnd["layout"][0]}})  # the viewer Alice took as keeper is read again
    assert isinstance(refused, Refused) and refused.reason == "forbidden"
    assert alice.viewer.keeper


def test_a_refused_correction_sent_again_costs_no_engine_work(app, monkeypatch):
    """The decision of a refused correction is kept (table, seq, who, request): a phone sending
    it again is answered without replaying the table (docs/table.md "Limits")."""
    from popreplay.engine import get_game
    from popreplay.tables import corrections

    log = get_game("slap").simulate(mode="timed", players=3, seed=1)
    start = {k: log[k] for k in ("format", "game", "mode", "players", "options") if k in log}
    with app.app_context():
        session = get_database(app).session()
        deps = Deps(session=lambda: session, wait=None, publish=lambda m: None)
        made = usecases.create(deps, log={**start, "events": []}, hands=False)
        seq = 0
        for k, event in enumerate(log["events"][:12]):
            done = usecases.append(deps, made.table.id, HOST, client_id=f"e{k}", seen=seq,
                                   entry={"type": "place", "at": "/events", "how": "append",
                                          "value": event})
            assert isinstance(done, Appended), done
            seq = done.seqs[-1]
        later = next(e["card"] for e in log["events"][3:12] if "card" in e)
        calls: list[int] = []
        real = corrections.engine_choices
        monkeypatch.setattr(corrections, "engine_choices",
                            lambda *a: calls.append(1) or real(*a))

        def send(k: int) -> Any:
            return usecases.correct(deps, made.table.id, HOST, client_id=f"bad{k}", seen=seq,
                                    seq=1, sets={"/card": later}, fixes=[])

        first = send(0)
        assert isinstance(first, Refused) and first.reason == "rules"
        assert 1 <= len(calls) <= 6  # one choices, and a halving search at most
        calls.clear()
        again = send(1)
        assert isinstance(again, Refused) and again.message == first.message
        assert calls == []
        session.close()

"""The information boundary (docs/table.md, "What each viewer may know", "What a refusal says"):
every answer a phone gets — its view, the offers, the refusal of an entry or a correction, the
corrections shown, the sign-off's result — is the same whatever the cards it cannot see. Each
test deals one table twice, the second time with the other seats' private cards dealt again
(``boundary.other_deal``), and asks both the same questions, at the level of the functions the
API calls (no HTTP)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from popreplay.engine import get_game
from popreplay.tables import signoff, views
from tests.tables.boundary import Desk, assert_same, other_deal, viewer_of

# --- POP! (hands recorded: each seat enters its own hand; the 2-player variant draws) ---------


def pop_log(players: int, seed: int, *, variant: bool) -> dict[str, Any]:
    options = {"two_player_variant": True} if variant else {}
    return get_game("pop").simulate(mode="battle", players=players, seed=seed, options=options)


def pop_start(log: dict[str, Any]) -> dict[str, Any]:
    keys = ("format", "game", "mode", "players", "options")
    return {k: log[k] for k in keys if k in log} | {"rounds": []}


def slot_of(desk: Desk, kind: str, role: str, player: str | None) -> int:
    slots = desk.state().plans[kind]["slots"]
    return next(k for k, s in enumerate(slots) if s["role"] == role and s["player"] == player)


def pop_dealt(log: dict[str, Any], hands: dict[str, list[int]], *, layout: bool = True,
              skip: str | None = None) -> Desk:
    """Round 1 being dealt: the layout (when ``layout``), every hand but ``skip``'s."""
    desk = Desk(pop_start(log))
    rnd = log["rounds"][0]
    if layout:
        desk.send("host", {"type": "part", "entry": "round", "slots": {
            str(k): row for k, row in enumerate(rnd["layout"])}})
    for name in log["players"]:
        if name != skip:
            desk.send(name, {"type": "part", "entry": "round", "slots": {
                str(slot_of(desk, "round", "hand", name)): hands[name]}})
    return desk


def pop_pool(log: dict[str, Any]) -> list[int]:
    rnd = log["rounds"][0]
    used = {c for row in rnd["layout"] for c in row if c} | {
        c for hand in rnd["hands"].values() for c in hand}
    return [c for c in range(1, 51) if c not in used]


def pop_turn_parts(desk: Desk, log: dict[str, Any], hands: dict[str, list[int]],
                   viewer: str | None, avoid: set[int]) -> None:
    """The other seats choose their cards of turn 1: the first cards of their hands (kept in
    every deal: they show once the turn is whole) and, in the 2-player variant, a draw first (a
    card of no hand of any deal, ``avoid``)."""
    plan = desk.state().plans["turn"]
    spare = [c for c in range(50, 0, -1) if c not in avoid]
    for name in log["players"]:
        if name == viewer:
            continue
        slots: dict[str, list[int]] = {}
        if any(s["role"] == "draw" and s["player"] == name for s in plan["slots"]):
            slots[str(slot_of(desk, "turn", "draw", name))] = [spare.pop(0)]
        play = slot_of(desk, "turn", "play", name)
        slots[str(play)] = hands[name][:plan["slots"][play]["count"]]
        desk.send(name, {"type": "part", "entry": "turn", "slots": slots})


def keeping(real: dict[str, list[int]], viewer: str | None, pool: list[int], count: int,
            rng: random.Random) -> dict[str, list[int]]:
    """Another legal deal in which each other seat keeps its first ``count`` cards (the cards
    it plays in turn 1, public once the turn is whole): the rest of the other hands dealt again
    from their cards and ``pool``."""
    others = [name for name in real if name != viewer]
    rest = [c for name in others for c in real[name][count:]] + list(pool)
    rng.shuffle(rest)
    out = {name: list(hand) for name, hand in real.items()}
    for name in others:
        size = len(real[name]) - count
        out[name], rest = real[name][:count] + rest[:size], rest[size:]
    return out


def random_cards(rng: random.Random, count: int) -> list[int]:
    return rng.sample(range(1, 51), count)


POP_CASES = [(2, True, seed) for seed in (1, 2, 3)] + [(3, False, seed) for seed in (1, 2)]


@pytest.mark.parametrize("players,variant,seed", POP_CASES)
def test_pop_a_seat_hand_part_is_answered_the_same_whatever_the_other_hands(players, variant,
                                                                            seed):
    log = pop_log(players, seed, variant=variant)
    rng = random.Random(seed)
    real = log["rounds"][0]["hands"]
    for viewer in log["players"]:
        other = other_deal(real, viewer, pop_pool(log), rng)
        desks = [pop_dealt(log, hands, layout=False, skip=viewer) for hands in (real, other)]
        for who in (viewer, None, "host"):
            assert_same(desks[0].view(who), desks[1].view(who), f"{who}'s view")
        slot = slot_of(desks[0], "round", "hand", viewer)
        for _ in range(6):
            part = {"type": "part", "entry": "round",
                    "slots": {str(slot): random_cards(rng, len(real[viewer]))}}
            assert_same(*(d.answer(viewer, part) for d in desks), f"{viewer}'s hand {part}")


@pytest.mark.parametrize("players,variant,seed", POP_CASES)
def test_pop_a_turn_is_answered_the_same_whatever_the_other_hands(players, variant, seed):
    log = pop_log(players, seed, variant=variant)
    rng = random.Random(seed * 7)
    real = log["rounds"][0]["hands"]
    count = 2 if variant else 1
    for viewer in log["players"]:
        other = keeping(real, viewer, pop_pool(log), count, rng)
        avoid = {c for deal in (real, other) for h in deal.values() for c in h} | {
            c for row in log["rounds"][0]["layout"] for c in row if c}
        desks = []
        for hands in (real, other):
            desk = pop_dealt(log, hands)
            desk.make_keeper(viewer)  # this seat enters the Chief's cards too (the keeper)
            pop_turn_parts(desk, log, hands, viewer, avoid)
            desks.append(desk)
        for who in (viewer, None, "host"):
            assert_same(desks[0].view(who), desks[1].view(who), f"{who}'s view")
            assert_same(desks[0].signoff(who), desks[1].signoff(who), f"{who}'s sign-off")
        plan = desks[0].state().plans["turn"]
        mine = [k for k, s in enumerate(plan["slots"]) if s["player"] in (viewer, None)]
        for _ in range(12):  # a card of any slot this seat fills (its draw, its play, the Chief's)
            index = rng.choice(mine)
            size = plan["slots"][index]["count"]
            held = sorted(real[viewer])
            cards = rng.sample(held, size) if rng.random() < 0.4 else random_cards(rng, size)
            part = {"type": "part", "entry": "turn", "slots": {str(index): cards}}
            assert_same(*(d.answer(viewer, part) for d in desks), f"{viewer}'s part {part}")
        round_seq = next(r.seq for r in desks[0].rows if r.kind == "place")
        # turn 1 made whole (its own cards, the Chief's from cards no hand holds in either deal),
        # then corrections of its own card of turn 1
        used = set(sum(real.values(), [])) | set(sum(other.values(), [])) | {
            c for row in log["rounds"][0]["layout"] for c in row if c} | {
            c for r in desks[0].rows + desks[1].rows if r.kind == "part"
            for cards in r.body["slots"].values() for c in cards}
        spare = [c for c in range(1, 51) if c not in used]
        chief = slot_of(desks[0], "turn", "chief", None)
        for desk in desks:
            slots = {str(chief): spare[:plan["slots"][chief]["count"]]}
            for k, s in enumerate(plan["slots"]):
                if s["player"] == viewer:
                    slots[str(k)] = (spare[-1:] if s["role"] == "draw"
                                     else sorted(real[viewer])[:s["count"]])
            desk.send(viewer, {"type": "part", "entry": "turn", "slots": slots})
        turns = [[r for r in d.rows if r.kind == "place"] for d in desks]
        assert len(turns[0]) == len(turns[1]) == 2, "turn 1 is whole in both deals"
        for _ in range(4):
            size = next(s["count"] for s in plan["slots"]
                        if s["role"] == "play" and s["player"] == viewer)
            fix = {"seq": turns[0][1].seq, "set": {f"/plays/{viewer}": random_cards(rng, size)}}
            assert_same(*(d.correction(viewer, fix) for d in desks), f"{viewer}'s fix {fix}")
        for _ in range(4):  # a correction of its own hand (a card from anywhere)
            hand = list(real[viewer])
            hand[rng.randrange(len(hand))] = rng.randrange(1, 51)
            fix = {"seq": round_seq, "set": {f"/hands/{viewer}": hand}}
            assert_same(*(d.correction(viewer, fix) for d in desks), f"{viewer}'s fix {fix}")


def test_pop_the_variant_draw_offers_every_card_the_seat_cannot_see():
    """The issue's probe: one GET of a seat's own view gave the other hand (the draw slot's
    offers left it out)."""
    log = pop_log(2, 3, variant=True)
    hands = log["rounds"][0]["hands"]
    desk = pop_dealt(log, hands)
    view = desk.view("Alice")
    draw = next(s for s in view["gathering"]["turn"]["slots"]
                if s["role"] == "draw" and s["player"] == "Alice")
    assert set(hands["Bruno"]) <= set(draw["offers"])
    assert not set(hands["Alice"]) & set(draw["offers"])  # its own cards: it holds them


# --- cube and Bloops (each seat's own hand, draws, looks) -------------------------------------

def private_start(log: dict[str, Any]) -> dict[str, Any]:
    start = {k: log[k] for k in ("format", "game", "mode", "players", "deck") if k in log}
    if log["game"] == "cube":
        return start | {"deal": {n: [None] * len(log["deal"][n]) for n in log["players"]},
                        "turns": []}
    return start | {"events": []}


def private_dealt(log: dict[str, Any], deal: dict[str, list[Any]]) -> Desk:
    desk = Desk(private_start(log))
    names = log["players"]
    if log["game"] == "bloops":
        desk.send(names[0], {"type": "place", "at": "/deal", "how": "set", "value": {
            n: deal[n] if n == names[0] else [None] * len(deal[n]) for n in names}})
        names = names[1:]
    for name in names:
        desk.send(name, {"type": "place", "at": f"/deal/{name}", "how": "set",
                         "value": deal[name]})
    return desk


def wrong_entries(log: dict[str, Any], viewer: str, rng: random.Random) -> list[dict[str, Any]]:
    """Entries this seat could send now: the game's own (its first turn, random events made its
    own), some with a card changed, and Bloops' probe of the issue: a look at another seat's
    card with every value."""
    values = sorted({v for hand in log["deal"].values() for v in hand}, key=str)
    out = []
    if log["game"] == "cube":
        for turn in rng.sample(log["turns"], 6):
            turn = {**turn, "player": viewer}
            if rng.random() < 0.5 and turn.get("draw"):
                turn["draw"] = [rng.choice(values)] + list(turn["draw"][1:])
            out.append({"type": "place", "at": "/turns", "how": "append", "value": turn})
        return out
    for event in rng.sample(log["events"], 8):
        event = {**event, "player": viewer}
        if "value" in event and rng.random() < 0.5:
            event["value"] = rng.choice(values)
        out.append({"type": "place", "at": "/events", "how": "append", "value": event})
    target = next(n for n in log["players"] if n != viewer)
    for value in range(0, 21, 4):
        out.append({"type": "place", "at": "/events", "how": "append", "value": {
            "type": "look", "player": viewer, "target": target, "place": 1, "value": value}})
    return out


PRIVATE_CASES = [("cube", "standard", seed) for seed in (1, 2)] + [
    ("bloops", "classic", seed) for seed in (1, 3)]  # dealt cards known (seed 2: unseen)


@pytest.mark.parametrize("game,mode,seed", PRIVATE_CASES)
def test_private_cards_every_answer_is_the_same_whatever_the_other_hands(game, mode, seed):
    log = get_game(game).simulate(mode=mode, players=3, seed=seed)
    log.pop("claimed", None)
    rng = random.Random(seed)
    for viewer in [*log["players"], None]:
        other = other_deal(log["deal"], viewer, [], rng)
        desks = [private_dealt(log, deal) for deal in (log["deal"], other)]
        for who in (viewer, "host"):
            assert_same(desks[0].view(who), desks[1].view(who), f"{who}'s view")
            assert_same(desks[0].signoff(who), desks[1].signoff(who), f"{who}'s sign-off")
        if viewer is None:
            continue
        for entry in wrong_entries(log, viewer, rng):
            assert_same(*(d.answer(viewer, entry) for d in desks), f"{viewer}'s {entry}")
        own = next(r for r in desks[0].rows if r.by == viewer)
        path = f"/{viewer}/0" if isinstance(own.body["value"], dict) else "/0"
        for value in rng.sample(sorted({v for h in log["deal"].values() for v in h}, key=str),
                                3):
            fix = {"seq": own.seq, "set": {path: value}}
            assert_same(*(d.correction(viewer, fix) for d in desks), f"{viewer}'s fix {fix}")


@pytest.mark.parametrize("game,mode", [("cube", "standard"), ("bloops", "classic")])
def test_a_hidden_card_corrected_is_a_hidden_card_to_every_other_phone(game, mode):
    log = get_game(game).simulate(mode=mode, players=3, seed=4)
    desk = private_dealt(log, log["deal"])
    names = log["players"]
    own = next(r for r in desk.rows if r.by == names[1])
    old = log["deal"][names[1]][0]
    new = next(v for v in (log["deal"][names[0]] + log["deal"][names[2]]) if v != old)
    desk._add([("correct", names[1], {"who": names[1], "entries": [{
        "seq": own.seq, "old": own.body,
        "new": {**own.body, "value": [new] + own.body["value"][1:]},
        "changes": [{"path": "/0", "old": old, "new": new}]}]})])
    [mine] = desk.view(names[1])["corrections"]
    assert (mine["changes"][0]["old"], mine["changes"][0]["new"]) == (old, new)
    for who in (names[0], names[2], None, "host"):
        [theirs] = desk.view(who)["corrections"]
        assert theirs["changes"][0]["hidden"] is True, who
        assert theirs["changes"][0]["old"] is theirs["changes"][0]["new"] is None
        event = views.entry_view(desk.rows[-1], desk.state(), viewer_of(who))
        assert event["changes"][0]["new"] is None and event["changes"][0]["hidden"], who


def test_bloops_signoff_before_the_end_shows_no_face_down_card():
    """The issue's probe: ``GET /signoff`` with the join key before the end gave every
    face-down card (``outcome.places``, computed from the whole draft)."""
    log = get_game("bloops").simulate(mode="classic", players=3, seed=1)
    desk = private_dealt(log, log["deal"])
    whole, _ = signoff.engine_result(desk.state().log, "bloops")
    assert whole["outcome"]["places"]["Bruno"]["1"] == log["deal"]["Bruno"][0]  # the leak
    for who in ("Alice", None, "host"):
        result, _ = desk.signoff(who)
        places = result["outcome"]["places"]
        assert set(places["Bruno"].values()) == {None}, who
        assert set(places["Alice"].values()) == ({None} if who != "Alice" else
                                                 set(log["deal"]["Alice"])), who


def test_pop_a_hand_that_clashes_with_a_hidden_hand_is_recorded_not_refused_to_its_sender():
    """The issue's "hand slip": the last hand of a deal holding a card of another hand was
    refused to its sender only ("card 6 cannot be in Bruno's hand now", nothing appended): a
    free question about the other hand. It is now recorded and refused to its seat as any part
    the whole entry refuses, with a message that names no place."""
    log = pop_log(2, 1, variant=True)
    hands = log["rounds"][0]["hands"]
    desk = pop_dealt(log, hands, skip="Bruno")
    slip = [hands["Alice"][0]] + hands["Bruno"][1:]
    answer = desk.answer("Bruno", {"type": "part", "entry": "round", "slots": {
        str(slot_of(desk, "round", "hand", "Bruno")): slip}})
    assert answer[0] == "taken"
    refused = answer[1]["refused"]["error"]
    assert "Alice" not in refused["message"] and "/hands" not in refused["message"]
    assert answer[1]["gathering"]["round"]["slots"][-1]["filled"] is False  # to enter again


def test_bloops_signoff_over_http_before_the_end_gives_no_face_down_card(client):
    """The same probe through ``GET /signoff`` (the join key, and a seat)."""
    from tests.tables.helpers import API, bearer
    from tests.tables.private import place_entries

    log = get_game("bloops").simulate(mode="classic", players=3, seed=1)
    made = client.post(API, json={"log": private_start(log), "record_hands": True}).get_json()
    table, key = made["table"], made["join_key"]
    seats = {n: client.post(f"{API}/{table}/seats", json={"player": n}, headers=bearer(key))
             .get_json()["seat_token"] for n in log["players"]}
    for n, (by, entry) in enumerate(place_entries(log)[:len(log["players"])]):
        answer = client.post(f"{API}/{table}/entries", headers=bearer(seats[by]),
                             json={"id": f"d{n}", "seen": n, "entry": entry})
        assert answer.status_code == 201, answer.get_json()
    for token, who in ((key, None), (seats["Alice"], "Alice")):
        places = client.get(f"{API}/{table}/signoff", headers=bearer(token)
                            ).get_json()["result"]["outcome"]["places"]
        for name, cards in places.items():
            assert set(cards.values()) == ({None} if name != who else set(log["deal"][name]))


def test_pop_a_correction_naming_another_hands_card_is_no_free_question_over_http(client):
    """The issue's probe: a refused correction said "Alice does not hold 7: it was dealt to
    Bruno (see /rounds/0/hands/Bruno/0)", nothing appended. Judged on Alice's draft (no hand of
    the round being played), it is taken: recorded, and every other phone is told only that the
    draft holds a clash (the host, where)."""
    from tests.tables.test_corrections import correct, played, turn_seqs

    table = played(client, turns=1)
    rnd = table.log["rounds"][0]
    played_cards = {c for cards in rnd["turns"][0]["plays"].values() for c in cards}
    card = next(c for c in rnd["hands"]["Bruno"] if c not in played_cards)
    [seq] = turn_seqs(client, table)
    answer = correct(client, table, "Alice", seq, {"/plays/Alice": [card]})
    assert answer.status_code == 201, answer.get_json()
    assert "Bruno" not in str(answer.get_json()["view"]["error"])
    for who in ("Bruno", "Chloé", "watch"):
        assert table.view(who)["error"]["code"] == "hidden-clash", who
    assert "Bruno" in table.view("host")["error"]["message"]  # the host's screen: where
    fixed = correct(client, table, "Alice", seq, {"/plays/Alice": rnd["turns"][0]["plays"]
                                                  ["Alice"]})
    assert fixed.status_code == 201 and table.view("Bruno")["error"] is None

"""POP! hidden cards checked exactly (issue 14): the three properties over simulated games.

A simulated log records everything (hands and draws). A player at the table does not see the
other hands, nor what another player draws; ``hide`` forgets that the way a log written at the
table does: a round's ``hands`` go, some of its ``draws`` go, and of the cards kept after a
complete battle round only some are said (``kept``).

- *Hiding never breaks a game*: the hidden log is legal with the same status, and every outcome
  field that does not depend on the hidden cards keeps its value.
- *Impossible stays impossible*: an unseen place (a hidden draw, an unsaid kept card, a dealt
  hand) named as a card that is certainly elsewhere makes the log illegal, ``duplicate-card`` at
  that place.
- *Exactness against brute force*: every completion of the hidden places (each hidden draw tried
  with all 50 cards, hands rebuilt from what each player shows, the unseen kept cards dealt every
  way) is replayed with full information; the engine is legal iff one completion is, and gives
  winners iff every legal completion gives the same winners.

Default tier: about 40 examples each; the slow tier (``-m slow``) runs 500 generated games each,
200 for "impossible stays impossible": its engine arcs stopped growing by its 100th game, where
hiding and exactness still found new ones at their 500th (``scripts/sweepcover --properties``,
issue 34's sixth round: a size is twice the games by which its arcs stopped growing, at least
100, at most 500).

The log under test is read by ``check_log`` (the marshmallow shape path); the references (the
full-information game, set-up reads, the brute forces' logs) by ``check_json``, the fast shape
path for the same logs, with the same verdicts (``tests/logformat/test_schema_agreement.py``) at
a fraction of the cost (issue 34). Neither changes the log it reads (tested below): no copies.
"""

from __future__ import annotations

import copy
import random
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from popreplay.checking import check_json, check_log
from popreplay.engine import GAMES

POP = GAMES["pop"]
SETUPS = [
    ("battle", 2, {}), ("battle", 2, {"two_player_variant": True}), ("battle", 3, {}),
    ("battle", 4, {}), ("battle", 5, {}), ("coop", 3, {}), ("coop", 5, {}),
    ("solo", 1, {"difficulty": 1}), ("solo", 1, {"difficulty": 3}), ("puzzle", 1, {}),
]
HAND = {"battle": 9, "coop": 9, "solo": 10}
DEFAULT = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
SLOW_SATURATED = settings(max_examples=200, deadline=None,  # the docstring says why 200
                          suppress_health_check=list(HealthCheck))


def simulated(setup, seed):
    mode, players, options = setup
    return POP.simulate(mode=mode, players=players, seed=seed, options=options)


def cut(log, rng):
    """Sometimes stop the log early (an incomplete game)."""
    if rng.random() < 0.3:
        rounds = log["rounds"]
        del rounds[rng.randint(1, len(rounds)):]
        turns = rounds[-1]["turns"]
        del turns[rng.randint(0, len(turns)):]
    return log


def hide(log, rng, *, draw_limit=None):
    """The log as written at the table: per round, maybe no hands, some draws forgotten, some
    kept cards said. ``draw_limit`` caps the forgotten draws (for the brute force)."""
    full = check_json(log)["outcome"]
    hidden = copy.deepcopy(log)
    hidden.pop("claimed", None)
    rounds = hidden["rounds"]
    drop = [rng.random() < 0.7 for _ in rounds]
    drop[rng.randrange(len(rounds))] = True  # at least one round without hands
    forgotten = 0
    for index, rnd in enumerate(rounds):
        if not drop[index]:
            continue
        rnd.pop("hands", None)
        for turn in rnd["turns"]:
            draws = turn.get("draws")
            for name in list(draws or ()):
                if (draw_limit is None or forgotten < draw_limit) and rng.random() < 0.4:
                    del draws[name]
                    forgotten += 1
            if draws == {}:
                del turn["draws"]
        kept = full["rounds"][index]["kept"] if log["mode"] == "battle" else {}
        said = {name: card for name, card in kept.items()
                if card is not None and rng.random() < 0.5}
        if said:
            rnd["kept"] = said
    return hidden


def replay(log):
    return check_log(log)


# --- hiding never breaks a game -----------------------------------------------------------------


def check_hiding(setup, seed):
    rng = random.Random(seed)
    log = cut(simulated(setup, seed), rng)
    hidden = hide(log, rng)
    full, seen = check_json(log), replay(hidden)
    assert full["legal"] is True
    assert seen["errors"] == []
    assert (seen["status"], seen["legal"]) == (full["status"], True)
    if log["mode"] != "battle":
        assert seen["outcome"] == full["outcome"]  # nothing in it depends on hidden cards
        return
    a, b = seen["outcome"], full["outcome"]
    assert a["totals"] == b["totals"]
    for index, (mine, real) in enumerate(zip(a["rounds"], b["rounds"])):
        for field in ("scores", "collected", "chief_pending"):
            assert mine[field] == real[field]
        said = hidden["rounds"][index].get("kept") or {}
        tracked = "hands" in hidden["rounds"][index]
        for name, card in mine["kept"].items():
            assert card in (None, real["kept"][name])  # never a wrong card
            if name in said or tracked:
                assert card == real["kept"][name]  # known: given
            if card is None and real["kept"][name] is not None:
                assert drawn_and_kept(hidden["rounds"][index], name, real["kept"][name]) is False
    if a["tie_break"] == "unknown":
        assert b["tie_break"] in ("kept-card", "shared")
        assert set(b["winners"]) <= set(a["winners"])
    else:
        assert (a["winners"], a["tie_break"]) == (b["winners"], b["tie_break"])


def drawn_and_kept(rnd, name, card):
    """Whether the hidden round still records ``card`` as drawn by ``name`` (so it is known)."""
    return any(card in (turn.get("draws") or {}).get(name, ()) for turn in rnd["turns"])


@DEFAULT
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**9))
def test_hiding_never_breaks_a_game(setup, seed):
    check_hiding(setup, seed)


@pytest.mark.slow
@SLOW
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**9))
def test_hiding_never_breaks_a_game_slow(setup, seed):
    check_hiding(setup, seed)


# --- impossible stays impossible ----------------------------------------------------------------


def certain_before(rnd, turn_index, *, solo):
    """Cards a hidden round shows before the draws of turn ``turn_index``: certainly elsewhere."""
    cards = [c for row in rnd["layout"] for c in row if c is not None]
    for t, turn in enumerate(rnd["turns"][:turn_index + (1 if solo else 0)]):
        cards += [c for cs in (turn.get("plays") or {}).values() for c in cs]
        cards += list(turn.get("chief") or ())
        if t < turn_index:
            cards += [c for cs in (turn.get("draws") or {}).values() for c in cs]
    return cards


def unseen_places(log, hidden):
    """``(kind, round, turn, name)`` for every unseen place of the hidden log."""
    places = []
    for index, rnd in enumerate(hidden["rounds"]):
        if "hands" in rnd:
            continue
        for name in log["players"]:
            places.append(("hands", index, None, name))
        for t, turn in enumerate(rnd["turns"]):
            real = log["rounds"][index]["turns"][t].get("draws") or {}
            for name in real:
                if name not in (turn.get("draws") or {}):
                    places.append(("draws", index, t, name))
        complete = len(rnd["turns"]) == 8
        if log["mode"] == "battle" and complete:
            for name in log["players"]:
                if name not in (rnd.get("kept") or {}):
                    places.append(("kept", index, None, name))
    return places


def check_impossible(setup, seed):
    rng = random.Random(seed)
    log = cut(simulated(setup, seed), rng)
    hidden = hide(log, rng)
    assert check_json(hidden)["legal"] is True
    kind, index, t, name = rng.choice(unseen_places(log, hidden))
    rnd, real = hidden["rounds"][index], log["rounds"][index]
    if kind == "hands":  # the dealt hands said after all, one card named as a layout card
        rnd["hands"] = copy.deepcopy(real["hands"])
        for u, turn in enumerate(rnd["turns"]):  # with hands, every draw is recorded
            if real["turns"][u].get("draws"):
                turn["draws"] = copy.deepcopy(real["turns"][u]["draws"])
        k = rng.randrange(len(rnd["hands"][name]))
        rnd["hands"][name][k] = rng.choice([c for row in rnd["layout"] for c in row if c])
        path = f"/rounds/{index}/hands/{name}/{k}"
    elif kind == "draws":  # the real draw, one card named as a card shown before it
        draws = copy.deepcopy(real["turns"][t]["draws"][name])
        k = rng.randrange(len(draws))
        draws[k] = rng.choice(certain_before(rnd, t, solo=log["mode"] == "solo"))
        rnd["turns"][t].setdefault("draws", {})[name] = draws
        path = f"/rounds/{index}/turns/{t}/draws/{name}/{k}"
    else:  # a kept card named as a card the round shows elsewhere
        own = [c for turn in rnd["turns"] for c in (turn.get("draws") or {}).get(name, ())]
        shown = [c for c in certain_before(rnd, len(rnd["turns"]), solo=False) if c not in own]
        before = log["players"][:log["players"].index(name)]  # kept are read in player order
        shown += [c for n, c in (rnd.get("kept") or {}).items() if n in before]
        rnd.setdefault("kept", {})[name] = rng.choice(shown)
        path = f"/rounds/{index}/kept/{name}"
    result = replay(hidden)
    assert result["status"] == "illegal"
    (error,) = result["errors"]
    assert (error["code"], error["path"]) == ("duplicate-card", path), error


@DEFAULT
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**9))
def test_impossible_stays_impossible(setup, seed):
    check_impossible(setup, seed)


@pytest.mark.slow
@SLOW_SATURATED
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**9))
def test_impossible_stays_impossible_slow(setup, seed):
    check_impossible(setup, seed)


# --- exactness against brute force --------------------------------------------------------------


def completions(hidden):
    """Every full-information log the hidden log could be the table's record of (hands rebuilt
    from what each player shows; each hidden draw tried with all 50 cards; the unseen kept cards
    of the last round dealt every way, the other unseen cards of a hand being interchangeable)."""
    mode, names = hidden["mode"], hidden["players"]
    per_round = []
    for index, rnd in enumerate(hidden["rounds"]):
        if "hands" in rnd:
            per_round.append([rnd])
            continue
        holes = [(t, name) for t, turn in enumerate(rnd["turns"]) for name in names
                 if needs_draw(hidden, rnd, t) and name not in (turn.get("draws") or {})]
        last = (index == len(hidden["rounds"]) - 1 and mode == "battle"
                and len(rnd["turns"]) == 8)  # the kept cards that decide a tie
        options = []
        for cards in _product(range(1, 51), len(holes)):
            filled = copy.deepcopy(rnd)
            for (t, name), card in zip(holes, cards):
                filled["turns"][t].setdefault("draws", {})[name] = [card]
            options.extend(_with_hands(mode, names, filled, every_way=last))
        per_round.append(options)
    for choice in _product_lists(per_round):
        yield {**hidden, "rounds": list(choice)}


def needs_draw(log, rnd, t):
    return (log.get("options") or {}).get("two_player_variant") is True


def _product(values, count):
    if count == 0:
        yield ()
        return
    for value in values:
        for rest in _product(values, count - 1):
            yield (value, *rest)


def _product_lists(lists):
    if not lists:
        yield ()
        return
    for first in lists[0]:
        for rest in _product_lists(lists[1:]):
            yield (first, *rest)


def _with_hands(mode, names, rnd, *, every_way):
    """The round with ``hands``: what each player plays or keeps, less what they draw, and
    unseen cards to fill the hand (every way for the kept cards when ``every_way``)."""
    mentioned = {c for row in rnd["layout"] for c in row if c is not None}
    for turn in rnd["turns"]:
        for group in ("plays", "draws"):
            mentioned |= {c for cs in (turn.get(group) or {}).values() for c in cs}
        mentioned |= set(turn.get("chief") or ())
    mentioned |= set((rnd.get("kept") or {}).values())
    pool = [c for c in range(1, 51) if c not in mentioned]
    hands, short = {}, []
    for name in names:
        held = [c for turn in rnd["turns"] for c in (turn.get("plays") or {}).get(name, ())]
        if name in (rnd.get("kept") or {}):
            held.append(rnd["kept"][name])
        for turn in rnd["turns"]:
            for card in (turn.get("draws") or {}).get(name, ()):
                if card in held:
                    held.remove(card)
        hands[name] = held
        size = HAND.get(mode, max(5, len(held)))  # a puzzle hand: any size, at least 5
        short += [name] * max(0, size - len(held))
    fills = permutations(pool, len(short)) if every_way else [tuple(pool[:len(short)])]
    for fill in fills:
        if len(fill) < len(short):
            return
        filled = copy.deepcopy(rnd)
        filled["hands"] = {name: list(cards) for name, cards in hands.items()}
        for name, card in zip(short, fill):
            filled["hands"][name].append(card)
        yield filled


def brute_force(hidden):
    """``(legal, set of winners tuples over the legal completions)``.

    A completion is built here from Python integers, used once and never changed by the engine
    (its rounds are shared between completions): no copy; and read on the fast shape path
    (:func:`popreplay.checking.check_json`, the published JSON Schema), which gives the same
    result as :func:`check_log`'s marshmallow path on every log it accepts
    (``tests/logformat/test_schema_agreement.py``) at a fifth of the cost."""
    legal, winners = False, set()
    for log in completions(hidden):
        result = check_json(log)
        if result["legal"]:
            legal = True
            if result["status"] == "complete" and log["mode"] == "battle":
                winners.add(tuple(result["outcome"]["winners"]))
    return legal, winners


def spoil(log, rng):
    """Sometimes change one shown card to any card: often impossible, sometimes subtly."""
    what = rng.choice(["none", "none", "play", "draw", "kept"])
    rounds = log["rounds"]
    index = rng.randrange(len(rounds))
    rnd = rounds[index]
    if what == "play" and rnd["turns"]:
        turn = rng.choice(rnd["turns"])
        name = rng.choice(sorted(turn["plays"]))
        turn["plays"][name][rng.randrange(len(turn["plays"][name]))] = rng.randint(1, 50)
    elif what == "draw":
        drawn = [(turn, name) for turn in rnd["turns"] for name in (turn.get("draws") or {})]
        if drawn:
            turn, name = rng.choice(drawn)
            turn["draws"][name][rng.randrange(len(turn["draws"][name]))] = rng.randint(1, 50)
    elif what == "kept" and rnd.get("kept"):
        rnd["kept"][rng.choice(sorted(rnd["kept"]))] = rng.randint(1, 50)
    return log


BRUTE_SETUPS = [
    ("battle", 2, {"two_player_variant": True}), ("battle", 2, {}), ("battle", 5, {}),
    ("coop", 3, {}), ("solo", 1, {"difficulty": 2}), ("puzzle", 1, {}),
]


def check_exact(setup, seed):
    rng = random.Random(seed)
    log = simulated(setup, seed)
    if setup[0] == "battle" and rng.random() < 0.5:
        del log["rounds"][1:]  # a one-round battle: three times faster, still exact
    log = cut(log, rng)
    limit = 1 if (setup[2].get("two_player_variant")) else 0
    hidden = spoil(hide(log, rng, draw_limit=limit), rng)
    last = hidden["rounds"][-1]["turns"][-1:]
    if hidden["mode"] == "solo" and last and "draws" not in last[0]:
        # Cut after a turn's plays, before its draw: without hands a draw may be left out, but a
        # completion records hands, and then every draw must be there (`bad-draw`). Which draw
        # is missing is not a question about unseen cards, so brute force does not apply.
        return
    legal, winners = brute_force(hidden)
    result = replay(hidden)
    assert result["legal"] is legal, result["errors"]
    if not legal or result["status"] != "complete" or hidden["mode"] != "battle":
        return
    outcome = result["outcome"]
    if outcome["tie_break"] == "unknown":
        assert len(winners) > 1
        assert set().union(*winners) <= set(outcome["winners"])
    else:
        assert winners == {tuple(outcome["winners"])}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(setup=st.sampled_from(BRUTE_SETUPS), seed=st.integers(0, 10**9))
def test_exact_against_brute_force(setup, seed):
    check_exact(setup, seed)


@pytest.mark.slow
@SLOW
@given(setup=st.sampled_from(BRUTE_SETUPS), seed=st.integers(0, 10**9))
def test_exact_against_brute_force_slow(setup, seed):
    check_exact(setup, seed)


# --- the tie break with unknown kept cards, against every deal of the unseen cards -------------


@DEFAULT
@given(data=st.data())
def test_tie_break_against_every_deal_of_the_unseen_cards(data):
    from popreplay.engine.games.pop.cards import ICONS
    from popreplay.engine.games.pop.rules import break_tie

    players = data.draw(st.integers(2, 5))
    cards = data.draw(st.permutations(range(1, 51)))
    kept = [cards[p] if data.draw(st.booleans()) else None for p in range(players)]
    unknown = [p for p in range(players) if kept[p] is None]
    spare = data.draw(st.integers(0, 3))  # unseen cards left in the draw pile
    unseen = list(cards[players:players + len(unknown) + spare])
    tied = sorted(data.draw(st.sets(st.integers(0, players - 1), min_size=2)))
    results = set()
    for deal in permutations(unseen, len(unknown)):
        hand = dict(zip(unknown, deal))
        icons = {p: ICONS[kept[p] if kept[p] is not None else hand[p]] for p in tied}
        fewest = min(icons.values())
        results.add(tuple(p for p in tied if icons[p] == fewest))
    winners, how = break_tie(tied, kept, unseen)
    if len(results) == 1:
        (only,) = results
        assert (winners, how) == (list(only), "kept-card" if len(only) == 1 else "shared")
    else:
        assert (winners, how) == (tied, "unknown")


# --- what the properties above rely on ----------------------------------------------------------


@pytest.mark.parametrize("setup", SETUPS)
def test_reading_a_log_never_changes_it(setup):
    """The properties read logs without copying them first (and the brute force shares rounds
    between completions): neither path of the checker may change the log it reads."""
    log = simulated(setup, 7)
    hidden = hide(copy.deepcopy(log), random.Random(7))
    for data in (log, hidden):
        before = copy.deepcopy(data)
        check_log(data, with_steps=True)
        check_json(data)
        assert data == before

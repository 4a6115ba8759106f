"""``pending.as`` (docs/recorder.md): the engine judges a pending entry as one player may know
the draft — the other players' hands of the round being played unseen — so that a live table's
offers and checks for a seat never depend on another seat's hand (docs/table.md)."""

from __future__ import annotations

from popreplay.engine.games.pop import POP


def dealt(seed: int = 3):
    """A 2-player variant battle with hands, its first round dealt and no turn yet."""
    log = POP.simulate(mode="battle", players=2, seed=seed,
                       options={"two_player_variant": True})
    first = dict(log["rounds"][0], turns=[])
    log = {k: v for k, v in log.items() if k != "claimed"} | {"rounds": [first]}
    return log, first["hands"]


def cards(log, asker=None, tapped=()):
    pending = {"entry": "turn", "cards": list(tapped)}
    if asker is not None:
        pending["as"] = asker
    answer = POP.choices(log, pending=pending)
    assert "error" not in answer, answer
    return set(answer["next"]["turn"]["cards"])


def test_a_draw_as_a_player_knows_it_holds_the_other_hand_not_its_own():
    log, hands = dealt()
    whole = cards(log)
    alice = cards(log, "Alice")
    assert not whole & set(hands["Bruno"])  # the whole draft: Bruno's hand cannot be drawn
    assert set(hands["Bruno"]) <= alice and not alice & set(hands["Alice"])
    assert alice - whole == set(hands["Bruno"])
    assert cards(log, "") - whole == set(hands["Alice"]) | set(hands["Bruno"])


def test_another_players_play_as_a_player_knows_it_is_any_card_it_cannot_see():
    log, hands = dealt()
    draws = sorted(cards(log))[:2]  # a draw each (slots 0 and 1), then Alice's play, Bruno's
    alice_play = sorted(hands["Alice"])[:2]
    bruno = cards(log, "Alice", [*draws, *alice_play])
    assert set(hands["Bruno"]) < bruno and not bruno & set(hands["Alice"])
    assert cards(log, None, [*draws, *alice_play]) == set(hands["Bruno"]) | {draws[1]}


def test_a_pending_card_of_the_other_hand_is_refused_only_to_whoever_may_see_it():
    log, hands = dealt()
    card = sorted(hands["Bruno"])[0]
    refused = POP.choices(log, pending={"entry": "turn", "cards": [card]})
    assert refused["error"]["code"] == "pending"
    taken = POP.choices(log, pending={"entry": "turn", "cards": [card], "as": "Alice"})
    assert "error" not in taken

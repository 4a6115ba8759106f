"""The slap table drawn in a terminal."""

from __future__ import annotations

import click

from popreplay.checking import check_log
from popreplay.games.slap.render import slap_state


def test_terminal_table_shows_piles_challenge_and_next_player():
    log = {"format": "popreplay/1", "game": "slap", "mode": "elimination",
           "players": ["Alice", "Bruno"],
           "events": [{"slap": "Bruno"}, {"flip": "Alice", "card": "shadow-8"},
                      {"flip": "Bruno", "card": "rainbow-3"}]}
    state = check_log(log, with_steps=True)["steps"][-1]["state"]
    lines = [click.unstyle(line) for line in slap_state(state)]
    assert lines == [
        "central (2): shadow-8 rainbow-3  ← top",
        "Folies pile: 2 cards",
        "piles: Alice 50, Bruno 48",
        "challenge: Alice owes 3 of 3 cards to Bruno",
        "next to flip: Alice",
    ]

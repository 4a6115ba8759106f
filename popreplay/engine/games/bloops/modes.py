"""Bloops has one way to play; its mode is named ``classic``."""

from __future__ import annotations

CLASSIC = "classic"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MODES: dict[str, tuple[int, int]] = {CLASSIC: (MIN_PLAYERS, MAX_PLAYERS)}

# How a game ends (the outcome's ``ended_by``).
ENDED_BY_TWENTY = "twenty"  # the 20 was discarded: the game ends at once
ENDED_BY_BLOOPS = "bloops"  # a player called Bloops and every other player had one more turn
ENDED_BY_PILE = "pile-empty"  # a turn had to begin and the draw pile was empty

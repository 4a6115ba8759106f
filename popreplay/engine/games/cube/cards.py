"""The cubing card game's cards: kinds, categories, decks by player count, F.M.C. marks.

Every physical card has an id ``KIND-n`` (``F2L-1``, ``PB-4``, ``CORNER-TWIST-2``): ``n`` runs from
1 to the number of copies of that kind in the deck the game uses. Two players use the 40-card deck;
three add the rulebook's 20 extra cards (so ``RED-2``, ``PB-7``... exist); four use two full decks
(every count doubled).
"""

from __future__ import annotations

from functools import lru_cache

CUBE, COLOUR, GAME, TIMER = "cube", "colour", "game", "timer"

# kind: (category, copies in one deck, copies among the 3-player extra cards)
KINDS: dict[str, tuple[str, int, int]] = {
    "CROSS": (CUBE, 2, 1),
    "F2L": (CUBE, 2, 1),
    "OLL": (CUBE, 2, 1),
    "PLL": (CUBE, 2, 1),
    "WHITE": (COLOUR, 2, 1),
    "YELLOW": (COLOUR, 2, 1),
    "ORANGE": (COLOUR, 2, 1),
    "GREEN": (COLOUR, 2, 1),
    "RED": (COLOUR, 1, 1),
    "BLUE": (COLOUR, 1, 1),
    "SKIP": (COLOUR, 1, 0),
    "LOOK-AHEAD": (GAME, 1, 0),
    "ONE-HAND": (GAME, 3, 1),
    "BLIND-SOLVE": (GAME, 2, 1),
    "CORNER-TWIST": (GAME, 2, 2),
    "POP": (GAME, 3, 2),
    "SCRAMBLE": (GAME, 1, 0),
    "PB": (TIMER, 5, 2),
    "WR": (TIMER, 1, 1),
    "DNF": (TIMER, 3, 1),
}

STEPS = ("CROSS", "F2L", "OLL", "PLL")
FMC_MARKS = ("XCROSS", "1st F2L", "2nd F2L", "3rd F2L", "OLL", "T-PERM")
TARGETED = frozenset({"ONE-HAND", "BLIND-SOLVE", "CORNER-TWIST", "POP", "SCRAMBLE", "DNF"})
HAND_LIMIT = 10
DEAL = 5


def copies(kind: str, players: int) -> int:
    _, base, extra = KINDS[kind]
    if players >= 4:
        return 2 * base
    return base + extra if players == 3 else base


@lru_cache(maxsize=4)
def deck(players: int) -> tuple[str, ...]:
    """Every card id of the deck for this many players, in a fixed order."""
    return tuple(f"{kind}-{n}" for kind in KINDS for n in range(1, copies(kind, players) + 1))


def decks(players: int) -> int:
    """How many physical decks the F.M.C. marks come from (two decks with four players)."""
    return 2 if players >= 4 else 1


# Every id of the largest deck (two decks) and every kind alone -> its kind: the replay asks often.
_KIND_OF = {**{f"{k}-{n}": k for k in KINDS for n in range(1, 2 * KINDS[k][1] + 1)},
            **{k: k for k in KINDS}}
_CATEGORY_OF = {name: KINDS[k][0] for name, k in _KIND_OF.items()}


def kind(card: str) -> str:
    """``"CORNER-TWIST-2"`` -> ``"CORNER-TWIST"``; a kind alone (``"CORNER-TWIST"``) is itself.
    Only for names already known to be cards or kinds."""
    found = _KIND_OF.get(card)
    return found if found is not None else card.rsplit("-", 1)[0]


def category(card: str) -> str:
    found = _CATEGORY_OF.get(card)
    return found if found is not None else KINDS[kind(card)][0]


def is_kind(name: str) -> bool:
    """Is ``name`` a kind alone (``"ORANGE"``), which any free unmarked copy of it satisfies?"""
    return name in KINDS


def is_colour(card: str) -> bool:
    return category(card) == COLOUR

# The GAME cards' (and PB's, WR's) names in messages, by kind.
NAMES = {"LOOK-AHEAD": "Look Ahead", "ONE-HAND": "One Hand", "BLIND-SOLVE": "Blind Solve",
         "CORNER-TWIST": "Corner Twist", "POP": "Pop", "SCRAMBLE": "Scramble",
         "PB": "Personal Best", "WR": "World Record", "DNF": "DNF"}

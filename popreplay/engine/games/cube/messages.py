"""cube's notes and rule messages in English, by message id (syntax: ``engine/messages.py``).

The French is in ``popreplay/i18n/fr/cube.po``; every id here must be there with the same fields.
Card ids (``F2L-1``, ``CORNER-TWIST-2``), step names (CROSS, F2L, OLL, PLL), the GAME and TIMER
cards' names and the F.M.C. are printed on the cards and stay as they are in every language.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...messages import Msg, define, msg
from .cards import FMC_MARKS

define({
    # --- words ---------------------------------------------------------------------------------
    "cube.nothing": "nothing",
    "cube.a-hidden-card": "a hidden card",
    "cube.hidden-cards": "{count} hidden cards",
    "cube.a-colour-card": "a COLOUR card",
    "cube.colour.white": "white",
    "cube.colour.yellow": "yellow",
    "cube.colour.orange": "orange",
    "cube.colour.green": "green",
    "cube.colour.red": "red",
    "cube.colour.blue": "blue",
    "cube.colour.skip": "skip",
    "cube.mark.xcross": "XCROSS",
    "cube.mark.f2l-1": "1st F2L",
    "cube.mark.f2l-2": "2nd F2L",
    "cube.mark.f2l-3": "3rd F2L",
    "cube.mark.oll": "OLL",
    "cube.mark.t-perm": "T-PERM",
    # where a card is (``Knowledge.locate``)
    "cube.where.hand": "in {name}'s hand",
    "cube.where.table": "on {name}'s table",
    "cube.where.left": "in the left discard",
    "cube.where.right": "in the right discard",
    "cube.where.hidden": "not there: it can only be one of the hidden cards",
    "cube.where.copy": "{card} {where}",
    "cube.where.copies": "not free: every {token} is placed ({comma:places})",
    # --- notes ---------------------------------------------------------------------------------
    "cube.note.deal": "{cards} cards: {players} players are dealt 5 each, {pile} stay in the "
                      "draw pile.",
    "cube.note.deal-fmc": "{cards} cards: {players} players are dealt 5 each, {pile} stay in "
                          "the draw pile; the deck declares its F.M.C. marks.",
    "cube.note.reshuffle": "The draw pile is empty: both discards ({count} cards) are shuffled "
                           "into a new draw pile.",
    "cube.note.draw-up-to-5": "Turn {turn}: {name} holds {held} {held|card|cards} and draws up "
                              "to 5: {cards}.",
    "cube.note.draw-2": "Turn {turn}: {name} holds {held} {held|card|cards} and draws 2: "
                        "{cards}.",
    "cube.note.lay": "{name} lays {cards} on the table.",
    "cube.note.lay-copies": "{name} lays {cards} on the table; {copies} {copies|is a copy|are "
                            "copies} of a step already there and {copies|goes|go} right.",
    "cube.note.lay-only-copies": "{name} lays no new step; {copies} {copies|is a copy|are "
                                 "copies} of a step already there and {copies|goes|go} right.",
    "cube.note.discard": "{name} discards {cards} to the right.",
    "cube.note.fmc": "{name} shows the F.M.C.: {comma:shown}.",
    "cube.note.fmc-card": "{card} ({mark})",
    "cube.note.timer": "{name} protects the {step} with {card} ({timer}).",
    "cube.note.dnf": "{name} plays {card}: {target}'s Personal Best on the {step} is discarded.",
    "cube.note.look-ahead": "{name} plays Look Ahead and draws {cards}.",
    "cube.note.one-hand": "{name} plays One Hand and takes {cards} from {target}'s hand.",
    "cube.note.blind-solve": "{name} plays Blind Solve on {target} and takes {cards}.",
    "cube.note.blind-solve-nothing": "{name} plays Blind Solve on {target} and takes nothing "
                                     "({target} has no COLOUR card).",
    "cube.note.corner-twist": "{name} plays Corner Twist: {cards} leaves {target}'s {step} for "
                              "{name}'s hand.",
    "cube.note.pop": "{name} plays Pop: {target}'s {step} pops off and its colours go back to "
                     "{target}'s hand.",
    "cube.note.scramble": "{name} plays Scramble: {give} goes to {target} for {cards}.",
    "cube.note.scramble-spent": "{name} plays Scramble, but {target} has no COLOUR card: it is "
                                "spent.",
    "cube.note.colour": "{name} puts {card} on the {step}.",
    "cube.note.and-win": "{note} {win}",
    "cube.note.win-steps": "{name} wins with four complete steps!",
    "cube.note.win-fmc": "{name} wins with the F.M.C.!",
    "cube.note.end-steps": "Game over: {name} wins with four complete steps on turn {turn}.",
    "cube.note.end-fmc": "Game over: {name} wins with the F.M.C. on turn {turn}.",
    # --- rule messages -------------------------------------------------------------------------
    "cube.unknown-card": "there is no card {repr:card} in the {size}-card deck of a "
                         "{players}-player game",
    "cube.fmc-mark-missing": "the F.M.C. marks do not say which card is '{mark}'",
    "cube.fmc-mark-count": "{count} {count|card|cards} {count|carries|carry} the mark '{mark}' "
                           "with {players} players; the deck names {named}",
    "cube.fmc-two-marks": "{card} carries two F.M.C. marks",
    "cube.hand-twice": "{name}'s hand is given twice",
    "cube.deal-missing": "the deal does not give {name}'s hand",
    "cube.deal-count": "{name} is dealt {count} {count|card|cards}; the deal is {deal}",
    "cube.cannot-draw": "{card} cannot be drawn: {why}",
    "cube.cannot-draw-unnamed": "the card drawn here, which the log does not name, cannot be "
                                "drawn: {why}",
    "cube.why.it-is": "it is {where}",
    "cube.why.hand-known": "the hand is known ({comma:held}) and holds no {kind}",
    "cube.why.not-in-reshuffle": "it is not in the draw pile, which holds only the cards of the "
                                 "last reshuffle",
    "cube.why.in-a-hand": "every free copy of it is in a hand, not in the draw pile",
    "cube.why.no-deal": "no deal of the unseen cards puts it there together with what the log "
                        "has shown of them",
    "cube.turn-after-end": "turn {turn} comes after the end of the game ({name} won on turn "
                           "{won})",
    "cube.wrong-player": "turn {turn} is {expected}'s, not {name}'s",
    "cube.already-won": "{name} has already won",
    "cube.hand-limit": "{name} ends the turn with {count} cards; the surplus over {limit} goes "
                       "to the right discard",
    "cube.draw-count": "{name} draws {count}; the rules say {expected}",
    "cube.draw-count-all": "{name} draws {count}; the rules say {expected} (all that the pile "
                           "and the discards hold)",
    "cube.lay-not-cube": "{card} is not a CUBE card: only CUBE cards are laid at the start of "
                         "the turn",
    "cube.lay-held": "{name} holds {card}: every CUBE card in hand goes to the table at the "
                     "start of the turn",
    "cube.lay-hidden": "{name}'s hidden cards would have to hold a CUBE card (no deal of the "
                       "unseen cards fits what the log has shown), and every CUBE card in hand "
                       "goes to the table at the start of the turn",
    "cube.not-held": "{name} does not hold {card}: {why}",
    "cube.discard-small-hand": "only a hand of more than {limit} cards discards; {name} holds "
                               "{count}",
    "cube.discard-not-last": "the surplus is discarded at the end of the turn: after the "
                             "discard only an F.M.C. show may follow",
    "cube.discard-count": "{name} holds {count} cards and discards {surplus}, not {given}",
    "cube.fmc-undeclared": "the deck does not declare which cards carry the F.M.C. marks, so "
                           "the F.M.C. win cannot be claimed",
    "cube.fmc-count": "the F.M.C. is shown with {count} cards, not {given}",
    "cube.fmc-order": "card {position} of the F.M.C. must carry the mark '{mark}'; {card} "
                      "carries {what}",
    "cube.fmc-no-mark": "no F.M.C. mark",
    "cube.fmc-the-mark": "the mark '{mark}'",
    "cube.play-cube": "{card} is a CUBE card: CUBE cards are laid at the start of the turn, not "
                      "played",
    "cube.takes-no": "{card} takes no {repr:key}",
    "cube.needs": "{card} needs {repr:key}",
    "cube.missing-target": "with 3 or 4 players every targeted card names its target",
    "cube.target-self": "{name} cannot target themselves",
    "cube.bad-colour": "{card} cannot go on {name}'s {step}: {why}",
    "cube.timer-no-step": "there is no {step} on {name}'s table to protect",
    "cube.timer-twice": "the {step} already has a TIMER ({timer}): one TIMER per step",
    "cube.dnf-no-timer": "a DNF discards a Personal Best; {name}'s {step} has no TIMER",
    "cube.dnf-world-record": "a DNF discards a Personal Best; {name}'s {step} has a World "
                             "Record, which lasts the game",
    "cube.no-step": "{name} has no {step} on the table",
    "cube.protected": "{name}'s {step} is protected by {timer}",
    "cube.take-most": "this card takes at most {most} {most|card|cards}, not {count}",
    "cube.no-card-to-take": "there is no card to take",
    "cube.no-colour-to-take": "there is no COLOUR card to take",
    "cube.take-no-deal": "no deal of the unseen cards lets this card be taken together with what "
                         "the log shows of them",
    "cube.not-a-card": "{card} is not a card",
    "cube.not-a-colour": "{card} is not a COLOUR card",
    "cube.not-in-that-hand": "{card} is not in that hand: {why}",
    "cube.one-hand-takes": "One Hand takes a card from {name}'s hand of {count}",
    "cube.blind-solve-held": "{name} holds {card}: Blind Solve takes a COLOUR card",
    "cube.blind-solve-hidden": "{name}'s hidden cards must hold a COLOUR card (no deal of the "
                               "unseen cards fits otherwise): Blind Solve takes one",
    "cube.corner-twist-cross": "Corner Twist does not work on the CROSS",
    "cube.corner-twist-take": "Corner Twist takes one named COLOUR card from {name}'s {step} "
                              "({comma:on})",
    "cube.no-colour": "no colour",
    "cube.scramble-gives": "Scramble gives a COLOUR card; {card} is not one",
    "cube.scramble-also": "{name} also holds {card}: Scramble takes every COLOUR card",
    "cube.scramble-no-other": "{name} holds no other COLOUR card",
    "cube.scramble-hidden": "{name}'s hidden cards must hold another COLOUR card (no deal of the "
                            "unseen cards fits otherwise): Scramble takes every COLOUR card",
    # why a COLOUR card cannot go on a step (``Table.why_not_colour``)
    "cube.colour.no-step": "there is no {step} on the table",
    "cube.colour.skip-complete": "the {step} is complete with the skip card",
    "cube.colour.skip-alone": "the skip card goes alone on an empty {step}",
    "cube.colour.side-only": "the {step} takes red, orange, blue or green, not {colour}",
    "cube.colour.two-already": "the {step} already has two colours",
    "cube.colour.f2l-pair": "the F2L pairs one of red/orange with one of blue/green; it already "
                            "has {colour}",
    "cube.colour.oll-different": "the OLL takes two different colours; it already has {colour}",
    "cube.colour.white-yellow-only": "the {step} takes white or yellow, not {colour}",
    "cube.colour.has-its-colour": "the {step} already has its colour",
    "cube.colour.pll-before-cross": "the PLL takes the colour opposite the CROSS's, and the "
                                    "CROSS has no colour yet",
    "cube.colour.opposite": "the {step} must be opposite the {other} ({colour}): {opposite}",
    # --- the recorder's entry being built (``choices``) --------------------------------------
    "cube.pending.draw": "these cards cannot be drawn now",
    "cube.pending.no-turn": "no turn has begun: a card is played in a turn",
    "cube.pending.not-a-card": "the card played is not a card of this game",
})

_MARKS = dict(zip(FMC_MARKS, ("cube.mark.xcross", "cube.mark.f2l-1", "cube.mark.f2l-2",
                              "cube.mark.f2l-3", "cube.mark.oll", "cube.mark.t-perm")))
_COLOURS = {kind: msg(f"cube.colour.{kind.lower()}")
            for kind in ("WHITE", "YELLOW", "ORANGE", "GREEN", "RED", "BLUE", "SKIP")}
_HIDDEN = msg("cube.a-hidden-card")
NOTHING = msg("cube.nothing")


def mark(name: str) -> Msg:
    """An F.M.C. mark (``"1st F2L"``) in words (``1re F2L`` in French)."""
    return msg(_MARKS[name])


def colour(kind: str) -> Msg | str:
    """A colour kind (``"WHITE"``) in words: ``white`` (``blanc`` in French)."""
    found = _COLOURS.get(kind)
    return kind.lower() if found is None else found


def cards(items: Iterable[Any]) -> Any:
    """Cards a note names (``None`` is a hidden card): ``nothing``, ``a hidden card``,
    ``3 hidden cards``, or a list (``"RED-1, a hidden card and PB-2"``)."""
    items = list(items)
    if not items:
        return NOTHING
    if all(c is None for c in items):
        return _HIDDEN if len(items) == 1 else msg("cube.hidden-cards", count=len(items))
    return [_HIDDEN if c is None else c for c in items]


def names(items: Iterable[Any]) -> Any:
    """Card ids joined as a list, ``nothing`` when there are none."""
    items = list(items)
    return items if items else NOTHING

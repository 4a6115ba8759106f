"""slap's notes and rule messages in English, by message id (syntax: ``engine/messages.py``).

The French is in ``popreplay/i18n/fr/slap.po``; every id here must be there with the same fields.
"""

from __future__ import annotations

from ...messages import Msg, define, msg
from .cards import is_card

define({
    # --- words ---------------------------------------------------------------------------------
    "slap.card.red": "red {value}",
    "slap.card.blue": "blue {value}",
    "slap.card.green": "green {value}",
    "slap.card.yellow": "yellow {value}",
    "slap.card.rainbow": "rainbow {value}",
    "slap.card.shadow": "shadow {value}",
    "slap.cond.same-value": "same value",
    "slap.cond.three-of-a-colour": "three of one colour",
    "slap.cond.shadow-on-shadow": "shadow on shadow",
    "slap.cond.rainbow-on-shadow": "rainbow on shadow",
    "slap.cond.lone-rainbow": "a lone rainbow: everyone must slap",
    "slap.cond.shadow-trap": "the shadow trap: nobody slaps",
    # --- notes ---------------------------------------------------------------------------------
    "slap.note.deal": "The 102 cards are dealt ({detail}): {counts}. {first} flips first.",
    "slap.note.deal-all-known": "every card is known",
    "slap.note.deal-known": "{known} known {known|card|cards}",
    "slap.note.deal-unknown": "the cards are not known",
    "slap.note.flip": "{name} flips {card}{under}{found}{challenge}{last}",
    "slap.note.onto": " onto {card}",
    "slap.note.found": " — {semi:conditions}.",
    "slap.note.full-stop": ".",
    "slap.note.challenge-unanswerable": " A challenge of {size}, but nobody can answer it.",
    "slap.note.challenge": " Challenge: {name} must flip {size} {size|card|cards}.",
    "slap.note.challenge-card": " Challenge card: {left} left.",
    "slap.note.challenge-last": " Last challenge card, no 1–5: {setter} takes the pile unless a "
                                "slap comes first.",
    "slap.note.last-chance": " {name} has no cards left: a last chance at the next won slap.",
    "slap.note.on-folies": " the Folies pile",
    "slap.note.won": "{name} slaps{where} {what} and wins {parts}.{back}{out}",
    "slap.note.first": "first",
    "slap.note.missed": "a missed slap one card later",
    "slap.note.gain-central": "the central pile ({count} {count|card|cards})",
    "slap.note.gain-players": "one card from each other player ({count} {count|card|cards})",
    "slap.note.gain-folies": "the Folies pile ({count} {count|card|cards})",
    "slap.note.nothing": "nothing",
    "slap.note.back-in": " {name} is back in the game.",
    "slap.note.eliminated": " {out} {out|is|are} eliminated.",
    "slap.note.valid": "{name} slaps the rainbow in time.{interrupted}{out}",
    "slap.note.interrupted": " A valid slap: the challenge is over, nobody takes the central "
                             "pile; {flipper}'s next player flips next.",
    "slap.note.eliminated-last-chance": " {out} {out|is|are} eliminated (this was their last "
                                        "chance).",
    "slap.note.late": "{name} slaps{where} too late: the card is already won, no penalty.",
    "slap.note.wrong": "{name} slaps{where} {why} and pays {paid} {paid|card|cards} to the "
                       "Folies pile.",
    "slap.note.wrong-early": "before any card is flipped",
    "slap.note.wrong-pile": "on the wrong pile",
    "slap.note.wrong-trap": "on the shadow trap",
    "slap.note.wrong-nothing": "with no condition",
    "slap.note.challenge-won": "{setter} wins the challenge ({why}) and takes the central pile "
                               "({count} {count|card|cards}).{back}",
    "slap.note.challenge-nobody": "nobody could answer it",
    "slap.note.challenge-ran-out": "{name} ran out of cards",
    "slap.note.challenge-no-answer": "no card from 1 to 5 answered it",
    "slap.note.rainbow-all": "Everyone slapped the rainbow; {name} was last and pays {count} "
                             "{count|card|cards} to the Folies pile.",
    "slap.note.rainbow-missed": "Did not slap the rainbow: {semi:payments}.",
    "slap.note.rainbow-pays": "{name} pays {count} {count|card|cards}",
    "slap.note.stalled": "Nobody in the game holds a card any more: nobody can flip, the game "
                         "ends without a winner.",
    "slap.note.time-up": "Time is up: {counts}.",
    "slap.note.end-elimination": "Game over: {name} is the last player in the game and wins.",
    "slap.note.end-no-cards": "Game over: nobody holds a card, nobody wins.",
    "slap.note.end-cards": "Game over: {winners} {winners|wins|share the victory} with {count} "
                           "{count|card|cards}.",
    # --- rule messages ---------------------------------------------------------------------
    "slap.pile-twice": "{name}'s pile is given twice",
    "slap.deal-missing": "the deal does not give {name}'s pile",
    "slap.deal-negative": "{name} cannot be dealt {count} cards",
    "slap.deal-total": "the deal gives {count} cards; all {deck} are dealt",
    "slap.deal-uneven": "the cards are dealt one by one in player order, the first players "
                        "getting the extra cards: {comma:expected}, not {comma:counts}",
    "slap.unknown-card": "there is no card {repr:card}: cards are a colour (red, blue, green, "
                         "yellow, rainbow, shadow) and a value 0–16, like \"red-7\"",
    "slap.card-twice": "{card} appears twice: the deck has one of each card",
    "slap.after-end": "event {event} comes after the end of the game ({why})",
    "slap.after-end.time": "time is up",
    "slap.after-end.last-player": "one player is left",
    "slap.out-cannot-flip": "{name} is eliminated and cannot flip",
    "slap.out-cannot-slap": "{name} is eliminated and cannot slap",
    "slap.stalled": "nobody in the game holds a card any more: the game is over",
    "slap.nobody-can-flip": "{name} cannot flip: nobody in the game holds a card",
    "slap.no-cards-to-flip": "{name} has no cards to flip; it is {expected}'s turn",
    "slap.challenge-turn": "{expected} must flip {left} more {left|card|cards} for {setter}'s "
                           "challenge, not {name}",
    "slap.turn": "it is {expected}'s turn to flip, not {name}'s",
    "slap.top-known": "the top card of {name}'s pile is {top}, known from earlier in the log, "
                      "not {card}",
    "slap.top-won-together": "the top card of {name}'s pile is one of the cards won together: "
                             "{or:options}, not {card}",
    "slap.not-seen-yet": "a card not seen yet",
    "slap.cannot-be-on-pile": "{card} cannot be on {name}'s pile: no deal gives it there with "
                              "the cards the log has shown elsewhere (the deck has one of each "
                              "card)",
    "slap.time-not-timed": "only a timed game has an end of time",
})


def card(value: object) -> Msg | object:
    """A card for messages: the log's ``red-7`` as the message ``red 7`` (``Rouge 7`` in French),
    as the status line says it; a face-down place
    (``?12.1``) or anything else as it is."""
    if isinstance(value, str):
        word = _CARD_WORDS.get(value)
        if word is not None:
            return word
        if is_card(value):
            colour, _, number = value.rpartition("-")
            word = _CARD_WORDS[value] = msg(f"slap.card.{colour}", value=int(number))
            return word
    return value


_CARD_WORDS: dict[str, Msg] = {}  # a card's message, made once (102 cards; never changed)

"""Bloops' notes and rule messages in English, by message id (syntax: ``engine/messages.py``).

The French is in ``popreplay/i18n/fr/bloops.po``; every id here must be there with the same fields.
"""

from __future__ import annotations

from ...messages import Msg, define, msg
from .cards import DEAL

define({
    # --- words ---------------------------------------------------------------------------------
    "bloops.a": "a {value}",
    "bloops.an": "an {value}",
    "bloops.an-unseen": "an unseen card",
    "bloops.a-card": "a card",
    "bloops.none": "none",
    "bloops.set": "{name}'s set {number}",
    "bloops.effect.give": "give",
    "bloops.effect.look": "look",
    "bloops.effect.swap": "swap",
    "bloops.effect-words.give": "put the top card of the pile face down in front of an opponent",
    "bloops.effect-words.look": "look at one card",
    "bloops.effect-words.swap": "swap one of their cards with an opponent's, unseen",
    "bloops.what.place": "{name}'s {place}",
    # a place in a player's words: the two rows of three as dealt, then the cards added beside
    # them (a 6's card, a penalty card) in the order they came (``place()`` below)
    "bloops.place.1": "top-left card",
    "bloops.place.2": "top-middle card",
    "bloops.place.3": "top-right card",
    "bloops.place.4": "bottom-left card",
    "bloops.place.5": "bottom-middle card",
    "bloops.place.6": "bottom-right card",
    "bloops.place.extra": "extra card {n}",
    "bloops.what.drawn": "the card {name} drew",
    "bloops.what.in-place": "{name}'s {place}",
    "bloops.what.penalty": "{name}'s penalty card",
    "bloops.what.given": "the card given to {name}",
    # --- notes ---------------------------------------------------------------------------------
    "bloops.note.deal": "Six cards are dealt face down to each of {names}, in two rows of three; "
                        "each player looks at their bottom row once. {pile} cards form the "
                        "pile{known}",
    "bloops.note.deal-known": " ({known} dealt values are recorded).",
    "bloops.note.full-stop": ".",
    "bloops.note.draw": "Turn {turn}: {name} draws {card}{last}.",
    "bloops.note.last-turn": " (a last turn after the Bloops call)",
    "bloops.note.twenty": " The 20 is discarded: the game ends at once.",
    "bloops.note.effect": " Its effect: {name} will {effect}.",
    "bloops.note.discard": "{name} discards the {value} they drew.{tail}",
    "bloops.note.keep": "{name} keeps {kept} face down as their {place} and discards the {old} "
                        "that was there.{tail}",
    "bloops.note.kept-card": "the drawn card",
    "bloops.note.kept-value": "the drawn {value}",
    "bloops.note.counter": "{name} counter-discards the {value} that was their {place}.{tail}",
    "bloops.note.counter-wrong": "{name} counter-discards {card} (their {place}), but the "
                                 "discard shows {top}: the {value} goes back{rest}",
    "bloops.note.counter-no-penalty": "; the pile is empty, so there is no penalty card.",
    "bloops.note.counter-penalty": " and {name} draws a penalty card{seen} face down as their "
                                   "{place}.",
    "bloops.note.seen": " ({card})",
    "bloops.note.give": "{name}'s 6: the top card of the pile goes face down in front of "
                        "{other}, as their {place}{seen}.",
    "bloops.note.it-is": " (it is {card})",
    "bloops.note.look-own": "{name}'s {value}: {name} looks at their own {place}{seen}.",
    "bloops.note.look-other": "{name}'s {value}: {name} looks at {other}'s {place}{seen}.",
    "bloops.note.look-seen": ": it is {card}",
    "bloops.note.swap": "{name}'s 9: {name}'s {place} and {other}'s {other_place} "
                        "swap cards, unseen.",
    "bloops.note.effect-lost": "{name}'s {value} has no effect: {why}.",
    "bloops.lost.pile-empty": "the draw pile is empty",
    "bloops.lost.no-cards": "no card is in front of anyone",
    "bloops.lost.nothing-to-swap": "{name} has no card to swap",
    "bloops.lost.no-opponent-card": "no opponent has a card",
    "bloops.lost.holder": "{name} holds the Bloops card",
    "bloops.lost.holder-and-others": "{name} holds the Bloops card and no other opponent has a "
                                     "card",
    "bloops.set-holds": "which holds {values}",
    "bloops.set-empty": "which has no card left to show",
    "bloops.unseen-cards": "{count} unseen {count|card|cards}",
    "bloops.note.rearrange-unseen": "{name} rearranges their cards unseen: they are now known "
                                    "only as a set{detail}",
    "bloops.note.rearrange-set": " ({set}, {values}), until each is seen again.",
    "bloops.note.rearrange": "{name} rearranges their cards: {comma:moves}.",
    "bloops.note.move": "{new} ← {old}",
    "bloops.note.nothing-moves": "nothing moves",
    "bloops.note.bloops": "{name} calls Bloops and takes the Bloops card: every other player has "
                          "one more turn, and 9s cannot touch {name}'s cards.",
    "bloops.note.reveal": "Everyone reveals their cards.",
    "bloops.note.end": "Game over ({why}): {result}. Scores: {scores}.",
    "bloops.end.twenty": "the 20 was discarded",
    "bloops.end.bloops": "{name} called Bloops",
    "bloops.end.pile-empty": "the draw pile is empty",
    "bloops.end.unknown": "the winners are unknown, not every card is revealed",
    "bloops.end.shared": "{winners} share the victory {points}",
    "bloops.end.wins": "{name} wins {points}",
    "bloops.end.whatever": "whatever the unseen cards are",
    "bloops.end.points": "with {points} points",
    # --- remarks of the outcome (``outcome.notes``) --------------------------------------
    "bloops.remark.score-unknown": "{name}'s score is unknown: their {places} "
                                   "{places|is|are} not revealed.",
    "bloops.remark.not-over": "The game is not over: scores and winners are decided at the end.",
    "bloops.remark.winners-unknown": "The winners are unknown: not every card is revealed.",
    "bloops.remark.winners-certain": "The winners do not depend on the cards not revealed: "
                                     "{winners} {winners|wins|win} whatever they are.",
    # --- rule messages ---------------------------------------------------------------------
    "bloops.not-a-value": "{repr:key} is not a card value: values are 0 to 20",
    "bloops.deck-negative": "the deck cannot hold {count} cards of value {key}",
    "bloops.deck-total": "the deck declares {total} numbered cards; Bloops has {numbered}",
    "bloops.deck-twenty": "the deck has exactly one 20",
    "bloops.deal-missing": "the deal does not give {name}'s cards",
    "bloops.deal-size": "{name} is dealt {count} cards; each player is dealt {deal}",
    "bloops.unknown-card": "there is no card {value}: values are 0 to 20",
    "bloops.value-seen": "{what} is a {known}, as already seen, not a {value}",
    "bloops.value-not-in-set": "{what} cannot be a {value}: it is one of {set}, {values}",
    "bloops.value-all-seen": "{what} cannot be a {value}: the deck has only {limit} "
                             "{limit|card|cards} of value {value}, all already seen",
    "bloops.no-place": "{name} has no place {place} (places: {comma:places})",
    "bloops.after-twenty": "the 20 was discarded: the game is over",
    "bloops.after-last-turns": "every player has had their last turn after the Bloops call: the "
                               "game is over",
    "bloops.after-pile-empty": "the draw pile is empty: the game is over",
    "bloops.still-holds": "{name} still holds the card they drew: they must keep or discard it "
                          "first",
    "bloops.still-holds-bloops": "{name} still holds the card they drew: Bloops is called at the "
                                 "end of a turn",
    "bloops.turn-to-draw": "it is {expected}'s turn to draw, not {name}'s",
    "bloops.turn": "it is {expected}'s turn, not {name}'s",
    "bloops.no-drawn-card": "{name} holds no drawn card to keep or discard",
    "bloops.counter-closed": "{name} cannot counter-discard now: {why}",
    "bloops.counter-nothing-discarded": "nothing has been discarded yet",
    "bloops.counter-next-drew": "the next player has already drawn",
    "bloops.penalty-match": "the {value} matches the discard: there is no penalty card",
    "bloops.penalty-pile-empty": "the draw pile is empty: there is no penalty card",
    "bloops.missing-effect": "the effect of {name}'s {value} (event {event}) has not been carried "
                             "out",
    "bloops.no-effect-waiting": "no effect is waiting to be carried out ({kind})",
    "bloops.other-effect": "the next effect is {name}'s {value} ({effect}), not a {kind} by "
                           "{who}",
    "bloops.choose-opponent": "{name} must choose an opponent",
    "bloops.holder-protected": "{name} holds the Bloops card: 9s cannot touch their cards",
    "bloops.bad-order": "{name}'s new order must name each of their places once (places: "
                        "{comma:places})",
    "bloops.already-called": "{name} has already called Bloops",
    "bloops.cannot-call": "{name} cannot call Bloops: {whose}",
    "bloops.no-turn-yet": "no turn has been played yet",
    "bloops.turn-just-ended": "the turn that just ended is {name}'s",
    "bloops.reveal-too-early": "the cards are revealed only at the end of the game, and the game "
                               "is not over",
})


def a(value: int | None) -> Msg:
    """``"a 5"``, ``"an 8"``, ``"an unseen card"`` (in French ``"un 5"``, ``"une carte non
    vue"``)."""
    if value is None:
        return msg("bloops.an-unseen")
    return msg("bloops.an" if value in (8, 11, 18) else "bloops.a", value=value)


def place(number: int) -> Msg:
    """A place in a player's words: ``top-left card`` … ``bottom-right card`` for the six dealt
    places (top row 1–3, bottom row 4–6, left to right, as the replay draws them), then ``extra
    card 1``, ``extra card 2`` … for the places added beside the rows (places 7, 8 …)."""
    if 1 <= number <= DEAL:
        return msg(f"bloops.place.{number}")
    return msg("bloops.place.extra", n=number - DEAL)

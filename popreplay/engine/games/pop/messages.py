"""POP!'s notes and rule messages in English, by message id (syntax: ``engine/messages.py``).

The French is in ``popreplay/i18n/fr/pop.po``; every id here must be there with the same fields.
"""

from __future__ import annotations

from ...messages import define, msg

define({
    # --- words ---------------------------------------------------------------------------------
    "pop.chief": "the Multicolour Chief",
    "pop.mode.battle": "battle",
    "pop.mode.coop": "coop",
    "pop.mode.solo": "solo",
    "pop.mode.puzzle": "puzzle",
    "pop.level.beginner": "beginner",
    "pop.level.apprentice": "apprentice",
    "pop.level.skilled": "skilled",
    "pop.level.expert": "expert",
    "pop.level.legendary": "legendary",
    "pop.title.novice": "novice",
    "pop.title.mean": "mean",
    "pop.title.evil": "evil",
    "pop.title.renegade": "renegade",
    # --- notes ---------------------------------------------------------------------------------
    "pop.note.deal": "Round {round}: {cards} starting {cards|card|cards} in {rows} "
                     "{rows|row|rows}{hands}.",
    "pop.note.deal-hands": "; hands of {size} are dealt",
    "pop.note.draw": "{name} draws {cards}.",
    "pop.note.reveal-ascending": "Turn {turn}: {cards} are revealed — {arrows} "
                                 "{arrows|Arrow|Arrows}, placed in ascending order (A first).",
    "pop.note.reveal-descending": "Turn {turn}: {cards} are revealed — {arrows} "
                                  "{arrows|Arrow|Arrows}, placed in descending order (E first).",
    "pop.note.lands-under": "{who}'s {card} lands under {above} in queue {queue}",
    "pop.note.lands-head": "{who}'s {card} lands at the head of queue {queue}",
    "pop.note.place-nothing": "{lead}: nothing explodes.",
    "pop.note.place-chief": "{lead}: {count} cards explode and wait beside the Chief "
                            "({icons} icons).",
    "pop.note.place-collect": "{lead}: {count} cards explode, {who} collects {icons} icons.",
    "pop.note.wave-chief": "Wave {wave}: {cards} explode ({icons} icons) and wait beside the "
                           "Chief.",
    "pop.note.wave": "Wave {wave}: {cards} explode — {icons} icons to {who}.",
    "pop.note.wave-pile": "Wave {wave}: {cards} explode — {icons} icons to {who}. {who} also "
                          "takes the Chief's waiting pile: {taken} ({taken_icons} icons).",
    "pop.note.round-end": "Round {round} ends.",
    "pop.note.round-end-scores": "Round {round} ends: {scores}.",
    "pop.note.battle-end": "Game over: {winners} {winners|wins|win} with {points} points.{tie}",
    "pop.note.tie-kept-card": " The tie is broken by the card left in hand.",
    "pop.note.tie-shared": " The victory is shared.",
    "pop.note.tie-unknown": " Tied: the kept cards are not recorded, so the tie cannot be "
                            "broken.",
    "pop.note.coop-won": "The group wins: level {level}.",
    "pop.note.coop-lost": "The group loses: level {level}.",
    "pop.note.solo-won": "Solo won: title {title}.",
    "pop.note.solo-lost": "Solo lost: {count} cards are still in play.",
    "pop.note.puzzle-solved": "Puzzle solved.",
    "pop.note.puzzle-not-solved": "Puzzle not solved: {count} starting cards remain.",
    # --- where a card already is (duplicate-card, not-in-hand) ------------------------------
    "pop.where": "{places} (see {path})",
    "pop.where.then": "{before}, then {after}",
    "pop.where.layout": "it is in the starting layout, row {row}, queue {queue}",
    "pop.where.dealt": "it was dealt to {name}",
    "pop.where.played": "{name} played it in turn {turn}",
    "pop.where.drew": "{name} drew it in turn {turn}",
    "pop.where.keeps": "{name} keeps it",
    "pop.where.seen": "it was seen before",
    "pop.where.not-dealt": "it was not dealt to them",
    # --- rule messages ---------------------------------------------------------------------
    "pop.too-many-rounds": "{mode} has {rounds} {rounds|round|rounds}; the log has {count}",
    "pop.variant-not-battle-2": "the 2-player variant is only for a battle of 2 players",
    "pop.solo-difficulty": "solo needs a difficulty from 1 to 4",
    "pop.difficulty-not-solo": "difficulty only applies to solo, not to {mode}",
    "pop.missing-turns": "round {round} has {count} of its {required} turns, but round {next} "
                         "follows: {which} {missing|is|are} missing (or {gap} in between "
                         "{missing|was|were} not logged)",
    "pop.missing.turn": "turn {turn}",
    "pop.missing.turns": "turns {first}–{last}",
    "pop.missing.two": "turns {first} and {last}",
    "pop.missing.a-turn": "a turn",
    "pop.missing.n-turns": "{count} turns",
    "pop.unknown-card": "there is no card {card}: cards are numbered 1 to 50",
    "pop.duplicate-card": "card {card} is already in round {round}: {where}",
    "pop.layout-rows": "{mode} starts with {rows} full {rows|row|rows} of 5 cards; the layout "
                       "has {count}",
    "pop.layout-gap": "only a puzzle layout may have gaps (row {row}, queue {queue})",
    "pop.layout-floats": "card {card} floats above a gap in queue {queue}",
    "pop.layout-empty": "a puzzle layout needs at least one card",
    "pop.layout-touch": "cards {first} and {second} touch and share a colour",
    "pop.hand-missing": "the hands do not give {name}'s hand",
    "pop.hand-size": "{name}'s hand has {count} cards; {mode} deals {size}",
    "pop.hand-puzzle-size": "{name}'s hand has {count} cards; a puzzle hand holds at least "
                            "{size}",
    "pop.kept-not-battle": "kept cards are only recorded in battle",
    "pop.kept-too-early": "round {round} is not complete: no card is kept yet",
    "pop.kept-not-left": "{name} keeps {card}, but the hands leave {left}",
    "pop.kept-nothing": "nothing",
    "pop.kept-not-drawn": "{name} keeps {card}, but the one card left in their hand is "
                          "{drawn}, drawn and never played",
    "pop.after-end": "turn {turn} comes after the end of the game ({why})",
    "pop.after-end.lost": "the group already lost",
    "pop.after-end.won": "the game is won",
    "pop.too-many-turns": "a {mode} round has at most {limit} {limit|turn|turns}",
    "pop.draw-not-allowed": "{name} draws, but {why}",
    "pop.no-draws-mode": "this mode has no draws",
    "pop.no-draw-empty-area": "no draw: the play area is empty",
    "pop.no-draw-empty-pile": "no draw: the draw pile is empty",
    "pop.draw-missing": "{name}'s draw is missing: hands are tracked",
    "pop.draw-count": "{name} draws {count} {count|card|cards}; the rules say {size}",
    "pop.play-count": "each turn {name} plays {wanted} {wanted|card|cards}; turn {turn} logs "
                      "{count} for them",
    "pop.not-held": "{name} does not hold {card}: {where}",
    "pop.cannot-hold": "{name} cannot hold {card}: {why}",
    "pop.hand-all-played": "every card of their hand is played",
    "pop.hand-only-drawn": "every unseen card of their hand is played; what is left is what "
                           "they drew: {cards}",
    "pop.chief-count": "each turn the Multicolour Chief plays {wanted} {wanted|card|cards} "
                       "{why}; turn {turn} logs {count} for it",
    "pop.chief-count.variant": "in the 2-player variant",
    "pop.chief-count.players": "with {count} players",
    "pop.hand-twice": "{name} is given twice",
    # --- the recorder's entry being built (``choices``) --------------------------------------
    "pop.pending.whole": "the entry is already whole: no more cards",
    "pop.pending.no-gaps": "only a puzzle layout has gaps",
    "pop.pending.card": "card {card} cannot be {where} now",
    "pop.pending.rows": "rows: 1 to {most}",
    "pop.pending.no-round": "no round entry can come next",
    "pop.pending.no-turn": "no turn entry can come next",
    "pop.pending.no-kept": "no kept entry can come next",
    "pop.pending.entry": "entry is one of {comma:kinds}",
    "pop.slot.layout": "in the layout",
    "pop.slot.hand": "in {name}'s hand",
    "pop.slot.play": "played by {name}",
    "pop.slot.chief": "the Multicolour Chief's",
    "pop.slot.draw": "drawn by {name}",
    "pop.slot.kept": "kept by {name}",
})

CHIEF_NAME = msg("pop.chief")  # the Chief, as a player of a card

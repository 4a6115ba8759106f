"""POP!'s kit: its log shape, terminal table, page scripts, examples and French (``..kit``)."""

from ..lazytext import lazy_gettext as _l

from ..kit import Example, GameKit

KIT = GameKit(
    name="pop",
    title=_l("POP!"),
    mode_words=(("battle", _l("battle")), ("coop", _l("coop")), ("solo", _l("solo")),
                ("puzzle", _l("puzzle"))),  # the rulebook's names
    shape="logformat:PopLogSchema",
    renderer="render:pop_state",
    pending="logformat:PENDING",
    script="pop.js",
    record_script="pop.record.js",
    examples=(  # one per mode
        Example("battle", _l("A 3-player battle whose score sheet is wrong: the claims panel "
                             "shows where.")),
        Example("coop", _l("Four players, nine turns, no explosion: the group wins, level "
                           "legendary.")),
        Example("solo", _l("Difficulty 2, won on turn 6: the title “mean”.")),
        Example("puzzle", _l("The domino chain: one card sets off five waves and clears the "
                             "layout.")),
    ),
    table="table",
    place_word="words:place_word",
    claim_labels=(("level", _l("Level reached")), ("title", _l("Title earned"))),
    claim_choices=(
        (("result", "won"), _l("Yes, we won")), (("result", "lost"), _l("No, we lost")),
        (("level", "beginner"), _l("Beginner guardians")),
        (("level", "apprentice"), _l("Apprentice guardians")),
        (("level", "skilled"), _l("Skilled guardians")),
        (("level", "expert"), _l("Expert guardians")),
        (("level", "legendary"), _l("Legendary guardians")),
        (("title", "novice"), _l("Novice guardian")), (("title", "mean"), _l("Mean guardian")),
        (("title", "evil"), _l("Evil guardian")), (("title", "renegade"), _l("Renegade guardian")),
    ),
)

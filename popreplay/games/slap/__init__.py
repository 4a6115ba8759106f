"""slap's kit: its log shape, terminal table, page scripts, example and French (``..kit``)."""

from ..lazytext import lazy_gettext as _l

from ..kit import Example, GameKit

KIT = GameKit(
    name="slap",
    title=_l("Slap (Rainbow/Shadow)"),
    mode_words=(("elimination", _l("elimination")), ("timed", _l("timed"))),  # the rulebook's names
    shape="logformat:SlapLogSchema",
    renderer="render:slap_state",
    script="slap.js",
    record_script="slap.record.js",
    style="slap.css",
    table="table",
    examples=(Example("slap", _l("Three players slap until one holds every card.")),),
    claim_choices=(
        (("ended_by", "elimination"), _l("Only one player was left")),
        (("ended_by", "time"), _l("Time was up")),
        (("ended_by", "no-cards"), _l("Nobody held a card any more")),
    ),
)

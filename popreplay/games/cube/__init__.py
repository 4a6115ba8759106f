"""cube's kit: its log shape, terminal table, page scripts, example and French (``..kit``)."""

from ..lazytext import lazy_gettext as _l

from ..kit import Example, GameKit

KIT = GameKit(
    name="cube",
    title=_l("Cube (the cubing card game)"),
    mode_words=(("standard", _l("standard")),),  # the rulebook's names
    shape="logformat:CubeLogSchema",
    renderer="render:cube_state",
    pending="logformat:PENDING",
    bound="bound:past_limit",  # the events of all turns together
    script="cube.js",
    record_script="cube.record.js",
    style="cube.css",
    examples=(Example("cube", _l("Two players race to complete CROSS, F2L, OLL and PLL.")),),
    round_word="round (cube)",  # the glossary's "tour de table"
    table="table",
    claim_labels=(("won_by", _l("How was it won?")), ("completed", _l("Steps completed (0 to 4)"))),
    claim_choices=(
        (("won_by", "steps"), _l("Four complete steps")),
        (("won_by", "fmc"), _l("Showing the F.M.C.")),
    ),
)

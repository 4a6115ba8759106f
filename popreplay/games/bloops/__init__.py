"""Bloops' kit: its log shape, terminal table, page scripts, example and French (``..kit``)."""

from ..lazytext import lazy_gettext as _l

from ..kit import Example, GameKit

KIT = GameKit(
    name="bloops",
    title=_l("Bloops"),
    mode_words=(("classic", _l("classic")),),  # the rulebook's names
    shape="logformat:BloopsLogSchema",
    renderer="render:bloops_state",
    script="bloops.js",
    record_script="bloops.record.js",
    style="bloops.css",
    examples=(Example("bloops", _l("Three players, hidden cards, effects, and a Bloops call.")),),
    table="table",
    claim_labels=(("stars", _l("Stars held")), ("bloops", _l("Who called Bloops?"))),
    claim_choices=(
        (("ended_by", "twenty"), _l("The 20 was discarded")),
        (("ended_by", "bloops"), _l("Bloops was called and the last turns were played")),
        (("ended_by", "pile-empty"), _l("The draw pile ran out")),
    ),
)

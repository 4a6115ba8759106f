"""``msg(id, /, **params)``: the id is positional only and named so that no template has a
parameter of that name (issue 35: compiled by mypyc, ``msg("cube.needs", key="step")`` lost
``key``, which the positional parameter was also called, and said "needs None")."""

from __future__ import annotations

import inspect
import re

import popreplay.engine  # noqa: F401  (every game defines its English)
from popreplay.engine.messages import ENGLISH, msg

FIELD = re.compile(r"\{(?:[a-zà]+:)?([A-Za-z_][A-Za-z_0-9]*)")


def test_no_template_parameter_is_named_like_the_id():
    [name] = [p.name for p in inspect.signature(msg).parameters.values()
              if p.kind is inspect.Parameter.POSITIONAL_ONLY]
    fields = {field for text in ENGLISH.values() for field in FIELD.findall(text)}
    assert "key" in fields and "card" in fields  # the pattern reads the templates
    assert name not in fields


def test_a_parameter_named_key_is_kept():
    message = msg("cube.needs", card="a COLOUR card", key="step")
    assert message.params == {"card": "a COLOUR card", "key": "step"}
    assert str(message) == "a COLOUR card needs 'step'"


def test_a_nested_message_is_made_json_once_and_shared():
    """A message used as a parameter of others (slap's card names, "onto <card>") is turned into
    ``{"id", "params"}`` once and shared by every step that uses it (issue 35, the first fetch of a
    long replay); a copy or a pickle carries the message, not that shared form."""
    import copy
    import pickle

    from popreplay.engine.messages import english

    card = msg("slap.card.red", value=7)
    onto = msg("slap.note.onto", card=card)
    first = msg("slap.note.flip", name="Ana", card=card, under=onto, found="", challenge="",
                last="")
    again = msg("slap.note.flip", name="Bo", card=card, under="", found="", challenge="",
                last="")
    assert first.json_params()["card"] == {"id": "slap.card.red", "params": {"value": 7}}
    assert first.json_params()["under"] == {
        "id": "slap.note.onto", "params": {"card": {"id": "slap.card.red", "params": {"value": 7}}}}
    assert first.json_params()["card"] is again.json_params()["card"] is card.as_json()
    assert str(first) == "Ana flips red 7 onto red 7" == english(first.id, first.params)
    for twin in (copy.deepcopy(first), pickle.loads(pickle.dumps(first))):
        assert twin == first and twin.json_params() == first.json_params()
        assert twin.json_params()["card"] is not card.as_json()

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

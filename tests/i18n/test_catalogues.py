"""The catalogue check: every message id of the engine (POP!, cube, slap, Bloops, shared ones)
has English and French text with the same fields, and the French follows the glossary's
typography. This is the check CI runs (``tests/i18n``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from popreplay.checking import check_text
from popreplay.engine import GAMES, messages
from popreplay.i18n import catalogue, catalogue_paths, render
from popreplay.i18n.po import read_po

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FIELD = re.compile(r"\{([^{}]+)\}")
TRANSLATED = ("core.", "shape.", "json.", "pop.", "cube.", "slap.", "bloops.")


def fields(template: str) -> set[tuple[str, str]]:
    """``(kind, name)`` of every field: a value (any filter), or a plural choice."""
    out = set()
    for spec in FIELD.findall(template):
        if "|" in spec:
            name, *forms = spec.split("|")
            assert len(forms) == 2, f"{template!r}: a plural needs exactly two forms"
            out.add(("plural", name))
        else:
            out.add(("value", spec.rpartition(":")[2]))
    return out


def values(template: str) -> set[str]:
    return {name for kind, name in fields(template) if kind == "value"}


def test_every_game_defines_its_messages():
    assert GAMES  # imported: every game's English table is loaded
    english = messages.ENGLISH
    for prefix in TRANSLATED:
        assert any(key.startswith(prefix) for key in english), prefix
    assert len(english) > 250


@pytest.mark.parametrize("key", sorted(k for k in messages.ENGLISH if k.startswith(TRANSLATED)))
def test_every_message_has_french_with_the_same_fields(key):
    english, french = messages.ENGLISH[key], catalogue("fr").get(key)
    assert french, f"{key} has no French"
    assert values(french) == values(english), key
    # a plural choice may be added or dropped (French agrees verbs the English leaves alone),
    # but only on a field the English has
    english_names = {name for _, name in fields(english)}
    assert {name for _, name in fields(french)} <= english_names, key


def test_no_french_message_without_an_english_one():
    assert set(catalogue("fr")) <= set(messages.ENGLISH)


@pytest.mark.parametrize("path", catalogue_paths("fr"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_french_typography(path):
    """The glossary: no-break space before ':', narrow no-break space before ';', '!' and '?',
    « guillemets » with no-break spaces, typographic apostrophes not required."""
    for key, text in read_po(path.read_text("utf-8")).items():
        assert not re.search(r" [:;!?»]", text), (key, text)
        assert "« " not in text and '"' not in text.replace('\\"', ""), (key, text)
        assert not re.search(r"\w[:;!?]\s", text.replace("://", "")), (key, text)


def test_the_po_files_parse_and_skip_fuzzy_and_empty_entries():
    text = ('msgid ""\nmsgstr "Language: fr\\n"\n\n#, fuzzy\nmsgid "a"\nmsgstr "x"\n\n'
            'msgid "b"\nmsgstr ""\n\nmsgid "c"\nmsgstr "un \\"mot\\" "\n"sur deux lignes"\n')
    assert read_po(text) == {"c": 'un "mot" sur deux lignes'}


def golden_steps():
    for path in sorted(GOLDEN.glob("*/*.log.json")):
        yield pytest.param(path, id=f"{path.parent.name}/{path.name[:-9]}")


@pytest.mark.parametrize("path", list(golden_steps()))
def test_ids_and_params_alone_give_back_every_note_and_message(path):
    """What the JSON keeps (id + parameters) is enough: rendered again in English after a JSON
    round trip, every note and error message is the engine's text, byte for byte; and every one
    of them has an id (none left in English only)."""
    result = check_text(path.read_bytes(), with_steps=True)
    stored = json.loads(json.dumps(result, ensure_ascii=False))
    for step in stored["steps"]:
        assert step["note_id"] is not None, step["note"]
        assert render(step["note_id"], step["note_params"], "en") == step["note"]
        french = render(step["note_id"], step["note_params"], "fr")
        assert french and french != step["note"] and "{" not in french, step["note"]
    for error in result["errors"]:
        key, params = messages.ids(error["message"])
        assert key is not None, error["message"]
        assert render(key, json.loads(json.dumps(params)), "en") == error["message"]

"""The template syntax of ``popreplay/engine/messages.py`` in both languages: plurals, elision
and contraction, lists, nested messages; and language choice helpers."""

from __future__ import annotations

import pytest

from popreplay.engine.messages import EN, FR, Msg, elide, fill, msg
from popreplay.i18n import clean, render


def en(template: str, **params) -> str:
    return fill(template, params, EN, lambda key, p, fallback: render(key, p, "en", fallback))


def fr(template: str, **params) -> str:
    return fill(template, params, FR, lambda key, p, fallback: render(key, p, "fr", fallback))


@pytest.mark.parametrize("count, english, french", [
    (0, "0 cards explode", "0 carte explose"),
    (1, "1 card explodes", "1 carte explose"),
    (2, "2 cards explode", "2 cartes explosent"),
    (11, "11 cards explode", "11 cartes explosent"),
])
def test_plurals(count, english, french):
    assert en("{n} {n|card explodes|cards explode}", n=count) == english
    assert fr("{n} {n|carte explose|cartes explosent}", n=count) == french


def test_a_list_counts_by_its_length():
    assert fr("{c} {c|explose|explosent}", c=[7]) == "7 explose"
    assert fr("{c} {c|explose|explosent}", c=[7, 12]) == "7 et 12 explosent"
    assert en("{c}", c=[1, 2, 3]) == "1, 2 and 3"
    assert fr("{or:c}", c=["a", "b", "c"]) == "a, b ou c"
    assert fr("{comma:c}", c=[1, 2, 3]) == "1, 2, 3"
    assert fr("{semi:c}", c=["a", "b"]) == "a\u202f; b"
    assert en("{semi:c}", c=["a", "b"]) == "a; b"


@pytest.mark.parametrize("word, name, expected", [
    ("de", "Alice", "d'Alice"),
    ("de", "Bruno", "de Bruno"),
    ("de", "Ève", "d'Ève"),
    ("de", "Hugo", "d'Hugo"),  # mute h, as the glossary says
    ("de", "Yannick", "d'Yannick"),
    ("de", "le Chef Multicolore", "du Chef Multicolore"),
    ("de", "les joueurs", "des joueurs"),
    ("à", "le Chef Multicolore", "au Chef Multicolore"),
    ("à", "Alice", "à Alice"),
    ("que", "Ana", "qu'Ana"),
    ("le", "emplacement", "l'emplacement"),
    ("de", "Øystein", "de Øystein"),  # only vowels and h elide
])
def test_elision_and_contraction(word, name, expected):
    assert elide(word, name) == expected
    assert fr(f"{{{word}:x}}", x=name) == expected


def test_names_are_kept_as_given():
    assert fr("la main {de:name}", name="émile") == "la main d'émile"
    assert en("{repr:name} is given twice", name="Bob") == "'Bob' is given twice"
    assert en("{repr:card}", card=5) == "5"  # a value from the log, as Python shows it


def test_a_nested_message_is_rendered_in_the_same_language():
    chief = msg("pop.chief")
    assert isinstance(chief, Msg) and chief == "the Multicolour Chief"
    note = msg("pop.note.lands-head", who=chief, card=9, queue="A")
    assert note == "the Multicolour Chief's 9 lands at the head of queue A"
    assert render(note.id, note.json_params(), "fr") == "Le 9 du Chef Multicolore arrive en tête " \
        "de la file A"
    assert note.json_params() == {"who": {"id": "pop.chief", "params": {}}, "card": 9,
                                  "queue": "A"}


def test_one_card_explodes_in_french():
    lead = msg("pop.note.lands-under", who="Chloé", card=27, above=12, queue="C")
    note = msg("pop.note.place-collect", lead=lead, count=1, who="Chloé", icons=1)
    assert render(note.id, note.json_params(), "fr") == (
        "Le 27 de Chloé arrive sous le 12 dans la file C\u00a0: 1 carte explose, Chloé récupère "
        "1 symbole Explosion.")


def test_unknown_ids_fall_back():
    assert render("cube.some-note", {}, "fr", "Ana wins.") == "Ana wins."
    assert render(None, None, "fr", "plain text") == "plain text"


def test_msg_needs_an_english_template():
    with pytest.raises(KeyError):
        msg("pop.no-such-message")


def test_a_message_survives_pickling_and_copying():
    import copy
    import pickle

    note = msg("pop.note.draw", name="Ana", cards=[3, 5])
    for other in (pickle.loads(pickle.dumps(note)), copy.deepcopy(note)):
        assert other == note and other.id == note.id and other.params == note.params


@pytest.mark.parametrize("raw, lang", [("fr", "fr"), ("FR", "fr"), ("fr-CA", "fr"),
                                       ("fr_BE.UTF-8", "fr"), ("en-GB", "en"), ("de", "en"),
                                       ("", "en"), (None, "en"), ("C", "en"), ("POSIX", "en")])
def test_language_codes_are_en_or_fr(raw, lang):
    assert clean(raw) == lang

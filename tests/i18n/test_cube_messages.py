"""cube's words as message ids: the English is the engine's old text, the French the rulebook's
(colours "blanc", "jaune"…, marks "1re F2L", card ids and step names as printed)."""

from __future__ import annotations

import pytest

from popreplay.engine.games.cube.messages import cards, colour, mark
from popreplay.engine.games.cube.steps import Step, Table
from popreplay.engine.messages import Msg
from popreplay.i18n import render


def french(message: Msg) -> str:
    return render(message.id, message.json_params(), "fr")


def table(**steps: list[str]) -> Table:
    out = Table()
    for name, colours in steps.items():
        out.steps[name] = Step(f"{name}-1", list(colours))
    return out


@pytest.mark.parametrize("steps, step, card, english, in_french", [
    ({}, "OLL", "RED", "there is no OLL on the table",
     "il n'y a pas d'étape OLL sur la table"),
    ({"F2L": ["SKIP-1"]}, "F2L", "RED", "the F2L is complete with the skip card",
     "l'étape F2L est complète avec la carte Skip"),
    ({"OLL": ["RED-1"]}, "OLL", "SKIP", "the skip card goes alone on an empty OLL",
     "la carte Skip s'attribue seule à une étape OLL vide"),
    ({"F2L": []}, "F2L", "WHITE", "the F2L takes red, orange, blue or green, not white",
     "l'étape F2L prend rouge, orange, bleu ou vert, pas blanc"),
    ({"OLL": ["RED-1", "BLUE-1"]}, "OLL", "GREEN", "the OLL already has two colours",
     "l'étape OLL a déjà deux couleurs"),
    ({"F2L": ["ORANGE-1"]}, "F2L", "RED",
     "the F2L pairs one of red/orange with one of blue/green; it already has orange",
     "l'étape F2L associe rouge ou orange à bleu ou vert\u202f; elle a déjà orange"),
    ({"OLL": ["GREEN-1"]}, "OLL", "GREEN",
     "the OLL takes two different colours; it already has green",
     "l'étape OLL prend deux couleurs différentes, sans répétition\u202f; elle a déjà vert"),
    ({"CROSS": []}, "CROSS", "BLUE", "the CROSS takes white or yellow, not blue",
     "l'étape CROSS prend blanc ou jaune, pas bleu"),
    ({"CROSS": ["WHITE-1"]}, "CROSS", "YELLOW", "the CROSS already has its colour",
     "l'étape CROSS a déjà sa couleur"),
    ({"PLL": []}, "PLL", "WHITE",
     "the PLL takes the colour opposite the CROSS's, and the CROSS has no colour yet",
     "l'étape PLL prend la couleur opposée à celle de l'étape CROSS, qui n'a pas encore de "
     "couleur"),
    ({"CROSS": ["YELLOW-1"], "PLL": []}, "PLL", "YELLOW",
     "the PLL must be opposite the CROSS (yellow): white",
     "l'étape PLL doit être opposée à l'étape CROSS (jaune)\u00a0: blanc"),
])
def test_why_a_colour_cannot_go_on_a_step(steps, step, card, english, in_french):
    why = table(**steps).why_not_colour(step, card)
    assert why == english
    assert french(why) == in_french


def test_the_cards_of_a_note():
    assert cards([]) == "nothing" and french(cards([])) == "rien"
    assert cards([None]) == "a hidden card" and french(cards([None])) == "une carte cachée"
    assert cards([None, None]) == "2 hidden cards"
    assert french(cards([None, None, None])) == "3 cartes cachées"
    assert cards(["RED-1", None, "PB-2"]) == ["RED-1", "a hidden card", "PB-2"]
    assert render("cube.note.discard", {"name": "Ana", "cards": {
        "id": "cube.hidden-cards", "params": {"count": 2}}}, "fr") == (
        "Ana défausse 2 cartes cachées à droite de la pioche.")


def test_words_printed_on_the_cards_stay_and_ordinals_and_colours_are_french():
    assert [mark(m) for m in ("XCROSS", "1st F2L", "2nd F2L", "3rd F2L", "OLL", "T-PERM")] == [
        "XCROSS", "1st F2L", "2nd F2L", "3rd F2L", "OLL", "T-PERM"]
    assert [french(mark(m)) for m in ("XCROSS", "1st F2L", "2nd F2L", "T-PERM")] == [
        "XCROSS", "1re F2L", "2e F2L", "T-PERM"]
    assert [french(colour(c)) for c in ("WHITE", "YELLOW", "ORANGE", "GREEN", "RED", "BLUE")] \
        == ["blanc", "jaune", "orange", "vert", "rouge", "bleu"]


def test_a_step_completed_then_a_win_in_french():
    note = render("cube.note.and-win", {
        "note": {"id": "cube.note.colour", "params": {"name": "Ève", "card": "GREEN-2",
                                                      "step": "OLL"}},
        "win": {"id": "cube.note.win-steps", "params": {"name": "Ève"}}}, "fr")
    assert note == ("Ève attribue GREEN-2 à l'étape OLL. Ève gagne avec quatre étapes "
                    "complètes\u202f!")
    assert render("cube.note.one-hand", {"name": "Ana", "cards": ["RED-1"], "target": "Ève"},
                  "fr") == "Ana joue One Hand et vole RED-1 dans la main d'Ève."

"""``popreplay validate``/``replay`` in French: ``--lang``, else ``LC_ALL``/``LC_MESSAGES``/``LANG``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from popreplay.checking import check_text
from popreplay.cli import main
from popreplay.i18n import from_environment

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "pop"
ILLEGAL = GOLDEN / "violation-not-in-hand.log.json"
CHIEF = GOLDEN / "chief-pile-taken.log.json"
FRENCH_MESSAGE = ("Alice n'a pas le 33 en main\u00a0: elle a été distribuée à Bruno, puis Bruno "
                  "l'a jouée au tour 1 (voir /rounds/0/turns/0/plays/Bruno/0)")


@pytest.mark.parametrize("environ, lang", [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "fr_BE.UTF-8"}, "fr"),
    ({"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, "en"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    ({"LC_ALL": "", "LANG": "fr_FR.UTF-8"}, "fr"),  # set but empty: not counted
    ({"LANG": "de_DE.UTF-8"}, "en"),
])
def test_the_language_comes_from_the_environment(environ, lang):
    assert from_environment(environ) == lang


def test_validate_json_in_french_keeps_the_spec_shape():
    result = CliRunner().invoke(main, ["validate", "--json", "--lang", "fr", str(ILLEGAL)])
    assert result.exit_code == 1
    body = json.loads(result.output)
    [error] = body["errors"]
    assert list(error) == ["code", "message", "round", "turn", "path"]
    assert error["message"] == FRENCH_MESSAGE
    english = check_text(ILLEGAL.read_bytes())["errors"][0]
    assert {**error, "message": english["message"]} == english


def test_lang_environment_variable_and_the_flag_wins():
    french = CliRunner().invoke(main, ["validate", str(ILLEGAL)], env={"LANG": "fr_FR.UTF-8"})
    assert "FICHIER" in french.output and "irrégulière" in french.output
    assert FRENCH_MESSAGE in french.output
    english = CliRunner().invoke(main, ["validate", "--lang", "en", str(ILLEGAL)],
                                 env={"LANG": "fr_FR.UTF-8"})
    assert "FILE" in english.output and "Alice does not hold 33" in english.output


def test_replay_in_french_with_lc_all_in_a_real_process():
    proc = subprocess.run([sys.executable, "-m", "popreplay", "replay", "--no-color", str(CHIEF)],
                          capture_output=True, text=True,
                          env={"LC_ALL": "fr_FR.UTF-8", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "[0] deal manche 1: Manche 1\u00a0: 5 cartes Pop de départ sur 1 ligne" in out
    assert ("Bruno récupère aussi les cartes en attente du Chef Multicolore\u00a0: 20 et 25 "
            "(3 symboles Explosion).") in out
    assert out.rstrip().endswith("inachevée — totaux Alice 0, Bruno 7, Chloé 4")


def test_replay_json_in_french_keeps_ids():
    result = CliRunner().invoke(main, ["replay", "--json", "--lang", "fr", str(ILLEGAL)])
    body = json.loads(result.output)
    last = body["steps"][-1]
    assert last["note"] == f"Coup irrégulier\u00a0: {FRENCH_MESSAGE}."
    assert last["note_id"] == "core.illegal"
    assert last["note_params"]["message"]["id"] == "pop.not-held"
    assert list(body["errors"][0]) == ["code", "message", "round", "turn", "path"]


@pytest.mark.parametrize("game, case, step, lines", [
    ("slap", "challenge-chained", 5, [
        "    pile centrale (5)\u00a0: Rouge 3 Vert 15 Bleu 5 Jaune 8 Rouge 14 ← dessus",
        "    pile Folies\u00a0: 0 carte",
        "    défi\u00a0: Chloé doit encore 3 sur 5 cartes à Bruno"]),
    ("bloops", "counter-right-effects-in-order", 4, [
        "    pioche 51   défausse 7 7   contre-défausse sur 7",
        "    effets en attente\u00a0: le 7 de Ben (consulter une carte)"]),
])
def test_the_boards_of_slap_and_bloops_in_french(game, case, step, lines):
    path = GOLDEN.parent / game / f"{case}.log.json"
    result = CliRunner().invoke(main, ["replay", "--no-color", "--lang", "fr", "--step",
                                       str(step), str(path)])
    out = result.output.splitlines()
    for line in lines:
        assert line in out, (line, out)


def test_the_cube_board_in_french():
    """cube's board in the rulebook's words (card ids and step names stay as printed)."""
    path = GOLDEN.parent / "cube" / "dnf-then-pop.log.json"
    result = CliRunner().invoke(main, ["replay", "--no-color", "--lang", "fr", "--step", "13",
                                       str(path)])
    out = result.output.splitlines()
    for line in [
        "[13] play tour de table 1 tour 2: Bruno protège l'étape F2L avec PB-1 (Personal Best).",
        "    ▶ Bruno  CROSS\u00a0: YELLOW-1 [WR-1] ✓  F2L\u00a0: aucune couleur [PB-1]  "
        "OLL\u00a0: aucune couleur  PLL\u00a0: —",
        "             main (0)\u00a0: vide",
        "    pioche 26   défausse de gauche 2 (dessus POP-1)   défausse de droite 1 (dessus PB-2)",
    ]:
        assert line in out, (line, out)
    english = CliRunner().invoke(main, ["replay", "--no-color", "--lang", "en", "--step", "13",
                                        str(path)]).output.splitlines()
    assert "    pile 26   left discard 2 (top POP-1)   right discard 1 (top PB-2)" in english
    assert any(line.startswith("[13] play round 1 turn 2:") for line in english)

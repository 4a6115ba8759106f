"""Notes and rule messages of golden replays in French, against hand-written expectations: at
least five notes per game (plurals, the Chief's waiting pile, a challenge, a counter-discard) and
a violation for each (cube: a GAME card with its target, a completed step, a win, hidden cards)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from popreplay.checking import check_text
from popreplay.i18n import localize

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def fr(text: str) -> str:
    """French typography written plainly in the expectations: ' :' is a no-break space and a
    colon, ' ;' and ' !' a narrow no-break space and the sign, « » with no-break spaces inside."""
    return (text.replace(" :", "\u00a0:").replace(" ;", "\u202f;").replace(" !", "\u202f!")
            .replace("« ", "«\u00a0").replace(" »", "\u00a0»"))


def french(game: str, case: str) -> dict:
    result = check_text((GOLDEN / game / f"{case}.log.json").read_bytes(), with_steps=True)
    return localize(result, "fr")


def notes(game: str, case: str) -> list[str]:
    return [step["note"] for step in french(game, case)["steps"]]


EXPECTED = {
    ("pop", "battle-2p-complete-single-winner"): [
        "Manche 1 : 5 cartes Pop de départ sur 1 ligne ; mains de 9 cartes distribuées.",
        "Tour 1 : les cartes 11, 29, 35, 36 et 48 sont révélées — 1 symbole Flèche, placement "
        "de gauche à droite dans l'ordre croissant (file A d'abord).",
        "Le 11 d'Ana arrive sous le 1 dans la file A : 2 cartes explosent, Ana récupère 4 "
        "symboles Explosion.",
        "Vague 1 : 1 et 11 explosent — 4 symboles Explosion pour Ana.",
        "Le 29 du Chef Multicolore arrive sous le 15 dans la file B : rien n'explose.",
        "Le 35 de Ben arrive sous le 4 dans la file C : rien n'explose.",
        "Le 9 du Chef Multicolore arrive en tête de la file A : rien n'explose.",
        "Fin de la manche 3 : Ana 0, Ben 0.",
        "Fin de la partie : Ben gagne avec 0 point.",
    ],
    ("pop", "chief-pile-taken"): [
        "Le 20 du Chef Multicolore arrive sous le 25 dans la file D : 2 cartes explosent et "
        "attendent à côté du Chef Multicolore (3 symboles Explosion).",
        "Vague 1 : 20 et 25 explosent (3 symboles Explosion) et attendent à côté du Chef "
        "Multicolore.",
        "Vague 1 : 38 et 48 explosent — 4 symboles Explosion pour Bruno. Bruno récupère aussi "
        "les cartes en attente du Chef Multicolore : 20 et 25 (3 symboles Explosion).",
    ],
    ("pop", "battle-2p-variant-complete"): [
        "Ana pioche le 35.",
        "Fin de la partie : Ana et Ben gagnent avec 0 point. La victoire est partagée.",
    ],
    ("pop", "solo-difficulty-4-lost"): [
        "Manche 1 : 20 cartes Pop de départ sur 4 lignes ; mains de 10 cartes distribuées.",
        "Solo pioche les cartes 2, 8, 16, 47 et 50.",
        "Solo perdu : 50 cartes sont encore en jeu.",
    ],
    ("pop", "coop-3p-won-legendary"): ["Le groupe gagne : niveau « gardiens légendaires »."],
    ("pop", "puzzle-chain-three-waves"): [
        "Manche 1 : 8 cartes Pop de départ sur 3 lignes ; mains de 6 cartes distribuées.",
        "Vague 3 : 8 et 33 explosent — 3 symboles Explosion pour Solo.",
        "Énigme non résolue : il reste 5 cartes Pop de départ.",
    ],
    ("slap", "challenge-chained"): [
        "Les 102 cartes sont distribuées (les cartes ne sont pas connues) : Alice 26, Bruno 26, "
        "Chloé 25, Dmitri 25. Alice retourne la première carte.",
        "Alice retourne Rouge 3. Défi : Bruno doit retourner 3 cartes.",
        "Bruno retourne Vert 15 sur Rouge 3. Carte de défi : encore 2.",
        "Chloé remporte le défi (aucune carte de 1 à 5 ne l'a relevé) et prend la pile centrale "
        "(8 cartes).",
    ],
    ("slap", "known-deal-counts"): [
        "Les 102 cartes sont distribuées (2 cartes connues) : Alice 51, Bruno 51. Alice retourne "
        "la première carte.",
        "Bruno retourne Vert 1 sur Rouge 7. Défi : Alice doit retourner 1 carte.",
    ],
    ("slap", "lone-rainbow-interrupts-challenge"): [
        "Bruno retourne Rainbow 9 sur Rouge 2 — une Rainbow seule : tout le monde doit taper. "
        "Carte de défi : encore 1.",
        "Chloé tape la Rainbow à temps. Tape valide : le défi s'arrête, personne ne remporte la "
        "pile centrale ; le joueur qui suit Bruno retourne la prochaine carte.",
        "Tout le monde a tapé la Rainbow ; Bruno était le dernier et paie 2 cartes à la pile "
        "Folies.",
    ],
    ("slap", "lone-rainbow-one-missed"): ["N'ont pas tapé la Rainbow : Chloé paie 2 cartes."],
    ("slap", "shadow-on-shadow"): [
        "Bruno retourne Shadow 3 sur Shadow 12 — Shadow sur Shadow. Défi : Chloé doit retourner "
        "3 cartes.",
        "Chloé tape en premier et remporte une carte de chaque autre joueur (2 cartes).",
    ],
    ("slap", "wrong-pile"): [
        "Alice tape sur la mauvaise pile et paie 2 cartes à la pile Folies.",
        "Bruno tape sur la pile Folies en premier et remporte la pile Folies (2 cartes).",
    ],
    ("slap", "missed-slap-claimed"): [
        "Bruno tape avec une carte de retard (tape oubliée) et remporte la pile centrale "
        "(3 cartes).",
    ],
    ("slap", "timed-tie-shared"): [
        "Fin de la partie : Alice et Bruno se partagent la victoire avec 50 cartes.",
    ],
    ("bloops", "counter-right-effects-in-order"): [
        "Six cartes sont distribuées face cachée à chaque joueur (Ana et Ben), en deux lignes de "
        "trois ; chacun regarde une fois sa ligne du bas. La pioche compte 52 cartes (12 valeurs "
        "distribuées sont notées).",
        "Tour 1 : Ana pioche un 7.",
        "Ben contre-défausse le 7 de l'emplacement en haut à gauche. Son effet : Ben va consulter une carte.",
        "Le 7 d'Ana : Ana consulte l'emplacement en haut au milieu de Ben : c'est un 6.",
        "Fin de la partie (le 20 a été défaussé) : Ana gagne avec 23 points. Points : Ana 23, "
        "Ben 27.",
    ],
    ("bloops", "counter-wrong-penalty"): [
        "Ben contre-défausse un 6 de l'emplacement en haut au milieu, mais la défausse montre un 4 : mauvaise "
        "contre-défausse, le 6 reprend sa place et Ben pioche une carte de pénalité (un 15), "
        "face cachée, à l'emplacement en plus n° 1.",
    ],
    ("bloops", "holder-own-nine-swaps"): [
        "Ana annonce « Bloops » et prend la carte Bloops : chaque autre joueur joue un dernier "
        "tour, et les 9 ne peuvent pas toucher les cartes d'Ana.",
        "Le 9 de Ben n'a pas d'effet (effet perdu) : Ana a la carte Bloops.",
        "Le 9 d'Ana : l'emplacement en haut au milieu d'Ana et l'emplacement en haut à droite de Ben échangent leurs cartes, "
        "sans les regarder.",
    ],
    ("bloops", "rearrange-unseen-set"): [
        "Ana change la disposition de ses cartes sans les montrer : on ne les connaît plus que "
        "comme un ensemble (l'ensemble 1 d'Ana, qui contient un 0, un 2, un 5 et 3 cartes non "
        "vues), jusqu'à ce que chacune soit revue.",
        "Ana conserve la carte piochée face cachée à l'emplacement en haut au milieu et défausse le 4 qui s'y "
        "trouvait.",
    ],
    ("bloops", "effect-6-give"): [
        "Le 6 d'Ana : la première carte de la pioche va face cachée devant Ben, à l'emplacement "
        "en plus n° 1 (c'est un 13).",
    ],
    ("cube", "win-by-steps"): [
        "Tour 3 : Ana a 0 carte en main et pioche jusqu'à en avoir 5 : PLL-2, GREEN-2, YELLOW-2, "
        "PB-2 et DNF-1.",
        "Ana attribue YELLOW-2 à l'étape PLL.",
        "Bruno protège l'étape OLL avec PB-1 (Personal Best).",
        # the colour that completes the fourth step, and the win it brings
        "Ana attribue GREEN-2 à l'étape OLL. Ana gagne avec quatre étapes complètes !",
        "Fin de la partie : Ana gagne avec quatre étapes complètes au tour 3.",
    ],
    ("cube", "hidden-cards"): [
        "Tour 1 : Ana a 5 cartes en main et en pioche 2 : 2 cartes cachées.",
        "Bruno joue One Hand et vole une carte cachée dans la main d'Ana.",
    ],
    ("cube", "dnf-then-pop"): [
        "Bruno joue DNF-1 : le Personal Best de l'étape F2L d'Ana est défaussé.",
        "Bruno joue Pop : l'étape F2L d'Ana fait POP et ses couleurs retournent dans la main "
        "d'Ana.",
    ],
    ("cube", "three-players"): [
        "Ana joue One Hand et vole GREEN-3 dans la main de Chloé.",
        "Bruno pose CROSS-2 sur la table ; CROSS-3 est une carte CUBE en double d'une étape déjà "
        "posée et part à droite de la pioche.",
    ],
    ("cube", "win-by-fmc"): [
        "40 cartes : 2 joueurs en reçoivent 5 chacun, 30 restent dans la pioche ; le paquet "
        "indique quelles cartes portent les marques du F.M.C.",
        "Ana montre le F.M.C. : WR-1 (XCROSS), PB-2 (1re F2L), PB-3 (2e F2L), DNF-2 (3e F2L), "
        "ONE-HAND-1 (OLL), SCRAMBLE-1 (T-PERM). Ana gagne avec le F.M.C. !",
    ],
    ("cube", "spent-anyway"): [
        "Bruno joue Blind Solve contre Ana et ne vole rien (Ana n'a pas de carte COULEUR).",
        "Bruno joue Scramble, mais Ana n'a pas de carte COULEUR : la carte est quand même "
        "défaussée.",
    ],
    ("bloops", "twenty-from-a-place"): [
        "Ben conserve le 0 pioché face cachée à l'emplacement en haut au milieu et défausse le 20 qui s'y "
        "trouvait. Le 20 est défaussé : la partie s'achève aussitôt.",
    ],
    ("bloops", "winner-certain-with-unseen-card"): [
        "Fin de la partie (le 20 a été défaussé) : Ben gagne quelles que soient les cartes non "
        "vues. Points : Ana 30, Ben ?.",
    ],
}


@pytest.mark.parametrize("game, case", sorted(EXPECTED), ids=lambda v: v)
def test_french_notes_of_golden_replays(game, case):
    got = notes(game, case)
    for expected in EXPECTED[(game, case)]:
        assert fr(expected) in got, (expected, got)


def test_at_least_five_hand_checked_notes_per_game():
    for game in ("pop", "cube", "slap", "bloops"):
        assert sum(len(v) for (g, _), v in EXPECTED.items() if g == game) >= 5


VIOLATIONS = [
    ("pop", "violation-not-in-hand", "not-in-hand",
     "Alice n'a pas le 33 en main : elle a été distribuée à Bruno, puis Bruno l'a jouée au tour "
     "1 (voir /rounds/0/turns/0/plays/Bruno/0)"),
    ("pop", "violation-missing-turns", "missing-turns",
     "la manche 1 a 2 de ses 8 tours, mais la manche 2 suit : les tours 3 à 8 manquent (ou 6 "
     "tours entre les deux n'ont pas été notés)"),
    ("pop", "violation-wrong-play-count-chief-missing", "wrong-play-count",
     "à chaque tour, le Chef Multicolore joue 2 cartes à 3 joueurs ; le tour 1 lui en note 0"),
    ("pop", "violation-bad-option-difficulty-in-battle", "bad-option",
     "la difficulté ne s'applique qu'au mode solo, pas au mode compétitif"),
    ("pop", "violation-bad-player-count-nfc-duplicate", "bad-player-count",
     "le nom « Chloé » est donné deux fois"),
    ("slap", "violation-out-of-turn-challenge", "out-of-turn",
     "Bruno doit retourner encore 1 carte pour le défi d'Alice, pas Alice"),
    ("slap", "violation-out-of-turn", "out-of-turn",
     "c'est à Alice de retourner une carte, pas à Bruno"),
    ("slap", "violation-won-set-never-seen", "wrong-card",
     "la carte du dessus du tas d'Alice est l'une des cartes remportées ensemble : Bleu 10, "
     "Vert 9, Rouge 3 ou Jaune 11, pas Vert 8"),
    ("cube", "bad-colour-f2l", "bad-colour",
     "ORANGE-1 ne peut pas être attribuée à l'étape F2L d'Ana : l'étape F2L associe rouge ou "
     "orange à bleu ou vert ; elle a déjà rouge"),
    ("cube", "bad-colour-pll", "bad-colour",
     "WHITE-2 ne peut pas être attribuée à l'étape PLL d'Ana : l'étape PLL doit être opposée à "
     "l'étape CROSS (blanc) : jaune"),
    ("cube", "bad-fmc-order", "bad-fmc",
     "la carte 1 du F.M.C. doit porter la marque « XCROSS » ; PB-2 porte la marque « 1re F2L »"),
    ("cube", "fmc-marked-told-apart", "duplicate-card",
     "PB ne peut pas être piochée : elle est indisponible, car tous les exemplaires de PB sont "
     "placés (PB-1 dans la main de Bruno, PB-4 dans la main de Bruno, PB-5 dans la main de "
     "Bruno)"),
    ("cube", "not-in-hand", "not-in-hand",
     "Ana n'a pas YELLOW-1 en main : la main est connue (WHITE-1, RED-1, BLUE-1, ORANGE-1) et ne "
     "contient aucune carte YELLOW"),
    ("cube", "wrong-player", "wrong-player", "le tour 1 est celui d'Ana, pas celui de Bruno"),
    ("bloops", "counter-closed", "counter-closed",
     "Ana ne peut pas contre-défausser maintenant : le joueur suivant a déjà pioché"),
    ("bloops", "rearrange-unseen-impossible", "wrong-value",
     "la carte en haut à droite d'Ana ne peut pas être un 9 : c'est une carte de l'ensemble 1 "
     "d'Ana, qui contient un 0, un 1, un 1, un 1, un 2 et un 5"),
    ("bloops", "unknown-place", "unknown-place",
     "Ana n'a pas d'emplacement 7 (emplacements : 1, 2, 3, 4, 5, 6)"),
]


@pytest.mark.parametrize("game, case, code, message", VIOLATIONS, ids=[v[1] for v in VIOLATIONS])
def test_violations_in_french(game, case, code, message):
    result = french(game, case)
    [error] = result["errors"]
    assert error["code"] == code  # codes never change with the language
    assert error["message"] == fr(message)
    assert error["message_id"] and isinstance(error["params"], dict)
    last = result["steps"][-1]
    assert last["kind"] == "violation"
    assert last["note"] == fr(f"Coup irrégulier : {message}.")
    assert last["data"]["error"]["message"] == fr(message)


def test_a_stored_replay_localizes_like_a_fresh_one():
    """JSON keeps what ``localize`` needs: a replay read back from storage gives the same French
    (its error entries take their ids from the violation step)."""
    raw = (GOLDEN / "pop" / "violation-not-in-hand.log.json").read_bytes()
    fresh = check_text(raw, with_steps=True)
    stored = json.loads(json.dumps(fresh, ensure_ascii=False))
    assert "message_id" not in stored["errors"][0]  # the result object keeps the spec's shape
    assert localize(stored, "fr") == json.loads(json.dumps(localize(fresh, "fr")))
    assert stored == json.loads(json.dumps(fresh, ensure_ascii=False))  # not changed in place


def test_english_is_the_engine_text_with_ids_added():
    raw = (GOLDEN / "slap" / "violation-out-of-turn.log.json").read_bytes()
    result = check_text(raw, with_steps=True)
    english = localize(result, "en")
    assert [s["note"] for s in english["steps"]] == [s["note"] for s in result["steps"]]
    [error] = english["errors"]
    assert error["message"] == "it is Alice's turn to flip, not Bruno's"
    assert (error["message_id"], error["params"]) == ("slap.turn",
                                                      {"expected": "Alice", "name": "Bruno"})


def test_cube_english_is_unchanged_and_french_has_ids():
    """cube's notes keep their English byte for byte (the golden results check the messages) and
    every one of them, and every error, has an id rendered in French."""
    path = GOLDEN / "cube" / "bad-take-blind-solve.log.json"
    result = check_text(path.read_bytes(), with_steps=True)
    english = localize(result, "en")
    assert [s["note"] for s in english["steps"]] == [s["note"] for s in result["steps"]]
    [error] = english["errors"]
    assert error["message"] == "Ana holds RED-1: Blind Solve takes a COLOUR card"
    assert (error["message_id"], error["params"]) == ("cube.blind-solve-held",
                                                      {"name": "Ana", "card": "RED-1"})
    localized = localize(result, "fr")
    assert all(s["note_id"] for s in localized["steps"])
    assert localized["errors"][0]["message"] == fr(
        "Ana a RED-1 en main : Blind Solve vole une carte COULEUR")


def test_bloops_outcome_remarks_in_french():
    result = french("bloops", "winner-certain-with-unseen-card")
    assert result["outcome"]["notes"] == [
        fr("Le score de Ben est inconnu : l'emplacement en bas à droite n'est pas révélé."),
        fr("Les gagnants ne dépendent pas des cartes non révélées : Ben gagne quelles qu'elles "
           "soient."),
    ]
    english = check_text((GOLDEN / "bloops" / "winner-certain-with-unseen-card.log.json")
                         .read_bytes())
    assert english["outcome"]["notes"][0] == "Ben's score is unknown: their bottom-right card is not revealed."

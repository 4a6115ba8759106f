"""POST /record/check in the reader's words (issue 24): Bloops' outcome remarks in French, and
each error with its ``words`` (1-based round and turn, the player by name, no pointer)."""

from __future__ import annotations

from typing import Any

from popreplay.engine import GAMES


def check(client: Any, log: dict[str, Any], lang: str) -> dict[str, Any]:
    answer = client.post("/api/v1/record/check", json={"log": log, "steps": "tail"},
                         headers={"Accept-Language": lang})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_bloops_outcome_remarks_follow_accept_language(client: Any) -> None:
    log = GAMES["bloops"].simulate(mode="classic", players=3, seed=4)
    log.pop("claimed", None)
    log["events"] = log["events"][:6]
    log.pop("reveal", None)
    english = check(client, log, "en")["result"]["outcome"]["notes"]
    french = check(client, log, "fr")["result"]["outcome"]["notes"]
    assert english and french and english != french
    assert "The game is not over" in " ".join(english)
    assert not any("The game" in n for n in french)


def test_a_refused_draft_says_where_in_words(client: Any) -> None:
    log = GAMES["pop"].simulate(mode="battle", players=3, seed=3)
    log.pop("claimed", None)
    bruno = log["players"][1]
    log["rounds"][1]["turns"][2]["plays"][bruno] = [log["rounds"][1]["layout"][0][0]]
    for lang, start in (("en", f"Round 2, turn 3 — {bruno}: "),
                        ("fr", f"Manche 2, tour 3 — {bruno}\u00a0: ")):
        answer = check(client, log, lang)
        for error in (answer["result"]["errors"][0], answer["choices"]["error"]):
            assert error["words"]["line"].startswith(start), error["words"]
            assert "/rounds/" not in error["words"]["line"]
            assert error["path"] == f"/rounds/1/turns/2/plays/{bruno}/0"

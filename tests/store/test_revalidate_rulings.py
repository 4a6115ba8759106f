"""``popreplay revalidate`` reports the stored games whose results the issue 14 rulings change.

Games stored by the engine before the rulings carry its results (written back into the records
here, as they were computed then); revalidating lists exactly those games, stores the new results,
and drops their stored replays (computed by the old rules under the same engine version).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

from sqlalchemy import func, select

from popreplay.checking import check_text
from popreplay.db.models import GameRecord, StoredReplay
from popreplay.db.session import make_engine
from tests.databases import upgraded

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "pop"
KEPT_DRAWN = "battle-2p-variant-no-hands-kept-drawn-last-turn"
TIE = "battle-5p-tie-fifth-kept-card-is-certain"
UNCHANGED = "battle-5p-complete-tie-unknown"


def before_the_rulings(name):
    """The result the engine gave before the rulings (checked by running it then)."""
    result = check_text((GOLDEN / f"{name}.log.json").read_bytes())
    if name == KEPT_DRAWN:  # the drawn card followed to kept counted as seen twice
        result.update(status="illegal", legal=False, outcome=None, errors=[{
            "code": "duplicate-card", "message": "card 7 is already in play in round 1",
            "round": 1, "turn": None, "path": "/rounds/0/kept/Alice"}])
    if name == TIE:  # a tie with an unknown kept card was always "unknown"
        outcome = copy.deepcopy(result["outcome"])
        outcome["rounds"][2]["kept"]["Dmitri"] = None
        outcome.update(winners=["Alice", "Bruno", "Chloé", "Dmitri", "Eun-ji"],
                       tie_break="unknown")
        result["outcome"] = outcome
    return result


def test_revalidate_reports_the_games_the_rulings_change(runner, db_url, tmp_path):
    upgraded(db_url)
    logs = tmp_path / "logs"
    logs.mkdir()
    for name in (KEPT_DRAWN, TIE, UNCHANGED):
        shutil.copy(GOLDEN / f"{name}.log.json", logs / f"{name}.json")
    assert runner.invoke(["import", str(logs)]).exit_code == 0
    engine = make_engine(db_url, pooled=False)
    with engine.begin() as connection:
        rows = connection.execute(select(GameRecord.id, GameRecord.slug, GameRecord.title)
                                  ).all()
        ids = {}
        for game_id, slug, title in rows:
            name = next(n for n in (KEPT_DRAWN, TIE, UNCHANGED)
                        if json.loads((GOLDEN / f"{n}.log.json").read_text())
                        .get("meta", {}).get("title") == title)
            ids[name] = (game_id, slug)
            old = before_the_rulings(name)
            connection.execute(GameRecord.__table__.update().where(GameRecord.id == game_id)
                               .values(status=old["status"], legal=old["legal"],
                                       errors=old["errors"], outcome=old["outcome"]))
            connection.execute(StoredReplay.__table__.insert().values(
                game_id=game_id, engine_version=old["engine"], body=b"old replay", step_count=1))
    dry = runner.invoke(["revalidate", "--dry-run"])
    assert dry.exit_code == 0
    assert sorted(dry.stdout.splitlines()) == sorted([
        f"{ids[KEPT_DRAWN][0]} {ids[KEPT_DRAWN][1]}: status illegal -> incomplete; "
        "legal False -> True; errors differs; outcome differs",
        f"{ids[TIE][0]} {ids[TIE][1]}: outcome differs",
    ])
    assert "3 games checked, 2 would change" in dry.stderr
    done = runner.invoke(["revalidate", "--json"])
    changed = {line["id"]: line for line in map(json.loads, done.stdout.splitlines())}
    assert set(changed) == {ids[KEPT_DRAWN][0], ids[TIE][0]}
    after = changed[ids[TIE][0]]["after"]["outcome"]
    assert (after["winners"], after["tie_break"]) == (["Dmitri"], "kept-card")
    assert changed[ids[KEPT_DRAWN][0]]["after"] == check_text(
        (GOLDEN / f"{KEPT_DRAWN}.log.json").read_bytes())
    with engine.connect() as connection:  # the old replays of the changed games are gone
        kept = connection.execute(select(StoredReplay.game_id)).scalars().all()
        assert kept == [ids[UNCHANGED][0]]
        assert connection.scalar(select(func.count()).select_from(GameRecord)
                                 .where(GameRecord.status == "illegal")) == 0
    engine.dispose()
    assert runner.invoke(["revalidate"]).stdout == ""  # stored: nothing changes any more

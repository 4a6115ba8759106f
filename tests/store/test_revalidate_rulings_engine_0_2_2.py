"""``popreplay revalidate`` reports the stored games whose results the issue 26 rulings change
(engine 0.2.2): slaps after a claimed missed slap are late, a won set's last card is certain, an
F.M.C. show may follow the surplus discard, a shown card not held is `not-in-hand`, and a Bloops set
that joins a new unseen rearrangement keeps the values its places showed.

Each game is stored with the result engine 0.2.1 gave (computed by running it, written back into
the record here); revalidating lists exactly the changed games, stores the new results and drops
the stored replays of 0.2.1.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

from sqlalchemy import select

from popreplay.checking import check_text
from popreplay.db.models import GameRecord, StoredReplay
from popreplay.db.session import make_engine
from tests.databases import upgraded

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LATE = "slap/late-slaps-after-claim"
LAST = "slap/violation-won-set-last-card"
SHOW = "cube/fmc-after-surplus-discard"
NOT_HELD = "cube/fmc-show-not-held"
SEED = "bloops/simulated-seed-3097"
UNCHANGED = "slap/same-value-late-slap"
CASES = (LATE, LAST, SHOW, NOT_HELD, SEED, UNCHANGED)


def _illegal(result, code, message, round_, turn, path):
    result.update(status="illegal", legal=False, outcome=None, claims=None, errors=[
        {"code": code, "message": message, "round": round_, "turn": turn, "path": path}])


def before_the_rulings(name):
    """The result engine 0.2.1 gave (checked by running it)."""
    result = check_text((GOLDEN / f"{name}.log.json").read_bytes())
    result["engine"] = "0.2.1"
    if name == LATE:  # the three late slaps were fined 2 each
        outcome = copy.deepcopy(result["outcome"])
        outcome.update(cards={"Alice": 31, "Bruno": 33, "Chloé": 31}, folies_pile=6)
        result["outcome"] = outcome
    elif name == LAST:
        _illegal(result, "duplicate-card", "green 9 appears twice: the deck has one of each card",
                 2, 3, "/events/30/card")
    elif name == SHOW:
        _illegal(result, "bad-discard", "the surplus is discarded at the end of the turn: the "
                 "discard is the turn's last event", 3, 5, "/turns/4/events/0/discard")
    elif name == NOT_HELD:
        _illegal(result, "bad-fmc", "card 6 of the F.M.C. must carry the mark 'T-PERM'; "
                 "YELLOW-1 carries no F.M.C. mark", 1, 1, "/turns/0/events/0/show/5")
    elif name == SEED:
        _illegal(result, "duplicate-card", "the card in Chloé's place 3 cannot be a 6: the deck "
                 "has only 3 cards of value 6, all already seen", None, None, "/reveal/Chloé/3")
    return result


def test_revalidate_reports_the_games_the_issue_26_rulings_change(runner, db_url, tmp_path):
    upgraded(db_url)
    logs = tmp_path / "logs"
    logs.mkdir()
    titles = {}
    for name in CASES:
        shutil.copy(GOLDEN / f"{name}.log.json", logs / f"{name.replace('/', '-')}.json")
        titles[json.loads((GOLDEN / f"{name}.log.json").read_text("utf-8"))["meta"]["title"]] = name
    assert len(titles) == len(CASES)
    assert runner.invoke(["import", str(logs)]).exit_code == 0
    engine = make_engine(db_url, pooled=False)
    ids = {}
    with engine.begin() as connection:
        for game_id, slug, title in connection.execute(
                select(GameRecord.id, GameRecord.slug, GameRecord.title)).all():
            name = titles[title]
            ids[name] = (game_id, slug)
            old = before_the_rulings(name)
            connection.execute(GameRecord.__table__.update().where(GameRecord.id == game_id)
                               .values(status=old["status"], legal=old["legal"],
                                       errors=old["errors"], outcome=old["outcome"],
                                       claims=old["claims"]))
            connection.execute(StoredReplay.__table__.insert().values(
                game_id=game_id, engine_version=old["engine"], body=b"old replay", step_count=1))
    dry = runner.invoke(["revalidate", "--dry-run"])
    assert dry.exit_code == 0, dry.output

    def line(name, change):
        return f"{ids[name][0]} {ids[name][1]}: {change}"

    assert sorted(dry.stdout.splitlines()) == sorted([
        line(LATE, "outcome differs"),
        line(LAST, "errors differs"),
        line(SHOW, "status illegal -> complete; legal False -> True; errors differs; "
                   "outcome differs; claims differs"),
        line(NOT_HELD, "errors differs"),
        line(SEED, "status illegal -> complete; legal False -> True; errors differs; "
                   "outcome differs; claims differs"),
    ])
    assert "6 games checked, 5 would change; 6 stored replays of other engine versions to drop" \
        in dry.stderr
    done = runner.invoke(["revalidate", "--json"])
    changed = {entry["id"]: entry for entry in map(json.loads, done.stdout.splitlines())}
    assert set(changed) == {ids[name][0] for name in CASES if name != UNCHANGED}
    assert changed[ids[LAST][0]]["after"]["errors"][0]["code"] == "wrong-card"
    assert changed[ids[NOT_HELD][0]]["after"]["errors"][0]["code"] == "not-in-hand"
    assert changed[ids[LATE][0]]["after"]["outcome"]["cards"] == {
        "Alice": 33, "Bruno": 35, "Chloé": 33}
    for name in (SHOW, SEED):
        assert changed[ids[name][0]]["after"] == check_text(
            (GOLDEN / f"{name}.log.json").read_bytes())
    with engine.connect() as connection:  # every replay of 0.2.1 is gone: none is served again
        assert connection.execute(select(StoredReplay.game_id)).scalars().all() == []
    engine.dispose()
    assert runner.invoke(["revalidate"]).stdout == ""  # stored: nothing changes any more

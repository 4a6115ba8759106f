"""A correction that changes a game's players (a name renamed, added or dropped in the corrected
log of a group's game) maps that game's seats again — a name it had keeps its member, a new one
is mapped by its folded name when that is unambiguous, else asked, never guessed — and the
ratings are recomputed from that game on: the ones before it do not change, the ones after it
do, to the last digit of ``openskill`` called directly. The members' kept summaries follow."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from popreplay.db.groups import GroupSeat, MemberSummary, Rating
from popreplay.db.session import get_session
from popreplay.groups import games, members, ratings, stats
from popreplay.store.edits import update_log
from tests.conftest import simulated
from tests.groups import sql_stats
from tests.groups.helpers import battle, club
from tests.groups.helpers import NAMES
from tests.groups.test_api import bearer
from tests.groups.test_ratings import independent, stored


def renamed(raw: bytes, names: dict[str, str]) -> bytes:
    """The log ``raw`` with its players renamed (everywhere the log names them)."""
    text = raw.decode("utf-8")
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return text.encode("utf-8")


def seats(session, record) -> list[tuple[str, int | None]]:
    return [(s.name, s.member_id) for s in session.scalars(
        select(GroupSeat).where(GroupSeat.game_id == record.id).order_by(GroupSeat.position))]


def expected(records, logs, ids) -> dict[tuple[int, int], tuple[float, float]]:
    """``openskill`` called directly on ``logs`` (None: a game not rated) in the same order."""
    rated = [(r, log) for r, log in zip(records, logs) if log is not None]
    direct = independent([log for _, log in rated], ids)
    return {(rated[k][0].id, member): value for (k, member), value in direct.items()}


def same_summaries(session, group) -> None:
    """Every member's kept summary is what the seats say now (computed in SQL, one query each)."""
    for member in members.members(session, group):
        assert stats.member_stats(session, group, member) == \
            sql_stats.member_stats(session, group, member), member.name
        assert stats.head_to_head(session, group, member) == \
            sql_stats.head_to_head(session, group, member), member.name
        assert stats.streaks(session, group, member) == \
            sql_stats.streaks(session, group, member), member.name
        rated = stats.histories(session, group, member, limit=3)  # one query, every board
        assert rated == {board: stats.history(session, group, member, board, limit=3)
                         for board in stats.boards(session, group)
                         if stats.history(session, group, member, board)}


def test_a_renamed_player_is_mapped_again_and_the_ratings_follow_from_that_game_on(app):
    with app.app_context():
        made, ids, records = club(count=10)
        session, group = get_session(), made.group
        ratings.recompute(session, group)
        before = stored(session, group)
        logs = [json.loads(r.log) for r in records]
        third = records[2]  # Alice, Bruno, Chloé and Dmitri on May 3
        assert seats(session, third) == [("Alice", ids["Alice"]), ("Bruno", ids["Bruno"]),
                                         ("Chloé", ids["Chloé"]), ("Dmitri", ids["Dmitri"])]

        # corrected: Bruno was Eun-ji (a member's name: mapped), Dmitri was "Zoé" (asked)
        update_log(session, third, raw=renamed(third.log, {"Bruno": "Eun-ji", "Dmitri": "Zoé"}))
        assert seats(session, third) == [("Alice", ids["Alice"]), ("Eun-ji", ids["Eun-ji"]),
                                         ("Chloé", ids["Chloé"]), ("Zoé", None)]
        assert third.id in {g.id for g in games.awaiting_names(session, group)}
        assert group.stale_from is not None
        ratings.recompute(session, group)
        after = stored(session, group)
        early = {r.id for r in records[:2]}
        assert {k: v for k, v in after.items() if k[0] in early} == \
            {k: v for k, v in before.items() if k[0] in early}
        assert not any(game == third.id for game, _ in after)  # a seat to ask: not rated yet
        assert after == expected(records, logs[:2] + [None] + logs[3:], ids)
        later = {game for game, _ in after if game not in early}
        assert {k for k in later if any(after[(k, m)] != before.get((k, m))
                                        for g, m in after if g == k)} == later
        same_summaries(session, group)

        # asked and answered: Zoé is Dmitri (remembered as his name); rated from that game on
        games.map_names(session, group, third, {"Zoé": ids["Dmitri"]})
        ratings.recompute(session, group)
        final = stored(session, group)
        corrected = json.loads(third.log)
        assert corrected["players"] == ["Alice", "Eun-ji", "Chloé", "Zoé"]
        assert final == expected(records, logs[:2] + [corrected] + logs[3:],
                                 {**ids, "Zoé": ids["Dmitri"]})
        assert {k: v for k, v in final.items() if k[0] in early} == \
            {k: v for k, v in before.items() if k[0] in early}
        assert {m for g, m in final if g == third.id} == {
            ids["Alice"], ids["Eun-ji"], ids["Chloé"], ids["Dmitri"]}
        assert final != before
        same_summaries(session, group)


def test_a_player_added_or_dropped_changes_the_seats_and_the_summaries(app):
    with app.app_context():
        made, ids, records = club(count=8)
        session, group = get_session(), made.group
        ratings.recompute(session, group)
        first, last = records[0], records[-1]  # 2 players on May 1; 5 players on May 8

        # the first game had a third player: Chloé, mapped by her name
        update_log(session, first, raw=battle(500, 3, 1))
        assert seats(session, first) == [("Alice", ids["Alice"]), ("Bruno", ids["Bruno"]),
                                         ("Chloé", ids["Chloé"])]
        # the last game had two players only: Dmitri and Eun-ji's seats go, their summaries too
        update_log(session, last, raw=battle(501, 2, 8))
        assert seats(session, last) == [("Alice", ids["Alice"]), ("Bruno", ids["Bruno"])]
        ratings.recompute(session, group)
        logs = [json.loads(r.log) for r in records]
        assert stored(session, group) == expected(records, logs, ids)
        assert {m for g, m in stored(session, group) if g == last.id} == {ids["Alice"],
                                                                          ids["Bruno"]}
        same_summaries(session, group)
        eun_ji = session.get(MemberSummary, ids["Eun-ji"])
        assert eun_ji is not None and eun_ji.last_at < last.played_at


def test_a_name_said_once_is_kept_and_an_ambiguous_one_is_asked(app):
    with app.app_context():
        made, ids, records = club(count=4)
        session, group = get_session(), made.group
        second = records[1]  # Alice, Bruno, Chloé on May 2
        update_log(session, second, raw=renamed(second.log, {"Chloé": "Chlo"}))
        assert seats(session, second)[2] == ("Chlo", None)  # not Chloé until someone says so
        games.map_names(session, group, second, {"Chlo": ids["Chloé"]}, remember=False)
        # corrected again, Bruno renamed: "Chlo" keeps the member it was said to be
        update_log(session, second, raw=renamed(second.log, {"Bruno": "Dmitri"}))
        assert seats(session, second) == [("Alice", ids["Alice"]), ("Dmitri", ids["Dmitri"]),
                                          ("Chlo", ids["Chloé"])]
        # two names of one member at one game: both asked, not guessed
        update_log(session, second, raw=renamed(second.log, {"Dmitri": "Chloé"}))
        assert seats(session, second) == [("Alice", ids["Alice"]), ("Chloé", None),
                                          ("Chlo", None)]
        # two seats whose names fold alike: both asked
        update_log(session, second, raw=renamed(second.log, {"Chloé": "CHLOÉ", "Chlo": "chloe"}))
        assert seats(session, second) == [("Alice", ids["Alice"]), ("CHLOÉ", None),
                                          ("chloe", None)]
        ratings.recompute(session, group)
        assert not session.scalars(select(Rating).where(Rating.game_id == second.id)).all()


@pytest.fixture
def api_club(client):
    """A group of the five simulated players made through the API: slug, answer, members' ids."""
    made = client.post("/api/v1/groups", json={"name": "Club", "members": NAMES}).get_json()
    slug = made["group"]["slug"]
    listed = client.get(f"/api/v1/groups/{slug}/members",
                        headers=bearer(made["admin_token"])).get_json()["members"]
    return slug, made, {m["name"]: m["id"] for m in listed}


def test_a_correction_through_the_api_asks_the_new_name_and_rates_the_game_once_answered(
        client, api_club):
    slug, made, ids = api_club
    admin = bearer(made["admin_token"])
    log = simulated("battle", 3, 21, meta={"played_at": "2026-05-01T20:00:00Z"})
    stored_game = client.post("/api/v1/games", json=log).get_json()
    ref, owner = stored_game["slug"], stored_game["owner_token"]
    assert client.post(f"/api/v1/groups/{slug}/games", headers=admin,
                       json={"game": ref, "owner_token": owner}).status_code == 201
    assert client.post(f"/api/v1/groups/{slug}/games", headers=admin, json={"log": simulated(
        "battle", 2, 22, meta={"played_at": "2026-05-02T20:00:00Z"})}).status_code == 201
    games_of = {s["member"]: s["games"] for board in client.get(
        f"/api/v1/groups/{slug}/leaderboards", headers=admin).get_json()["boards"]
        for s in board["standings"]}
    assert games_of == {ids["Alice"]: 2, ids["Bruno"]: 2, ids["Chloé"]: 1}

    corrected = json.loads(renamed(json.dumps(log, ensure_ascii=False).encode("utf-8"),
                                   {"Chloé": "Zoé"}))
    answer = client.put(f"/api/v1/record/games/{ref}", headers=bearer(owner),
                        json={"log": corrected})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["players"] == ["Alice", "Bruno", "Zoé"], answer.get_json()
    [row] = [g for g in client.get(f"/api/v1/groups/{slug}/games?order=played",
                                   headers=admin).get_json()["items"] if g["slug"] == ref]
    assert [(s["name"], s["member"]) for s in row["seats"]] == [
        ("Alice", ids["Alice"]), ("Bruno", ids["Bruno"]), ("Zoé", None)]
    boards = client.get(f"/api/v1/groups/{slug}/leaderboards", headers=admin).get_json()
    games_of = {s["member"]: s["games"] for board in boards["boards"]
                for s in board["standings"]}
    assert games_of == {ids["Alice"]: 1, ids["Bruno"]: 1}  # the corrected game waits
    stats_of = client.get(f"/api/v1/groups/{slug}/members/{ids['Chloé']}/stats",
                          headers=admin).get_json()
    assert stats_of["stats"] == [] and stats_of["head_to_head"] == []

    answered = client.put(f"/api/v1/groups/{slug}/games/{ref}/names", headers=admin,
                          json={"names": {"Zoé": ids["Eun-ji"]}})
    assert answered.status_code == 200 and answered.get_json()["unmapped"] == []
    boards = client.get(f"/api/v1/groups/{slug}/leaderboards", headers=admin).get_json()
    games_of = {s["member"]: s["games"] for board in boards["boards"]
                for s in board["standings"]}
    assert games_of == {ids["Alice"]: 2, ids["Bruno"]: 2, ids["Eun-ji"]: 1}

"""Ratings: OpenSkill (Plackett–Luce) in played order, the same floats as the package called
directly; a correction of an early game changes the ratings after it, and only those."""

from __future__ import annotations

from openskill.models import PlackettLuce
from sqlalchemy import select

from popreplay.db.groups import MemberRating, Rating
from popreplay.db.session import get_session
from popreplay.engine import get_game
from popreplay.groups import ratings
from popreplay.store.edits import update_log
from tests.groups.helpers import battle, club


def independent(logs: list[dict], ids: dict[str, int]) -> dict[tuple[int, int], tuple[float, float]]:
    """``openskill`` called directly on the games in the order given: (game index, member) ->
    (mu, sigma) after that game."""
    model = PlackettLuce()
    now: dict[int, object] = {}
    after = {}
    for k, log in enumerate(logs):
        outcome = get_game("pop").replay(log).outcome
        players = log["players"]
        ranks = [1 + sum((o not in outcome["winners"], outcome["totals"][o]) <
                         (p not in outcome["winners"], outcome["totals"][p]) for o in players)
                 for p in players]
        teams = [[now.get(ids[p]) or model.rating()] for p in players]
        for p, [rating] in zip(players, model.rate(teams, ranks=ranks)):
            now[ids[p]] = rating
            after[(k, ids[p])] = (rating.mu, rating.sigma)
    return after


def stored(session, group) -> dict[tuple[int, int], tuple[float, float]]:
    rows = session.execute(select(Rating.game_id, Rating.member_id, Rating.mu, Rating.sigma)
                           .where(Rating.group_id == group.id)).all()
    return {(game, member): (mu, sigma) for game, member, mu, sigma in rows}


def test_ratings_equal_openskill_called_directly_to_the_last_digit(app):
    import json

    with app.app_context():
        made, ids, records = club(count=20)
        session = get_session()
        assert made.group.stale_from is not None
        assert ratings.recompute(session, made.group) == 20
        logs = [json.loads(r.log) for r in records]
        expected = independent(logs, ids)
        got = stored(session, made.group)
        assert got == {(records[k].id, m): v for (k, m), v in expected.items()}
        board = {row.member_id: (row.mu, row.sigma, row.games) for row in session.scalars(
            select(MemberRating).where(MemberRating.group_id == made.group.id))}
        for name, member in ids.items():
            last = max(k for k, m in expected if m == member)
            assert board[member][:2] == expected[(last, member)], name
        assert made.group.stale_from is None


def test_a_correction_of_an_early_game_changes_the_ratings_after_it_and_only_those(app):
    with app.app_context():
        made, ids, records = club(count=12)
        session = get_session()
        ratings.recompute(session, made.group)
        before = stored(session, made.group)
        third = records[2]
        # the third game corrected: another game of the same players on the same day
        update_log(session, third, raw=battle(999, len(third.players), 3))
        assert made.group.stale_from is not None
        ratings.recompute(session, made.group)
        after = stored(session, made.group)
        early = {r.id for r in records[:2]}
        assert {k: v for k, v in after.items() if k[0] in early} == \
            {k: v for k, v in before.items() if k[0] in early}
        changed = {k[0] for k in after if after[k] != before.get(k)}
        assert third.id in changed
        assert changed <= {r.id for r in records[2:]}
        assert len(changed) > 1  # the change followed the players into later games


def test_cooperative_and_undecided_games_are_not_rated():
    assert ratings.ranks_of([(None, True), (None, True), (None, True)], lower_wins=True) is None
    assert ratings.ranks_of([(3, None), (5, None)], lower_wins=True) is None
    assert ratings.ranks_of([(3, True)], lower_wins=True) is None
    assert ratings.ranks_of([(10, False), (3, True), (10, False)], lower_wins=True) == [2, 1, 2]
    assert ratings.ranks_of([(10, False), (3, True), (12, False)], lower_wins=False) == [3, 1, 2]

"""The statistics of a member computed in SQL, one query each, straight from the seats (what the
member's page computed on each read before the summaries were kept): an independent computation
that the kept summaries (``groups.summaries``) are compared with."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session, aliased

from popreplay.db.groups import Group, GroupGame, GroupSeat, Member
from popreplay.db.models import GamePlayer
from popreplay.engine import GAMES


def member_stats(session: Session, group: Group, member: Member) -> list[dict[str, Any]]:
    """Per game and mode: games, complete games, wins, win rate, average and best score."""
    complete = GroupGame.status.in_(("complete", "sheet"))
    scored = and_(complete, GamePlayer.score.is_not(None))
    query = (select(GroupGame.game, GroupGame.mode, func.count(),
                    func.sum(case((complete, 1), else_=0)),
                    func.sum(case((and_(complete, GamePlayer.won.is_(True)), 1), else_=0)),
                    func.avg(case((scored, GamePlayer.score))),
                    func.min(case((scored, GamePlayer.score))),
                    func.max(case((scored, GamePlayer.score))))
             .select_from(GroupSeat)
             .join(GroupGame, GroupGame.game_id == GroupSeat.game_id)
             .join(GamePlayer, and_(GamePlayer.game_id == GroupSeat.game_id,
                                    GamePlayer.position == GroupSeat.position))
             .where(GroupGame.group_id == group.id, GroupSeat.member_id == member.id)
             .group_by(GroupGame.game, GroupGame.mode).order_by(GroupGame.game, GroupGame.mode))
    out = []
    for game, mode, games, completed, wins, average, low, high in session.execute(query):
        lower = getattr(GAMES.get(game), "lower_score_wins", True)
        completed, wins = int(completed or 0), int(wins or 0)
        out.append({"game": game, "mode": mode, "games": games, "complete": completed,
                    "wins": wins, "win_rate": round(wins / completed, 4) if completed else None,
                    "average": None if average is None else round(float(average), 2),
                    "best": low if lower else high})
    return out


def head_to_head(session: Session, group: Group, member: Member) -> list[dict[str, Any]]:
    """Against each other member: games played together (complete ones, score sheets too), and
    how often this member finished ahead, behind or level (winners first, then by score)."""
    mine, theirs = aliased(GroupSeat), aliased(GroupSeat)
    me_p, them_p = aliased(GamePlayer), aliased(GamePlayer)
    lower = [name for name, game in GAMES.items() if getattr(game, "lower_score_wins", True)]
    flip = case((GroupGame.game.in_(lower), 1), else_=-1)
    mine_score = func.coalesce(me_p.score, 0) * flip
    their_score = func.coalesce(them_p.score, 0) * flip
    mine_won, their_won = func.coalesce(me_p.won, False), func.coalesce(them_p.won, False)
    ahead = or_(and_(mine_won, ~their_won), and_(mine_won == their_won, mine_score < their_score))
    behind = or_(and_(~mine_won, their_won),
                 and_(mine_won == their_won, mine_score > their_score))
    query = (select(theirs.member_id, Member.name, func.count(),
                    func.sum(case((ahead, 1), else_=0)), func.sum(case((behind, 1), else_=0)))
             .select_from(mine)
             .join(GroupGame, GroupGame.game_id == mine.game_id)
             .join(theirs, and_(theirs.game_id == mine.game_id,
                                theirs.position != mine.position))
             .join(Member, Member.id == theirs.member_id)
             .join(me_p, and_(me_p.game_id == mine.game_id, me_p.position == mine.position))
             .join(them_p, and_(them_p.game_id == mine.game_id,
                                them_p.position == theirs.position))
             .where(GroupGame.group_id == group.id, mine.member_id == member.id,
                    GroupGame.status.in_(("complete", "sheet")))
             .group_by(theirs.member_id, Member.name))
    table = [{"member": other, "name": name, "games": games, "ahead": int(up or 0),
              "behind": int(down or 0), "level": games - int(up or 0) - int(down or 0)}
             for other, name, games, up, down in session.execute(query)]
    return sorted(table, key=lambda r: (-r["games"], r["name"].casefold()))


def streaks(session: Session, group: Group, member: Member) -> dict[str, Any]:
    """The current run of wins (or of games without one) and the longest run of wins, over
    the member's complete games in played order."""
    query = (select(GamePlayer.won)
             .join(GroupSeat, and_(GroupSeat.game_id == GamePlayer.game_id,
                                   GroupSeat.position == GamePlayer.position))
             .join(GroupGame, GroupGame.game_id == GamePlayer.game_id)
             .where(GroupGame.group_id == group.id, GroupSeat.member_id == member.id,
                    GroupGame.status.in_(("complete", "sheet")), GamePlayer.won.is_not(None))
             .order_by(GroupGame.order_at, GroupGame.game_id))
    longest = run = 0
    current: tuple[bool | None, int] | None = None
    for won in session.scalars(query):
        run = run + 1 if won else 0
        longest = max(longest, run)
        current = (won, current[1] + 1) if current and current[0] == won else (won, 1)
    return {"longest_wins": longest,
            "current": None if current is None else {"won": current[0], "games": current[1]}}

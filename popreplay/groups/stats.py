"""What a group's pages and API show: leaderboards, a member's statistics (per game and mode:
games, wins, win rate, average and best score), head-to-head, streaks, rating history, the
group's games. Read-only; the ratings are read as stored (``ratings.ensure_fresh`` first)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Sequence

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session, aliased

from ..db.groups import Group, GroupGame, GroupSeat, Member, MemberRating, Rating
from ..db.models import GamePlayer, GameRecord
from ..engine import GAMES
from .ratings import ordinal

__all__ = ["Standing", "boards", "game_rows", "head_to_head", "history", "leaderboard",
           "member_games", "member_stats", "streaks"]


@dataclass(frozen=True, slots=True)
class Standing:
    member_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int


def boards(session: Session, group: Group) -> list[str]:
    return list(session.scalars(select(MemberRating.board).where(
        MemberRating.group_id == group.id).distinct().order_by(MemberRating.board)).all())


def leaderboard(session: Session, group: Group, board: str) -> list[Standing]:
    """A board's members, best first (by ordinal, ``mu - 3 sigma``; then by name)."""
    rows = session.execute(
        select(MemberRating, Member.name).join(Member, Member.id == MemberRating.member_id)
        .where(MemberRating.group_id == group.id, MemberRating.board == board)).all()
    table = [Standing(r.member_id, name, r.mu, r.sigma, ordinal(r.mu, r.sigma), r.games, r.wins)
             for r, name in rows]
    return sorted(table, key=lambda s: (-s.ordinal, s.name.casefold(), s.member_id))


def history(session: Session, group: Group, member: Member, board: str,
            *, limit: int = 1000) -> list[dict[str, Any]]:
    """A member's rating after each rated game on a board, in played order (the newest
    ``limit``)."""
    query = (select(Rating.game_id, Rating.order_at, Rating.rank, Rating.mu, Rating.sigma,
                    GameRecord.slug)
             .join(GameRecord, GameRecord.id == Rating.game_id)
             .where(Rating.group_id == group.id, Rating.member_id == member.id,
                    Rating.board == board)
             .order_by(Rating.order_at.desc(), Rating.game_id.desc()).limit(limit))
    rows = reversed(session.execute(query).all())
    return [{"game": slug, "played_at": when, "rank": rank, "mu": mu, "sigma": sigma,
             "ordinal": ordinal(mu, sigma)} for _, when, rank, mu, sigma, slug in rows]


def member_stats(session: Session, group: Group, member: Member) -> list[dict[str, Any]]:
    """Per game and mode: games, complete games, wins, win rate, average and best score."""
    complete = GameRecord.status.in_(("complete", "sheet"))
    scored = and_(complete, GamePlayer.score.is_not(None))
    query = (select(GameRecord.game, GameRecord.mode, func.count(),
                    func.sum(case((complete, 1), else_=0)),
                    func.sum(case((and_(complete, GamePlayer.won.is_(True)), 1), else_=0)),
                    func.avg(case((scored, GamePlayer.score))),
                    func.min(case((scored, GamePlayer.score))),
                    func.max(case((scored, GamePlayer.score))))
             .select_from(GroupSeat)
             .join(GroupGame, GroupGame.game_id == GroupSeat.game_id)
             .join(GameRecord, GameRecord.id == GroupSeat.game_id)
             .join(GamePlayer, and_(GamePlayer.game_id == GroupSeat.game_id,
                                    GamePlayer.position == GroupSeat.position))
             .where(GroupGame.group_id == group.id, GroupSeat.member_id == member.id)
             .group_by(GameRecord.game, GameRecord.mode).order_by(GameRecord.game,
                                                                  GameRecord.mode))
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
    """Against each other member: games played together (complete ones), and how often this
    member finished ahead, behind or level (by rank where rated, else by win)."""
    mine, theirs = aliased(GroupSeat), aliased(GroupSeat)
    me_p, them_p = aliased(GamePlayer), aliased(GamePlayer)
    query = (select(theirs.member_id, Member.name, me_p.won, them_p.won, me_p.score,
                    them_p.score, GameRecord.game)
             .select_from(mine)
             .join(GroupGame, GroupGame.game_id == mine.game_id)
             .join(theirs, and_(theirs.game_id == mine.game_id,
                                theirs.position != mine.position))
             .join(Member, Member.id == theirs.member_id)
             .join(GameRecord, GameRecord.id == mine.game_id)
             .join(me_p, and_(me_p.game_id == mine.game_id, me_p.position == mine.position))
             .join(them_p, and_(them_p.game_id == mine.game_id,
                                them_p.position == theirs.position))
             .where(GroupGame.group_id == group.id, mine.member_id == member.id,
                    GameRecord.status.in_(("complete", "sheet"))))
    table: dict[int | None, dict[str, Any]] = {}
    for other, name, won, other_won, score, other_score, game in session.execute(query):
        row = table.setdefault(other, {"member": other, "name": name, "games": 0, "ahead": 0,
                                       "behind": 0, "level": 0})
        row["games"] += 1
        lower = getattr(GAMES.get(game), "lower_score_wins", True)
        mine_key = (not won, _signed(score, lower))
        their_key = (not other_won, _signed(other_score, lower))
        row["ahead" if mine_key < their_key else "behind" if mine_key > their_key
            else "level"] += 1
    return sorted(table.values(), key=lambda r: (-r["games"], r["name"].casefold()))


def _signed(score: int | None, lower: bool) -> int:
    return 0 if score is None else (score if lower else -score)


def member_games(session: Session, group: Group, member: Member, *,
                 limit: int = 50) -> Sequence[Any]:
    """The member's games, newest first: (record, seat) pairs."""
    query = (select(GameRecord, GamePlayer)
             .join(GroupSeat, GroupSeat.game_id == GameRecord.id)
             .join(GroupGame, GroupGame.game_id == GameRecord.id)
             .join(GamePlayer, and_(GamePlayer.game_id == GroupSeat.game_id,
                                    GamePlayer.position == GroupSeat.position))
             .where(GroupGame.group_id == group.id, GroupSeat.member_id == member.id)
             .order_by(GroupGame.order_at.desc(), GameRecord.id.desc()).limit(limit))
    return session.execute(query).all()


def streaks(session: Session, group: Group, member: Member) -> dict[str, Any]:
    """The current run of wins (or of games without one) and the longest run of wins, over
    the member's complete games in played order."""
    query = (select(GamePlayer.won)
             .join(GroupSeat, and_(GroupSeat.game_id == GamePlayer.game_id,
                                   GroupSeat.position == GamePlayer.position))
             .join(GroupGame, GroupGame.game_id == GamePlayer.game_id)
             .join(GameRecord, GameRecord.id == GamePlayer.game_id)
             .where(GroupGame.group_id == group.id, GroupSeat.member_id == member.id,
                    GameRecord.status.in_(("complete", "sheet")), GamePlayer.won.is_not(None))
             .order_by(GroupGame.order_at, GroupGame.game_id))
    longest = run = 0
    current: tuple[bool | None, int] | None = None
    for won in session.scalars(query):
        run = run + 1 if won else 0
        longest = max(longest, run)
        current = (won, current[1] + 1) if current and current[0] == won else (won, 1)
    return {"longest_wins": longest,
            "current": None if current is None else {"won": current[0], "games": current[1]}}


def game_rows(session: Session, group: Group, *, after: tuple[datetime, int] | None = None,
              limit: int = 50, newest_first: bool = True) -> list[dict[str, Any]]:
    """The group's games with who sat where, in played order (newest first by default):
    ``after`` continues from a (order_at, game number) key."""
    order = ([GroupGame.order_at.desc(), GroupGame.game_id.desc()] if newest_first
             else [GroupGame.order_at, GroupGame.game_id])
    query = (select(GameRecord, GroupGame.order_at)
             .join(GroupGame, GroupGame.game_id == GameRecord.id)
             .where(GroupGame.group_id == group.id).order_by(*order).limit(limit))
    if after is not None:
        when, last = after
        if newest_first:
            query = query.where((GroupGame.order_at < when) | (
                (GroupGame.order_at == when) & (GroupGame.game_id < last)))
        else:
            query = query.where((GroupGame.order_at > when) | (
                (GroupGame.order_at == when) & (GroupGame.game_id > last)))
    rows = session.execute(query).all()
    ids = [record.id for record, _ in rows]
    seats: dict[int, list[Any]] = {}
    if ids:
        seat_rows = session.execute(
            select(GroupSeat, GamePlayer.score, GamePlayer.won, Member.name)
            .join(GamePlayer, and_(GamePlayer.game_id == GroupSeat.game_id,
                                   GamePlayer.position == GroupSeat.position))
            .outerjoin(Member, Member.id == GroupSeat.member_id)
            .where(GroupSeat.game_id.in_(ids)).order_by(GroupSeat.game_id, GroupSeat.position))
        for seat, score, won, member_name in seat_rows:
            seats.setdefault(seat.game_id, []).append(
                {"name": seat.name, "member": seat.member_id, "member_name": member_name,
                 "score": score, "won": won})
    return [{"record": record, "order_at": when, "seats": seats.get(record.id, [])}
            for record, when in rows]

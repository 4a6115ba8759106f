"""What a group's pages and API show: leaderboards, a member's statistics (per game and mode:
games, wins, win rate, average and best score), head-to-head, streaks, rating history, the
group's games. Read-only; the ratings and the members' summaries are read as the last recompute
kept them (``ratings.ensure_fresh`` first; ``groups.summaries``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Hashable, TypeVar

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session, load_only

from ..db.groups import (Group, GroupGame, GroupSeat, Member, MemberRating, MemberSummary,
                         Rating)
from ..db.models import GamePlayer, GameRecord
from ..caching import BoundedCache
from . import summaries
from .ratings import ordinal

# what a list of games shows (never the log, nor the outcome and errors: JSON of kilobytes)
LISTED = load_only(GameRecord.id, GameRecord.slug, GameRecord.title, GameRecord.game,
                   GameRecord.mode, GameRecord.status, GameRecord.legal, GameRecord.claims_match,
                   GameRecord.played_at, GameRecord.created_at, GameRecord.players)

T = TypeVar("T")
# what a member's page and statistics were, per group version (``Group.version``: bumped by every
# change they show), so that a page read again and again is computed once per change
_kept: BoundedCache[Hashable, Any] = BoundedCache(max_entries=512)


def kept(group: Group, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, or what it gave for ``key`` at this version of the group."""
    full = (group.id, group.created_at, group.version, key)  # created_at: another database's
    value = _kept.get(full)
    if value is None:
        value = compute()
        _kept.put(full, value)
    return value  # type: ignore[no-any-return]


__all__ = ["Standing", "kept", "boards", "game_rows", "head_to_head", "histories", "history",
           "leaderboard", "member_games", "member_stats", "streaks", "summary"]


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
             .where(Rating.member_id == member.id, Rating.board == board)
             .order_by(Rating.order_at.desc(), Rating.game_id.desc()).limit(limit))
    rows = reversed(session.execute(query).all())
    return [{"game": slug, "played_at": when, "rank": rank, "mu": mu, "sigma": sigma,
             "ordinal": ordinal(mu, sigma)} for _, when, rank, mu, sigma, slug in rows]


def summary(session: Session, member: Member) -> dict[str, Any] | None:
    """The member's summary as the last recompute kept it (``groups.summaries``): its
    ``per_game``, ``head_to_head`` and ``streaks``; read once per session (the recompute that
    keeps new ones forgets it)."""
    memo = session.info.setdefault(summaries.MEMO, {})
    if member.id not in memo:
        row = session.get(MemberSummary, member.id)
        memo[member.id] = None if row is None else {
            "per_game": row.per_game, "head_to_head": row.head_to_head, "streaks": row.streaks}
    return memo[member.id]  # type: ignore[no-any-return]


def histories(session: Session, group: Group, member: Member,
              *, limit: int = 500) -> dict[str, list[dict[str, Any]]]:
    """:func:`history` on each board the member is rated on (by board), in one query."""
    newest = func.row_number().over(partition_by=Rating.board,
                                    order_by=(Rating.order_at.desc(), Rating.game_id.desc()))
    numbered = (select(Rating.board, Rating.game_id, Rating.order_at, Rating.rank, Rating.mu,
                       Rating.sigma, newest.label("n"))
                .where(Rating.member_id == member.id).subquery())
    # the slug looked up per kept row (not joined: a planner that cannot tell how many rows the
    # numbering keeps would hash the whole games table)
    slug = select(GameRecord.slug).where(GameRecord.id == numbered.c.game_id).scalar_subquery()
    query = (select(numbered.c.board, numbered.c.order_at, numbered.c.rank, numbered.c.mu,
                    numbered.c.sigma, slug)
             .where(numbered.c.n <= limit)
             .order_by(numbered.c.board, numbered.c.order_at, numbered.c.game_id))
    out: dict[str, list[dict[str, Any]]] = {}
    for board, when, rank, mu, sigma, game in session.execute(query):
        out.setdefault(board, []).append({"game": game, "played_at": when, "rank": rank,
                                          "mu": mu, "sigma": sigma,
                                          "ordinal": ordinal(mu, sigma)})
    return out


def member_stats(session: Session, group: Group, member: Member) -> list[dict[str, Any]]:
    """Per game and mode: games, complete games, wins, win rate, average and best score."""
    kept_row = summary(session, member)
    return [] if kept_row is None else list(kept_row["per_game"])


def head_to_head(session: Session, group: Group, member: Member) -> list[dict[str, Any]]:
    """Against each other member: games played together (complete ones, score sheets too), and
    how often this member finished ahead, behind or level (winners first, then by score); most
    games first, then by name (names as they are now)."""
    kept_row = summary(session, member)
    if kept_row is None or not kept_row["head_to_head"]:
        return []
    names = dict(session.execute(select(Member.id, Member.name).where(
        Member.id.in_([row["member"] for row in kept_row["head_to_head"]]))).all())
    table = [{**row, "name": names[row["member"]]} for row in kept_row["head_to_head"]
             if row["member"] in names]
    return sorted(table, key=lambda r: (-r["games"], r["name"].casefold(), r["member"]))


def member_games(session: Session, group: Group, member: Member, *,
                 limit: int = 50) -> list[Any]:
    """The member's games, newest first: (record, seat) pairs, in one query. The newest are
    found among the group's links first; only those games' rows are read (a game's row holds
    its log)."""
    newest = (select(GroupSeat.game_id, GroupSeat.position, GroupGame.order_at)
              .join(GroupGame, GroupGame.game_id == GroupSeat.game_id)
              .where(GroupGame.group_id == group.id, GroupSeat.member_id == member.id)
              .order_by(GroupGame.order_at.desc(), GroupGame.game_id.desc()).limit(limit)
              .subquery())
    query = (select(GameRecord, GamePlayer)
             .join(newest, newest.c.game_id == GameRecord.id)
             .join(GamePlayer, and_(GamePlayer.game_id == newest.c.game_id,
                                    GamePlayer.position == newest.c.position))
             .options(LISTED).order_by(newest.c.order_at.desc(), newest.c.game_id.desc()))
    return [(record, seat) for record, seat in session.execute(query)]


def streaks(session: Session, group: Group, member: Member) -> dict[str, Any]:
    """The current run of wins (or of games without one) and the longest run of wins, over
    the member's complete games in played order."""
    kept_row = summary(session, member)
    return {"longest_wins": 0, "current": None} if kept_row is None else dict(kept_row["streaks"])


def game_rows(session: Session, group: Group, *, after: tuple[datetime, int] | None = None,
              limit: int = 50, newest_first: bool = True) -> list[dict[str, Any]]:
    """The group's games with who sat where, in played order (newest first by default):
    ``after`` continues from a (order_at, game number) key."""
    order = ([GroupGame.order_at.desc(), GroupGame.game_id.desc()] if newest_first
             else [GroupGame.order_at, GroupGame.game_id])
    query = (select(GroupGame.game_id, GroupGame.order_at)
             .where(GroupGame.group_id == group.id).order_by(*order).limit(limit))
    if after is not None:
        when, last = after
        if newest_first:
            query = query.where((GroupGame.order_at < when) | (
                (GroupGame.order_at == when) & (GroupGame.game_id < last)))
        else:
            query = query.where((GroupGame.order_at > when) | (
                (GroupGame.order_at == when) & (GroupGame.game_id > last)))
    links = session.execute(query).all()
    ids = [game for game, _ in links]
    records = {r.id: r for r in session.scalars(
        select(GameRecord).where(GameRecord.id.in_(ids)).options(LISTED))} if ids else {}
    rows = [(records[game], when) for game, when in links]
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

"""Ratings: OpenSkill's Plackett–Luce model (the ``openskill`` package, its defaults) over a
group's games in the order they were played (date of play, else of storing; then the game's
number), one board per game, or per mode where a game has several (``pop/battle``).

A game is rated when it is complete and legal (or, unless the group counts only games checked
move by move, a score sheet), has two seats or more, every seat is a known member, and its
standings tell the players apart: cooperative and solo games are results, not ratings. Ranks
come from the standings: winners first, then by score (lower first where the lower score wins).

Deterministic: the same games in the same order give the same floats. A change recomputes from
its place on (``Group.stale_from``): the ratings before it are kept, the ones from it are
recomputed, so a correction of an early game changes the ratings after it and only those.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Iterator, Sequence

from openskill.models import PlackettLuce
from sqlalchemy import and_, case, delete, func, insert, select, update
from sqlalchemy.orm import Session

from ..db.groups import Group, GroupGame, GroupSeat, MemberRating, Rating
from ..db.models import GamePlayer
from ..db.session import sqlite_writer
from ..engine import GAMES
from . import summaries

__all__ = ["MODEL", "RatedGame", "board_of", "ensure_fresh", "ordinal", "ranks_of",
           "recompute", "schedule"]

MODEL = PlackettLuce()
BATCH = 2000  # games per transaction of a recompute (its progress is written after each)
Progress = Callable[[int, int], None]  # done, total


def board_of(game: str, mode: str) -> str:
    """The board a game is rated on: the game, or the game and mode where it has several."""
    modes = getattr(GAMES.get(game), "modes", ())
    return game if len(modes) <= 1 else f"{game}/{mode}"


def ordinal(mu: float, sigma: float) -> float:
    """What a leaderboard sorts by: ``mu - 3 sigma`` (OpenSkill's ordinal)."""
    return mu - 3 * sigma


def ranks_of(seats: Sequence[tuple[int | None, bool | None]], *,
             lower_wins: bool) -> list[int] | None:
    """Ranks (1 is first, ties share) from each seat's ``(score, won)``; None when the game is
    not to be rated: fewer than two seats, undecided, or nobody told apart (cooperative)."""
    if len(seats) < 2 or any(won is None for _, won in seats):
        return None
    scored = all(score is not None for score, _ in seats)
    keys = [(0 if won else 1, (score if lower_wins else -score) if scored and score is not None
             else 0) for score, won in seats]
    if len(set(keys)) == 1:
        return None
    return [1 + sum(other < key for other in keys) for key in keys]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game as the ratings read it: members by seat and their ranks."""

    game_id: int
    order_at: datetime
    board: str
    members: list[int]
    ranks: list[int]


def _rated_games(session: Session, group: Group, *, start: datetime) -> Iterator[RatedGame]:
    statuses = ["complete"] if group.checked_only else ["complete", "sheet"]
    query = (select(GroupGame.game_id, GroupGame.order_at, GroupGame.game, GroupGame.mode,
                    GroupGame.status, GroupGame.legal, GroupSeat.position, GroupSeat.member_id,
                    GamePlayer.score, GamePlayer.won)
             .join(GroupSeat, GroupSeat.game_id == GroupGame.game_id)
             .join(GamePlayer, and_(GamePlayer.game_id == GroupSeat.game_id,
                                    GamePlayer.position == GroupSeat.position))
             .where(GroupGame.group_id == group.id, GroupGame.order_at >= start,
                    GroupGame.status.in_(statuses))
             .order_by(GroupGame.order_at, GroupGame.game_id, GroupSeat.position))
    current: list[Any] = []
    for row in session.execute(query).yield_per(5000):
        if current and current[0].game_id != row.game_id:
            game = _rated(current)
            if game is not None:
                yield game
            current = []
        current.append(row)
    if current:
        game = _rated(current)
        if game is not None:
            yield game


def _rated(rows: list[Any]) -> RatedGame | None:
    first = rows[0]
    if first.status == "complete" and not first.legal:
        return None
    members = [row.member_id for row in rows]
    if None in members or len(set(members)) != len(members):
        return None
    lower = getattr(GAMES.get(first.game), "lower_score_wins", True)
    ranks = ranks_of([(row.score, row.won) for row in rows], lower_wins=lower)
    if ranks is None:
        return None
    return RatedGame(first.game_id, first.order_at, board_of(first.game, first.mode),
                     members, ranks)


def _state_before(session: Session, group: Group, start: datetime
                  ) -> dict[tuple[str, int], tuple[float, float]]:
    """Each member's latest rating on each board before ``start``."""
    query = (select(Rating.board, Rating.member_id, Rating.mu, Rating.sigma)
             .where(Rating.group_id == group.id, Rating.order_at < start)
             .order_by(Rating.order_at, Rating.game_id))
    return {(board, member): (mu, sigma)
            for board, member, mu, sigma in session.execute(query).yield_per(5000)}


def rate(state: dict[tuple[str, int], tuple[float, float]], game: RatedGame) -> list[Any]:
    """One game rated: OpenSkill called on the members' ratings before it; the new ratings."""
    teams = []
    for member in game.members:
        mu, sigma = state.get((game.board, member), (MODEL.mu, MODEL.sigma))
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    after = MODEL.rate(teams, ranks=list(game.ranks))
    for member, [rating] in zip(game.members, after):
        state[(game.board, member)] = (rating.mu, rating.sigma)
    return [team[0] for team in after]


def recompute(session: Session, group: Group, *, progress: Progress | None = None) -> int:
    """Recompute the group's ratings from ``stale_from`` on; the number of games rated. The
    point is cleared only if no change came meanwhile (else the next run goes on from it)."""
    start = group.stale_from
    if start is None:
        return 0
    group_id = group.id
    total = session.scalar(select(func.count()).select_from(GroupGame).where(
        GroupGame.group_id == group_id, GroupGame.order_at >= start)) or 0
    state = _state_before(session, group, start)
    with sqlite_writer(session):
        session.execute(delete(Rating).where(Rating.group_id == group_id,
                                             Rating.order_at >= start))
        group.ratings_done, group.ratings_total = 0, total
        session.commit()
    done = 0
    rows: list[dict[str, Any]] = []
    for game in _rated_games(session, group, start=start):
        for member, rank, rating in zip(game.members, game.ranks, rate(state, game)):
            rows.append({"group_id": group_id, "board": game.board, "game_id": game.game_id,
                         "member_id": member, "order_at": game.order_at, "rank": rank,
                         "mu": rating.mu, "sigma": rating.sigma})
        done += 1
        if done % BATCH == 0:
            _write(session, group, rows, done=done)
            rows = []
            if progress:
                progress(done, total)
    _write(session, group, rows, done=done)
    _leaderboards(session, group, state, start=start)
    with sqlite_writer(session):
        session.execute(update(Group).where(Group.id == group_id, Group.stale_from == start)
                        .values(stale_from=None, ratings_done=total,
                                version=Group.version + 1))
        session.commit()
    session.refresh(group)
    if progress:
        progress(total, total)
    return done


def _write(session: Session, group: Group, rows: list[dict[str, Any]], *, done: int) -> None:
    with sqlite_writer(session):
        if rows:
            session.execute(insert(Rating), rows)
        group.ratings_done = done
        session.commit()


def _leaderboards(session: Session, group: Group,
                  state: dict[tuple[str, int], tuple[float, float]], *, start: datetime) -> None:
    """``member_ratings`` rebuilt (each member's latest rating, games and wins per board), and
    the summaries of the members touched from ``start`` on (``summaries``), in one transaction."""
    wins = func.sum(case((Rating.rank == 1, 1), else_=0))
    counts = session.execute(select(Rating.board, Rating.member_id, func.count(), wins)
                             .where(Rating.group_id == group.id)
                             .group_by(Rating.board, Rating.member_id)).all()
    rebuilt = summaries.rebuild(session, group, start)
    with sqlite_writer(session):
        session.execute(delete(MemberRating).where(MemberRating.group_id == group.id))
        values = [{"member_id": member, "board": board, "group_id": group.id,
                   "mu": state[(board, member)][0], "sigma": state[(board, member)][1],
                   "games": games, "wins": int(won or 0)}
                  for board, member, games, won in counts if (board, member) in state]
        if values:
            session.execute(insert(MemberRating), values)
        summaries.store(session, rebuilt)
        session.commit()


def schedule(session: Session, group: Group, *,
             later: Callable[[int], None] | None = None) -> bool:
    """After a change: the recompute handed to ``later`` (a worker's queue, given the group's
    id; True), or done here and now (False)."""
    if group.stale_from is None:
        return False
    if later is not None:
        later(group.id)
        return True
    recompute(session, group)
    return False


def ensure_fresh(session: Session, group: Group, *, queued: bool = False) -> None:
    """Before ratings are read: recomputed here when stale, unless a worker does it."""
    if group.stale_from is not None and not queued:
        recompute(session, group)

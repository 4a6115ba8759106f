"""A member's statistics, head-to-head and streaks, computed in one walk over the seats of the
group's games in played order and kept per member (``member_summaries``), so that a member's
page and statistics read one row whatever the size of the group.

The ratings' recompute rebuilds them (:func:`rebuild`) for the members a change can have touched:
those with a seat in a game from the changed point on, and those whose latest game (as last
kept) is at or after it — a member taken out of a game (a correction, a game removed, a seat
mapped to someone else) had a seat there, so their latest game was at or after it.

* per game and mode: games, complete games (score sheets too), wins, win rate, average and best
  score (over complete games; the lowest where the lower score wins);
* head-to-head against each other member: complete games played together, and how often this
  member finished ahead, behind or level (winners first, then by score);
* streaks: the longest run of wins and the current run (of wins, or of games without one) over
  the member's complete games in played order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable

from sqlalchemy import and_, delete, insert, select
from sqlalchemy.orm import Session

from ..db.groups import Group, GroupGame, GroupSeat, MemberSummary
from ..db.models import GamePlayer
from ..engine import GAMES

__all__ = ["Rebuilt", "Summary", "affected", "compute", "rebuild", "store"]

MEMO = "member_summaries"  # the session's ``info`` key of the summaries read (``stats.summary``)
DONE = ("complete", "sheet")  # games with a result: counted in wins, scores, head-to-head


@dataclass(slots=True)
class _Tally:
    games: int = 0
    complete: int = 0
    wins: int = 0
    total: int = 0
    scored: int = 0
    low: int | None = None
    high: int | None = None


@dataclass(slots=True)
class Summary:
    """One member's summary as it is kept (``per_game``, ``head_to_head`` without names)."""

    last_at: datetime | None = None
    tallies: dict[tuple[str, str], _Tally] = field(default_factory=dict)
    against: dict[int, list[int]] = field(default_factory=dict)  # member: [games, ahead, behind]
    longest: int = 0
    run: int = 0
    current: tuple[bool, int] | None = None

    def per_game(self) -> list[dict[str, Any]]:
        out = []
        for (game, mode), t in sorted(self.tallies.items()):
            lower = getattr(GAMES.get(game), "lower_score_wins", True)
            out.append({"game": game, "mode": mode, "games": t.games, "complete": t.complete,
                        "wins": t.wins,
                        "win_rate": round(t.wins / t.complete, 4) if t.complete else None,
                        "average": round(t.total / t.scored, 2) if t.scored else None,
                        "best": t.low if lower else t.high})
        return out

    def head_to_head(self) -> list[dict[str, Any]]:
        return [{"member": other, "games": games, "ahead": ahead, "behind": behind,
                 "level": games - ahead - behind}
                for other, (games, ahead, behind) in sorted(self.against.items())]

    def streaks(self) -> dict[str, Any]:
        return {"longest_wins": self.longest,
                "current": None if self.current is None else {"won": self.current[0],
                                                              "games": self.current[1]}}


def _key(score: int | None, won: bool | None, *, lower: bool) -> tuple[int, int]:
    """Where a seat finished, smaller first: winners first, then by score (a missing score 0)."""
    points = score or 0
    return (0 if won else 1, points if lower else -points)


def _count(summaries: dict[int, Summary], seats: list[Any]) -> None:
    """One game's seats counted into the summaries of the members being rebuilt."""
    first = seats[0]
    done = first.status in DONE
    lower = getattr(GAMES.get(first.game), "lower_score_wins", True)
    table = [(seat.member_id, seat.score, seat.won) for seat in seats]  # in seat order
    keys = [_key(score, won, lower=lower) for _, score, won in table]
    for i, (member, score, won) in enumerate(table):
        summary = summaries.get(member)
        if summary is None:
            continue
        summary.last_at = first.order_at
        tally = summary.tallies.setdefault((first.game, first.mode), _Tally())
        tally.games += 1
        if not done:
            continue
        tally.complete += 1
        tally.wins += won is True
        if score is not None:
            tally.total += score
            tally.scored += 1
            tally.low = score if tally.low is None else min(tally.low, score)
            tally.high = score if tally.high is None else max(tally.high, score)
        if won is not None:
            summary.run = summary.run + 1 if won else 0
            summary.longest = max(summary.longest, summary.run)
            same = summary.current is not None and summary.current[0] == won
            summary.current = (won, summary.current[1] + 1 if same and summary.current else 1)
        mine = keys[i]
        for j, (other, _, _) in enumerate(table):
            if j == i or other is None or other == member:
                continue
            row = summary.against.setdefault(other, [0, 0, 0])
            row[0] += 1
            row[1] += mine < keys[j]
            row[2] += mine > keys[j]


def compute(session: Session, group: Group, members: Iterable[int]) -> dict[int, Summary]:
    """The summaries of ``members`` from the group's games as they are now: one query over the
    seats of their games (the other seats too, for head-to-head), in played order."""
    summaries = {member: Summary() for member in members}
    if not summaries:
        return summaries
    theirs = select(GroupSeat.game_id).where(GroupSeat.member_id.in_(list(summaries)))
    query = (select(GroupGame.game_id, GroupGame.order_at, GroupGame.game, GroupGame.mode,
                    GroupGame.status, GroupSeat.position, GroupSeat.member_id,
                    GamePlayer.score, GamePlayer.won)
             .join(GroupSeat, GroupSeat.game_id == GroupGame.game_id)
             .join(GamePlayer, and_(GamePlayer.game_id == GroupSeat.game_id,
                                    GamePlayer.position == GroupSeat.position))
             .where(GroupGame.group_id == group.id, GroupGame.game_id.in_(theirs))
             .order_by(GroupGame.order_at, GroupGame.game_id, GroupSeat.position))
    seats: list[Any] = []
    for row in session.execute(query).yield_per(5000):
        if seats and seats[0].game_id != row.game_id:
            _count(summaries, seats)
            seats = []
        seats.append(row)
    if seats:
        _count(summaries, seats)
    return summaries


def affected(session: Session, group: Group, start: datetime) -> set[int]:
    """The members whose summary a change from ``start`` on can have changed."""
    seated = select(GroupSeat.member_id).join(GroupGame, GroupGame.game_id == GroupSeat.game_id)\
        .where(GroupGame.group_id == group.id, GroupGame.order_at >= start,
               GroupSeat.member_id.is_not(None))
    kept = select(MemberSummary.member_id).where(MemberSummary.group_id == group.id,
                                                 MemberSummary.last_at >= start)
    return {member for member in session.scalars(seated.union(kept)) if member is not None}


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """Summaries computed, to be kept by :func:`store` (in the recompute's last transaction)."""

    members: set[int]
    rows: list[dict[str, Any]]


def rebuild(session: Session, group: Group, start: datetime) -> Rebuilt:
    """The summaries of the members touched by a change from ``start`` on, computed."""
    members = affected(session, group, start)
    rows = [{"member_id": member, "group_id": group.id, "last_at": s.last_at,
             "per_game": s.per_game(), "head_to_head": s.head_to_head(),
             "streaks": s.streaks()}
            for member, s in sorted(compute(session, group, members).items())
            if s.last_at is not None]
    return Rebuilt(members, rows)


def store(session: Session, rebuilt: Rebuilt) -> None:
    """The rebuilt summaries kept, in place of the ones of the same members (no commit)."""
    session.info.pop(MEMO, None)
    if rebuilt.members:
        session.execute(delete(MemberSummary).where(
            MemberSummary.member_id.in_(sorted(rebuilt.members))))
    if rebuilt.rows:
        session.execute(insert(MemberSummary), rebuilt.rows)

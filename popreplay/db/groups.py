"""Groups (docs/groups.md): a club's members, its games, its API tokens and its ratings.

A group holds capabilities, not accounts: an admin token (shown once) and an invite key (the
invite link), both stored as SHA-256 hashes like the owner and table tokens. A game joins at most
one group (``group_games``: the game's id is the key, so a game cannot be in two); each of its
seats is mapped to a member (``group_seats``: NULL while the name is left to ask). Ratings are
derived data (``group_ratings``: one row per member per rated game, in played order;
``member_ratings``: each member's latest, what a leaderboard reads; ``member_summaries``: each
member's statistics, head-to-head and streaks, what a member's page reads), recomputed from
``Group.stale_from`` on when a game of the group changes (``db/group_events.py``).

Imported by ``models`` (one metadata for Alembic); changed only through Alembic revisions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime, utcnow

SCOPES = ("read", "write")


class Group(Base):
    """A club, a family, a café's regulars: private by default."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(48), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    private: Mapped[bool] = mapped_column(Boolean, default=True)
    admin_token_hash: Mapped[str] = mapped_column(String(64))
    invite_key_hash: Mapped[str] = mapped_column(String(64))
    # ratings count only games checked move by move (True), or score sheets too (False)
    checked_only: Mapped[bool] = mapped_column(Boolean, default=False)
    # the ratings are stale from this point of the played order on (None: up to date)
    stale_from: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ratings_done: Mapped[int] = mapped_column(Integer, default=0)  # progress of a recompute
    ratings_total: Mapped[int] = mapped_column(Integer, default=0)
    # bumped by every change its pages show (a game, a name, a member, the ratings): what a
    # page kept in a process's cache is checked against
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Member(Base):
    """A person of a group: a stable id and a display name. Merged into another, it keeps its id
    (old links follow ``merged_into_id``) and its seats move to the other."""

    __tablename__ = "group_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(200))
    merged_into_id: Mapped[int | None] = mapped_column(
        ForeignKey("group_members.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class MemberAlias(Base):
    """A name a member appears under in logs, folded (``queries.folded_name``): one folded name
    is one member's in a group, never two."""

    __tablename__ = "member_aliases"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          primary_key=True)
    folded: Mapped[str] = mapped_column(String(200), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("group_members.id", ondelete="CASCADE"),
                                           index=True)
    name: Mapped[str] = mapped_column(String(200))  # as written


class GroupGame(Base):
    """A game of a group; ``order_at`` is its place in the played order (the date of play, else
    when it was stored), ties broken by the game's number. ``game``, ``mode``, ``status`` and
    ``legal`` are the game's, copied (and kept in step by ``group_events``) so that statistics
    and ratings never read the games' rows (which hold the logs)."""

    __tablename__ = "group_games"
    __table_args__ = (Index(None, "group_id", "order_at", "game_id"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    order_at: Mapped[datetime] = mapped_column(UTCDateTime)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    legal: Mapped[bool] = mapped_column(Boolean)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class GroupSeat(Base):
    """A seat of a group's game and the member who sat there (NULL: not known yet, asked)."""

    __tablename__ = "group_seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("group_games.game_id", ondelete="CASCADE"),
                                         primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)  # the seat's name in the log (as stored, NFKC)
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("group_members.id", ondelete="SET NULL"), index=True)


class GroupToken(Base):
    """An API token of a group for data users: named, with scopes, listed, revocable."""

    __tablename__ = "group_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[str] = mapped_column(String(32))  # "read" or "read write"
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Rating(Base):
    """A member's rating on a board (a game, or a game's mode) after one rated game."""

    __tablename__ = "group_ratings"
    __table_args__ = (Index(None, "group_id", "board", "order_at", "game_id"),
                      Index(None, "member_id", "board", "order_at"))

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          primary_key=True)
    board: Mapped[str] = mapped_column(String(72), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("group_members.id", ondelete="CASCADE"),
                                           primary_key=True)
    order_at: Mapped[datetime] = mapped_column(UTCDateTime)
    rank: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float(53))
    sigma: Mapped[float] = mapped_column(Float(53))


class MemberRating(Base):
    """A member's latest rating on a board, with the games and wins it counts: a leaderboard."""

    __tablename__ = "member_ratings"
    __table_args__ = (Index(None, "group_id", "board"),)

    member_id: Mapped[int] = mapped_column(ForeignKey("group_members.id", ondelete="CASCADE"),
                                           primary_key=True)
    board: Mapped[str] = mapped_column(String(72), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    mu: Mapped[float] = mapped_column(Float(53))
    sigma: Mapped[float] = mapped_column(Float(53))
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class MemberSummary(Base):
    """A member's statistics as their page shows them, rebuilt by the ratings' recompute for the
    members its games touch (``groups.summaries``): per game and mode, head-to-head (against
    member ids; names are read with the page), streaks. ``last_at``: the member's latest game in
    played order (a change at or before it may change the summary)."""

    __tablename__ = "member_summaries"

    member_id: Mapped[int] = mapped_column(ForeignKey("group_members.id", ondelete="CASCADE"),
                                           primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          index=True)
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)
    per_game: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    head_to_head: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    streaks: Mapped[dict[str, Any]] = mapped_column(JSON)

"""Queries over stored games: filters, keyset (cursor) pagination, export batches, player stats.

Unlisted games, and the games of private groups (docs/groups.md), are never listed, exported or
counted here: every query starts from :func:`public_games` or :func:`listed`.
"""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterator, Sequence

from sqlalchemy import ColumnElement, Select, and_, case, exists, func, or_, select
from sqlalchemy.orm import Session, selectinload, undefer

from ..engine import GAMES
from .groups import Group, GroupGame
from ..engine.players import identity
from .models import GamePlayer, GameRecord
from .types import db_text

# ``stored``: the order this database stored the games in (by number, never reused), the one a
# client polls: its last page still carries a cursor to come back with for what is stored after.
SORTS = ("created", "-created", "played_at", "-played_at", "stored")
MAX_ID = 2**31 - 1  # ids are 32-bit integers (PostgreSQL ``integer``): a larger one is no game


class BadCursor(ValueError):
    """A cursor that this server did not give out for this sort order."""


@dataclass(frozen=True, slots=True)
class Filters:
    game: str | None = None
    mode: str | None = None
    player: str | None = None
    player_exact: bool = False
    status: str | None = None
    legal: bool | None = None
    claims_differ: bool | None = None
    played_after: datetime | None = None
    played_before: datetime | None = None
    since: datetime | None = None  # stored_at >= since
    until: datetime | None = None  # stored_at < until
    updated_since: datetime | None = None  # updated_at >= updated_since


def invisible_dropped(text: str) -> str:
    """``text`` without its format characters (Unicode category Cf: zero-width space and
    joiners, word joiner, BOM, soft hyphen, direction marks): invisible, they made two players of
    one name (issue 25)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def player_name(name: str) -> str:
    """A name as ``game_players`` stores and compares it: the engine's ``identity`` (NFKC:
    full-width and other compatibility forms are their plain letters, ``Ｃｌéｏ`` is ``Cléo``;
    without zero-width, format or other default-ignorable characters), storable. The log keeps
    the name as written; two names of one log with the same identity are an illegal log."""
    return db_text(identity(db_text(name)))


def folded_name(name: str) -> str:
    """A name as people type it: accents dropped, case folded, spaces collapsed (``Cléo``,
    ``CLEO`` and `` cléo `` are ``cleo``), as :func:`player_name` without format characters.
    Stored beside each seat's name (``name_folded``)."""
    decomposed = unicodedata.normalize("NFKD", invisible_dropped(db_text(name)))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(unicodedata.normalize("NFC", bare).casefold().split())


def listed() -> ColumnElement[bool]:
    """A game anyone may find: public, and in no private group (whose games only its invite link
    or a token show; the game's own share link still opens it, like an unlisted game's)."""
    private = (select(GroupGame.game_id).join(Group, Group.id == GroupGame.group_id)
               .where(GroupGame.game_id == GameRecord.id, Group.private.is_(True)))
    return and_(GameRecord.visibility == "public", ~exists(private))


def public_games() -> Select[Any]:
    return select(GameRecord).where(listed())


def apply_filters(query: Select[Any], filters: Filters) -> Select[Any]:
    conditions = []
    if filters.game is not None:
        conditions.append(GameRecord.game == db_text(filters.game))
    if filters.mode is not None:
        conditions.append(GameRecord.mode == db_text(filters.mode))
    if filters.status is not None:
        conditions.append(GameRecord.status == db_text(filters.status))
    if filters.legal is not None:
        conditions.append(GameRecord.legal.is_(filters.legal))
    if filters.claims_differ is True:
        conditions.append(GameRecord.claims_match.is_(False))
    elif filters.claims_differ is False:
        conditions.append(or_(GameRecord.claims_match.is_(None), GameRecord.claims_match.is_(True)))
    if filters.played_after is not None:
        conditions.append(GameRecord.played_at >= filters.played_after)
    if filters.played_before is not None:
        conditions.append(GameRecord.played_at < filters.played_before)
    if filters.since is not None:
        conditions.append(GameRecord.stored_at >= filters.since)
    if filters.until is not None:
        conditions.append(GameRecord.stored_at < filters.until)
    if filters.updated_since is not None:
        conditions.append(GameRecord.updated_at >= filters.updated_since)
    if filters.player is not None:
        same = (GamePlayer.name == player_name(filters.player) if filters.player_exact
                else GamePlayer.name_folded == folded_name(filters.player))
        seats = select(GamePlayer.game_id).where(same)
        conditions.append(GameRecord.id.in_(seats))
    return query.where(*conditions)


# --- cursor pagination ---------------------------------------------------------------------------


def encode_cursor(sort: str, record: GameRecord) -> str:
    value: str | None
    if sort == "stored":
        value = None
    elif sort.lstrip("-") == "played_at":
        value = None if record.played_at is None else record.played_at.isoformat()
    else:
        value = record.created_at.isoformat()
    raw = json.dumps([sort, value, record.id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(sort: str, cursor: str) -> tuple[datetime | None, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        cursor_sort, value, last_id = json.loads(raw)
        when = None if value is None else datetime.fromisoformat(value)
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise BadCursor("the cursor is not one this server gave out") from None
    if (cursor_sort != sort or not isinstance(last_id, int) or isinstance(last_id, bool)
            or not 0 <= last_id <= MAX_ID):
        raise BadCursor("the cursor belongs to another sort order; start again without it")
    if when is None and sort.lstrip("-") == "created":
        raise BadCursor("the cursor is not one this server gave out")
    return when, last_id


def _keyset(sort: str, cursor: str | None) -> tuple[list[Any], list[Any]]:
    """ORDER BY terms and the WHERE terms that continue after ``cursor``.

    ``played_at`` may be empty: those games come last in both directions, by id.
    """
    descending = sort.startswith("-")
    rid = GameRecord.id
    if sort == "stored":
        return [rid.asc()], [] if cursor is None else [rid > decode_cursor(sort, cursor)[1]]
    if sort.lstrip("-") == "created":
        column: Any = GameRecord.created_at
        order = [column.desc(), rid.desc()] if descending else [column.asc(), rid.asc()]
        if cursor is None:
            return order, []
        when, last = decode_cursor(sort, cursor)
        bound = when
        if descending:
            return order, [or_(column < bound, and_(column == bound, rid < last))]
        return order, [or_(column > bound, and_(column == bound, rid > last))]
    column = GameRecord.played_at
    empty_last = case((column.is_(None), 1), else_=0)
    order = [empty_last.asc()]
    order += [column.desc(), rid.desc()] if descending else [column.asc(), rid.asc()]
    if cursor is None:
        return order, []
    when, last = decode_cursor(sort, cursor)
    if when is None:
        return order, [column.is_(None), rid < last if descending else rid > last]
    bound = when
    after = (or_(column < bound, and_(column == bound, rid < last)) if descending
             else or_(column > bound, and_(column == bound, rid > last)))
    return order, [or_(and_(column.is_not(None), after), column.is_(None))]


def page(session: Session, filters: Filters, *, sort: str = "-created", cursor: str | None = None,
         limit: int = 20) -> tuple[Sequence[GameRecord], str | None]:
    """One page of public games and the cursor of the next page (see :func:`page_more`)."""
    rows, next_cursor, _ = page_more(session, filters, sort=sort, cursor=cursor, limit=limit)
    return rows, next_cursor


def page_more(session: Session, filters: Filters, *, sort: str = "-created",
              cursor: str | None = None, limit: int = 20
              ) -> tuple[Sequence[GameRecord], str | None, bool]:
    """One page of public games, the cursor of the next page and whether more follow now.

    The cursor is None on the last page, except in the ``stored`` order: there the last page's
    cursor (the one given, on an empty page) is where a later poll goes on."""
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {', '.join(SORTS)}")
    order, after = _keyset(sort, cursor)
    query = apply_filters(public_games(), filters).where(*after).order_by(*order).limit(limit + 1)
    rows = session.scalars(query).all()
    more = len(rows) > limit
    rows = rows[:limit]
    if not more and sort != "stored":
        return rows, None, False
    return rows, encode_cursor(sort, rows[-1]) if rows else cursor, more


def export_records(session: Session, filters: Filters, *, include_unlisted: bool = False,
                   batch: int = 200, seats: bool = False,
                   log: bool = True) -> Iterator[GameRecord]:
    """Every matching game, oldest id first, read in batches (constant memory), one short
    transaction per batch: the rows are read, detached, and the transaction ends before they are
    handed out, so a client that reads an export slowly (or stops reading) holds no transaction
    (on PostgreSQL one held open blocked ``ALTER TABLE`` and vacuum)."""
    base = select(GameRecord) if include_unlisted else public_games()
    # the log for NDJSON, the seats for the results (loaded with the batch: rows are detached)
    loads = ([selectinload(GameRecord.seats)] if seats else []) + (
        [undefer(GameRecord.log)] if log else [])
    query = apply_filters(base, filters).options(*loads).order_by(GameRecord.id.asc())
    last = 0
    while True:
        rows = session.scalars(query.where(GameRecord.id > last).limit(batch)).all()
        session.expunge_all()
        session.rollback()  # read only: ends the transaction and gives the connection back
        yield from rows
        if len(rows) < batch:
            return
        last = rows[-1].id


# --- player statistics ---------------------------------------------------------------------------


def same_player(name: str, *, exact: bool = False) -> Any:
    """The seats of the player ``name``: as the list's ``player`` filter compares it (folded:
    ``chloe`` is Chloé), or ``exact`` (after :func:`player_name`)."""
    if exact:
        return GamePlayer.name == player_name(name)
    return GamePlayer.name_folded == folded_name(name)


def player_games(session: Session, name: str, *, limit: int = 50,
                 exact: bool = False) -> Sequence[Any]:
    """The player's newest public games: (record, seat) pairs."""
    query = (select(GameRecord, GamePlayer)
             .join(GamePlayer, GamePlayer.game_id == GameRecord.id)
             .where(listed(), same_player(name, exact=exact))
             .order_by(GameRecord.created_at.desc(), GameRecord.id.desc(), GamePlayer.position)
             .limit(limit))
    return session.execute(query).all()


def player_stats(session: Session, name: str, *, exact: bool = False) -> list[dict[str, Any]]:
    """Per game and mode: games, complete games, wins, average and best score of complete games
    (best is the lowest where the game's lower score wins)."""
    complete = GameRecord.status == "complete"
    scored = and_(complete, GamePlayer.score.is_not(None))
    query = (
        select(
            GameRecord.game,
            GameRecord.mode,
            func.count(func.distinct(GameRecord.id)),
            func.count(func.distinct(case((complete, GameRecord.id)))),
            func.count(func.distinct(case((and_(complete, GamePlayer.won.is_(True)),
                                           GameRecord.id)))),
            func.avg(case((scored, GamePlayer.score))),
            func.min(case((scored, GamePlayer.score))),
            func.max(case((scored, GamePlayer.score))),
        )
        .join(GamePlayer, GamePlayer.game_id == GameRecord.id)
        .where(listed(), same_player(name, exact=exact))
        .group_by(GameRecord.game, GameRecord.mode)
        .order_by(GameRecord.game, GameRecord.mode)
    )
    stats = []
    for game, mode, games, completed, wins, average, low, high in session.execute(query):
        lower_wins = getattr(GAMES.get(game), "lower_score_wins", True)
        stats.append({
            "game": game,
            "mode": mode,
            "games": games,
            "complete": completed,
            "wins": wins,
            "average": None if average is None else round(float(average), 2),
            "best": low if lower_wins else high,
        })
    return stats

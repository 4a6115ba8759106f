"""A game joins a group, and each of its names is mapped to a member: automatically when the
folded name is one member's (and no other seat of the game folds to it), otherwise left to ask
(``member`` None) — never guessed. A game is in one group at most: moving it between groups is
refused (the first group's admin removes it first)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..db.group_events import auto_members, copy_game, mark_stale, order_at
from ..db.groups import Group, GroupGame, GroupSeat, Member
from ..db.models import GameRecord
from ..db.session import sqlite_writer
from ..db.types import utcnow
from ..webhooks.delivery import emit
from .errors import Refused
from .members import claim, member_of

__all__ = ["MAX_GAMES", "Joined", "add_game", "awaiting_names", "group_of", "map_names",
           "remove_game", "require_room", "seats_of"]

MAX_GAMES = 100_000  # games of one group (the benchmark's 10,000 ten times over)


@dataclass(frozen=True, slots=True)
class Joined:
    """What :func:`add_game` did: ``created`` False when the game was already in the group;
    ``unmapped`` the names left to ask."""

    link: GroupGame
    created: bool
    unmapped: list[str]


def group_of(session: Session, record: GameRecord) -> Group | None:
    link = session.get(GroupGame, record.id)
    return None if link is None else session.get(Group, link.group_id)


def seats_of(session: Session, record: GameRecord) -> Sequence[GroupSeat]:
    return session.scalars(select(GroupSeat).where(GroupSeat.game_id == record.id)
                           .order_by(GroupSeat.position)).all()


def require_room(session: Session, group: Group) -> None:
    """Refused when the group holds as many games as a group may (checked before a new log is
    even stored for it: nothing is half-written)."""
    count = session.scalar(select(func.count()).select_from(GroupGame).where(
        GroupGame.group_id == group.id)) or 0
    if count >= MAX_GAMES:
        raise Refused(409, "group-full", f"A group holds at most {MAX_GAMES} games.")


def add_game(session: Session, group: Group, record: GameRecord) -> Joined:
    """``record`` joins ``group``; its seats are mapped where the names say who sat there."""
    link = session.get(GroupGame, record.id)
    if link is not None:
        if link.group_id != group.id:
            raise Refused(409, "in-another-group", "This game is in another group: a game is in "
                          "one group; its admin removes it there first.", path="/game")
        return Joined(link, False, [s.name for s in seats_of(session, record)
                                    if s.member_id is None])
    require_room(session, group)
    names = [seat.name for seat in record.seats]
    members = auto_members(session, group.id, names)
    with sqlite_writer(session):
        link = GroupGame(game_id=record.id, group_id=group.id, order_at=order_at(record),
                         added_at=utcnow())
        copy_game(link, record)
        session.add(link)
        session.flush()
        session.add_all(GroupSeat(game_id=record.id, position=i, name=name, member_id=member)
                        for i, (name, member) in enumerate(zip(names, members)))
        mark_stale(group, link.order_at)
        session.commit()
    emit(session, "game.stored", game=record, group=group)
    return Joined(link, True, [n for n, m in zip(names, members) if m is None])


def map_names(session: Session, group: Group, record: GameRecord,
              mapping: Mapping[str, int | None], *, remember: bool = True) -> Sequence[GroupSeat]:
    """Say who sat at each named seat (``None``: not known). All or nothing: an unknown name or
    member, a member at two seats, or (``remember``) a name already another member's is refused
    and nothing changes. ``remember`` keeps the name as the member's alias for later games."""
    link = session.get(GroupGame, record.id)
    if link is None or link.group_id != group.id:
        raise Refused(404, "not-in-group", "This game is not in this group.")
    seats = list(seats_of(session, record))
    by_name = {seat.name: seat for seat in seats}
    chosen: dict[str, Member | None] = {}
    for name, member_id in mapping.items():
        path = "/names/" + name.replace("~", "~0").replace("/", "~1")
        if name not in by_name:
            raise Refused(422, "no-such-name", f"No seat of this game is named {name!r}.",
                          path=path)
        chosen[name] = None if member_id is None else member_of(session, group, member_id,
                                                                   path=path)
    after = {seat.name: seat.member_id for seat in seats}
    after.update({name: None if m is None else m.id for name, m in chosen.items()})
    ids = [m for m in after.values() if m is not None]
    if len(ids) != len(set(ids)):
        raise Refused(409, "member-twice", "One member cannot sit at two seats of one game.",
                      path="/names")
    with sqlite_writer(session):
        try:
            for name, member in chosen.items():
                by_name[name].member_id = None if member is None else member.id
                if remember and member is not None:
                    claim(session, group, member, name,
                           path="/names/" + name.replace("~", "~0").replace("/", "~1"))
                    session.flush()
        except Refused:
            session.rollback()
            raise
        mark_stale(group, link.order_at)
        session.commit()
    return seats


def remove_game(session: Session, group: Group, record: GameRecord) -> None:
    """``record`` leaves ``group`` (the game itself stays stored)."""
    link = session.get(GroupGame, record.id)
    if link is None or link.group_id != group.id:
        raise Refused(404, "not-in-group", "This game is not in this group.")
    with sqlite_writer(session):
        mark_stale(group, link.order_at)
        session.execute(delete(GroupSeat).where(GroupSeat.game_id == record.id))
        session.delete(link)
        session.commit()
    emit(session, "game.removed", game=record, group=group)


def awaiting_names(session: Session, group: Group, *, limit: int = 50) -> Sequence[GameRecord]:
    """The group's games with a seat no member is known for, newest first."""
    unmapped = select(GroupSeat.game_id).where(GroupSeat.member_id.is_(None))
    return session.scalars(select(GameRecord).join(GroupGame, GroupGame.game_id == GameRecord.id)
                           .where(GroupGame.group_id == group.id, GameRecord.id.in_(unmapped))
                           .order_by(GroupGame.order_at.desc(), GameRecord.id.desc())
                           .limit(limit)).all()

"""A group's members: people with a stable id, a display name and the names they appear under in
logs (aliases, compared folded: ``Chloé``, ``chloe`` and `` CHLOE `` are one). Renaming or
merging members changes no stored log: only which member a seat belongs to."""

from __future__ import annotations

from typing import Iterable, Sequence

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from ..db.group_events import mark_stale, touch
from ..db.groups import Group, GroupGame, GroupSeat, Member, MemberAlias
from ..db.queries import folded_name, player_name
from ..db.session import sqlite_writer
from ..db.types import utcnow
from .errors import Refused

__all__ = ["MAX_MEMBERS", "add_alias", "add_member", "aliases_of", "claim", "member_of",
           "members", "merge", "rename", "valid_name"]

MAX_MEMBERS = 1000


def valid_name(name: str, *, path: str) -> str:
    """A member's name as stored (NFKC, spaces collapsed); refused when empty or too long."""
    clean = " ".join(player_name(name).split())
    if not clean or len(clean) > 200 or not folded_name(clean):
        raise Refused(422, "bad-name", "A name has 1 to 200 characters.", path=path)
    return clean


def members(session: Session, group: Group) -> Sequence[Member]:
    """The group's members (not the ones merged into another), by name."""
    return session.scalars(select(Member).where(
        Member.group_id == group.id, Member.merged_into_id.is_(None)).order_by(
        func.lower(Member.name), Member.id)).all()


def member_of(session: Session, group: Group, member_id: int, *, path: str = "") -> Member:
    """The member with this id (a merged one leads to the one it was merged into)."""
    member = session.get(Member, member_id) if 0 < member_id < 2**31 else None
    seen = 0
    while member is not None and member.merged_into_id is not None and seen < 50:
        member, seen = session.get(Member, member.merged_into_id), seen + 1
    if member is None or member.group_id != group.id:
        raise Refused(404, "no-member", f"This group has no member {member_id}.", path=path)
    return member


def aliases_of(session: Session, member: Member) -> list[str]:
    return list(session.scalars(select(MemberAlias.name).where(
        MemberAlias.member_id == member.id).order_by(MemberAlias.name)).all())


def claim(session: Session, group: Group, member: Member, name: str, *, path: str) -> None:
    """``name`` is one of ``member``'s names; refused when it is another member's."""
    folded = folded_name(name)
    taken = session.get(MemberAlias, (group.id, folded))
    if taken is not None and taken.member_id != member.id:
        other = session.get(Member, taken.member_id)
        raise Refused(409, "name-taken", f"The name {name!r} is already {other.name if other else '?'}'s "
                      "in this group: a name is one member's.", path=path)
    if taken is None:
        session.add(MemberAlias(group_id=group.id, folded=folded, member_id=member.id, name=name))


def add_member(session: Session, group: Group, *, name: str,
               aliases: Iterable[str] = ()) -> Member:
    """A new member; its name and ``aliases`` are the names it is found under in logs."""
    display = valid_name(name, path="/name")
    names = [valid_name(a, path=f"/aliases/{i}") for i, a in enumerate(aliases)]
    count = session.scalar(select(func.count()).select_from(Member).where(
        Member.group_id == group.id, Member.merged_into_id.is_(None))) or 0
    if count >= MAX_MEMBERS:
        raise Refused(409, "too-many-members", f"A group has at most {MAX_MEMBERS} members.")
    with sqlite_writer(session):
        member = Member(group_id=group.id, name=display, created_at=utcnow())
        touch(group)
        session.add(member)
        session.flush()
        try:
            claim(session, group, member, display, path="/name")
            for i, alias in enumerate(names):
                claim(session, group, member, alias, path=f"/aliases/{i}")
                session.flush()
        except Refused:
            session.rollback()
            raise
        session.commit()
    return member


def add_alias(session: Session, group: Group, member: Member, name: str) -> None:
    _named(session, group, member, name, display=False)


def rename(session: Session, group: Group, member: Member, name: str) -> Member:
    """A new display name (also one of the member's names); the old names stay its aliases."""
    return _named(session, group, member, name, display=True)


def _named(session: Session, group: Group, member: Member, name: str, *,
           display: bool) -> Member:
    """``name`` made one of ``member``'s names (and its display name), or nothing changed."""
    clean = valid_name(name, path="/name")
    with sqlite_writer(session):
        try:
            claim(session, group, member, clean, path="/name")
        except Refused:
            session.rollback()
            raise
        if display:
            member.name = clean
        touch(group)
        session.commit()
    return member


def merge(session: Session, group: Group, member: Member, *, into: Member) -> Member:
    """``member`` becomes ``into``: its names and seats move; its id leads to ``into``. Refused
    when both sat at one game (one person cannot have played two seats)."""
    if member.id == into.id:
        raise Refused(422, "same-member", "A member cannot be merged into itself.", path="/into")
    games_of = select(GroupSeat.game_id).where(GroupSeat.member_id == member.id)
    both = session.scalars(select(GroupSeat.game_id).where(
        GroupSeat.member_id == into.id, GroupSeat.game_id.in_(games_of)).limit(1)).first()
    if both is not None:
        raise Refused(409, "sat-together", f"{member.name} and {into.name} both sat at game "
                      f"{both}: they are two people.", path="/into")
    first = session.scalar(select(func.min(GroupGame.order_at)).join(
        GroupSeat, GroupSeat.game_id == GroupGame.game_id).where(
        GroupSeat.member_id.in_([member.id, into.id])))
    with sqlite_writer(session):
        session.execute(update(MemberAlias).where(MemberAlias.member_id == member.id)
                        .values(member_id=into.id))
        session.execute(update(GroupSeat).where(GroupSeat.member_id == member.id)
                        .values(member_id=into.id))
        member.merged_into_id = into.id
        touch(group)
        if first is not None:
            mark_stale(group, first)
        session.commit()
    return into

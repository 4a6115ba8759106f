"""A table of a group (docs/groups.md, docs/table.md): the member at each seat, checked when the
table is made and kept with its first draft (``TableRecord.start["group"]``, never shown to a
phone: the seats see player names, as before); the stored game joins the group with each seat
mapped to its member."""

from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy.orm import Session

from ..db.groups import Group
from ..db.models import GameRecord
from ..groups import games, members
from ..groups.errors import Refused


def seat_members(session: Session, group: Group, players: Sequence[Any],
                 chosen: Sequence[int | None], *, path: str = "/group/members") -> list[int | None]:
    """The member id at each seat (``None``: a guest), checked: one entry per player, each a
    member of ``group``, no member at two seats. Refused (with its JSON Pointer) otherwise."""
    if len(chosen) != len(players):
        raise Refused(422, "bad-seats", f"One member id (or null for a guest) per player: the "
                      f"draft has {len(players)} players, this list {len(chosen)}.", path=path)
    ids: list[int | None] = []
    for i, member_id in enumerate(chosen):
        if member_id is None:
            ids.append(None)
            continue
        member = members.member_of(session, group, member_id, path=f"{path}/{i}")
        if member.id in ids:
            raise Refused(409, "member-twice", "One member cannot sit at two seats of one game.",
                          path=f"{path}/{i}")
        ids.append(member.id)
    return ids


def kept(group: Group, ids: Sequence[int | None]) -> dict[str, Any]:
    """What a table keeps of its group (in ``start``)."""
    return {"id": group.id, "slug": group.slug, "private": group.private, "members": list(ids)}


def join(session: Session, start: dict[str, Any], record: GameRecord) -> list[str]:
    """The game stored from a table of a group joins it, each seat mapped to its member (the
    names left unmapped: guests). A table of no group, or whose group is gone: nothing."""
    info = start.get("group")
    if not isinstance(info, dict):
        return []
    group = session.get(Group, info["id"])
    if group is None:
        return []
    players = [str(p) for p in start["log"].get("players") or []]
    joined = games.add_game(session, group, record)
    mapping = {name: member for name, member in zip(players, info.get("members") or [])
               if member is not None}
    if mapping:
        games.map_names(session, group, record, mapping, remember=False)
    return [n for n in joined.unmapped if n not in mapping]

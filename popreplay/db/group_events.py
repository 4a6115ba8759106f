"""A group's ratings follow its games: when a game of a group is corrected (a new log),
revalidated (a new result) or deleted, the group's ratings are stale from that game's place in the
played order on (``Group.stale_from``), whichever way in did it (API, command line, import,
worker). A correction that changes the game's players maps its seats again (:func:`reseat`). Kept here, at the one place every change of a game passes (the session's flush), so that
the store's use cases need not know groups; the recompute itself is ``groups.ratings``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from sqlalchemy import event, inspect, select
from sqlalchemy.orm import Session

from .groups import Group, GroupGame, GroupSeat, MemberAlias
from .models import DeletedGame, GameRecord
from .queries import folded_name, player_name

# what a rating reads from a game: its players, its result, its place in the played order
WATCHED = ("players", "status", "legal", "outcome", "played_at", "created_at", "game", "mode")


def order_at(record: GameRecord) -> datetime:
    """A game's place in the played order: its date of play, else when it was stored."""
    return record.played_at or record.created_at


def copy_game(link: GroupGame, record: GameRecord) -> None:
    """What the group's statistics read of a game, copied onto its link."""
    link.game, link.mode, link.status, link.legal = (record.game, record.mode, record.status,
                                                     record.legal)


def touch(group: Group) -> None:
    """Something the group's pages show changed: pages kept in a cache are stale."""
    group.version = (group.version or 0) + 1


def mark_stale(group: Group, when: datetime) -> None:
    """The group's ratings are stale from ``when`` on (the earliest such point is kept)."""
    touch(group)
    if group.stale_from is None or when < group.stale_from:
        group.stale_from = when


def auto_members(session: Session, group_id: int, names: Sequence[str]) -> list[int | None]:
    """The member at each seat named ``names`` where the names say it: a folded name that is
    one member's alias, that no other seat's name folds to, and whose member no other seat's
    name leads to; None at every other seat (to ask — never guessed)."""
    folded = [folded_name(n) for n in names]
    known: dict[str, int] = dict(session.execute(select(MemberAlias.folded, MemberAlias.member_id)
                                                 .where(MemberAlias.group_id == group_id,
                                                        MemberAlias.folded.in_(set(folded))))
                                 .all())
    found = [known.get(f) if folded.count(f) == 1 else None for f in folded]
    return [m if m is not None and found.count(m) == 1 else None for m in found]


def reseat(session: Session, link: GroupGame, record: GameRecord) -> None:
    """The game's players changed (a corrected log): its seats follow the new names. A name the
    game had keeps the member it was mapped to (asked and answered, say); any other name is
    mapped as a game joining the group is (:func:`auto_members`), else left to ask; a member at
    two seats is asked at both."""
    # the names as the game's seats store them; read from the log's players, not from the seats
    # (a flush may come before the seats follow the new log: reading them loads them)
    names = [player_name(name) for name in record.players]
    old = list(session.scalars(select(GroupSeat).where(GroupSeat.game_id == record.id)
                               .order_by(GroupSeat.position)))
    if [seat.name for seat in old] == names:
        return
    said = {seat.name: seat.member_id for seat in old if seat.member_id is not None}
    auto = auto_members(session, link.group_id, names)
    chosen = [said[name] if name in said and names.count(name) == 1 else member
              for name, member in zip(names, auto)]
    chosen = [m if m is not None and chosen.count(m) == 1 else None for m in chosen]
    for seat in old[len(names):]:
        session.delete(seat)
    for position, (name, member) in enumerate(zip(names, chosen)):
        if position < len(old):
            old[position].name, old[position].member_id = name, member
        else:
            session.add(GroupSeat(game_id=record.id, position=position, name=name,
                                  member_id=member))


def _changed(record: GameRecord) -> bool:
    state = inspect(record)
    return any(state.attrs[name].history.has_changes() for name in WATCHED)


@event.listens_for(Session, "before_flush")
def _games_changed(session: Session, _context: Any, _instances: Any) -> None:
    touched = [(r, False) for r in session.dirty if isinstance(r, GameRecord) and _changed(r)]
    touched += [(r, True) for r in session.deleted if isinstance(r, GameRecord)]
    if not touched:
        return
    with session.no_autoflush:
        for record, deleted in touched:
            link = session.get(GroupGame, record.id)
            if link is None:
                continue
            group = session.get(Group, link.group_id)
            if group is None:
                continue
            if deleted and group.private:
                _unlisted_tombstone(session, record)
            new = order_at(record)
            mark_stale(group, link.order_at if deleted else min(link.order_at, new))
            if not deleted:
                copy_game(link, record)
                link.order_at = new
                reseat(session, link, record)


def _unlisted_tombstone(session: Session, record: GameRecord) -> None:
    """A private group's game leaves an unlisted tombstone: a public export never names it."""
    for tombstone in session.new:
        if isinstance(tombstone, DeletedGame) and tombstone.id == record.id:
            tombstone.visibility = "unlisted"
    known = session.get(DeletedGame, record.id)
    if known is not None:
        known.visibility = "unlisted"

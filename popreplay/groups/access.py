"""A group and its capabilities: the admin token (shown once), the invite key (the invite link,
which makes a phone a member) and the API tokens of data users (named, with scopes, listed,
revocable). No passwords: whoever holds a capability may do what it allows (:class:`Access`)."""

from __future__ import annotations

import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db.groups import SCOPES, Group, GroupToken
from ..db.session import sqlite_writer
from ..db.types import db_text, utcnow
from ..store.tokens import token_hash
from .errors import Refused

__all__ = ["Access", "Created", "MadeToken", "authorize", "create_group", "create_token",
           "find_group", "list_tokens", "revoke_token", "rotate_invite", "slugify"]

MAX_NAME = 120
MAX_TOKENS = 50  # live tokens of one group


@dataclass(frozen=True, slots=True)
class Created:
    """A new group with its admin token and invite key: shown this once, stored hashed."""

    group: Group
    admin_token: str
    invite_key: str


@dataclass(frozen=True, slots=True)
class Access:
    """What a request may do with a group: ``read`` its games, names and statistics; ``write``
    (add games, members, map names); ``admin`` (tokens, settings, the invite link)."""

    read: bool = False
    write: bool = False
    admin: bool = False
    via: str = "anyone"  # anyone | invite | token | admin

    def require(self, what: str, *, doing: str) -> None:
        if not getattr(self, what):
            needs = {"read": "its invite link or a token with the read scope",
                     "write": "its invite link or a token with the write scope",
                     "admin": "its admin token"}[what]
            raise Refused(403, "forbidden", f"{doing} needs {needs}.")


def slugify(name: str) -> str:
    """A group's address from its name: ASCII letters, digits and hyphens (``Café du Coin`` is
    ``cafe-du-coin``), at most 40 characters."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", bare.casefold()).strip("-")[:40].strip("-")


def create_group(session: Session, *, name: str, private: bool = True,
                 checked_only: bool = False) -> Created:
    """A new group named ``name``; its address is the name's slug (with a suffix when taken)."""
    name = " ".join(db_text(name).split())
    if not name or len(name) > MAX_NAME:
        raise Refused(422, "bad-name", f"A group's name has 1 to {MAX_NAME} characters.",
                      path="/name")
    base = slugify(name) or "group"
    slug = base
    while session.scalars(select(Group.id).where(Group.slug == slug)).first() is not None:
        slug = f"{base}-{secrets.token_hex(2)}"
    admin, invite = secrets.token_urlsafe(32), secrets.token_urlsafe(16)
    group = Group(slug=slug, name=name, private=private, checked_only=checked_only,
                  admin_token_hash=token_hash(admin), invite_key_hash=token_hash(invite),
                  ratings_done=0, ratings_total=0, version=0, created_at=utcnow())
    with sqlite_writer(session):
        session.add(group)
        session.commit()
    return Created(group, admin, invite)


def find_group(session: Session, slug: str) -> Group:
    group = session.scalars(select(Group).where(Group.slug == db_text(slug))).first()
    if group is None:
        raise Refused(404, "no-group", f"No group {slug!r}.")
    return group


def _matches(secret: str | None, digest: str) -> bool:
    return bool(secret) and hmac.compare_digest(token_hash(secret or ""), digest)


def authorize(session: Session, group: Group, *, bearer: str | None = None,
              invite_key: str | None = None) -> Access:
    """What the holder of ``bearer`` (the admin token, the invite key or an API token) or
    ``invite_key`` (the invite link's, kept by a member's phone) may do.

    A token of another group, a revoked token or an unknown one is refused (never taken as no
    token at all); a private group without a capability is answered as if it did not exist."""
    if bearer:
        if _matches(bearer, group.admin_token_hash):
            return Access(read=True, write=True, admin=True, via="admin")
        if _matches(bearer, group.invite_key_hash):
            return Access(read=True, write=True, via="invite")
        token = session.scalars(
            select(GroupToken).where(GroupToken.token_hash == token_hash(bearer))).first()
        if token is None:
            raise Refused(401, "unknown-token", "This token is not a token of any group.")
        if token.group_id != group.id:
            raise Refused(403, "other-group", "This token belongs to another group.")
        if token.revoked_at is not None:
            raise Refused(401, "revoked-token", f"The token {token.name!r} was revoked.")
        scopes = token.scopes.split()
        return Access(read=True, write="write" in scopes, via="token")
    if invite_key and _matches(invite_key, group.invite_key_hash):
        return Access(read=True, write=True, via="invite")
    if group.private:
        raise Refused(404, "no-group", f"No group {group.slug!r} (a private group opens with its "
                      "invite link or a token).")
    return Access(read=True)


def rotate_invite(session: Session, group: Group) -> str:
    """A new invite key: the old link stops working at once."""
    key = secrets.token_urlsafe(16)
    with sqlite_writer(session):
        group.invite_key_hash = token_hash(key)
        session.commit()
    return key


@dataclass(frozen=True, slots=True)
class MadeToken:
    token: GroupToken
    secret: str  # shown this once


def create_token(session: Session, group: Group, *, name: str, scopes: Sequence[str]) -> MadeToken:
    name = " ".join(db_text(name).split())
    if not name or len(name) > 100:
        raise Refused(422, "bad-name", "A token's name has 1 to 100 characters.", path="/name")
    wrong = [s for s in scopes if s not in SCOPES]
    if wrong or not scopes:
        raise Refused(422, "bad-scope", f"Scopes are {' and '.join(SCOPES)}.", path="/scopes")
    if len(list_tokens(session, group, revoked=False)) >= MAX_TOKENS:
        raise Refused(409, "too-many-tokens", f"A group has at most {MAX_TOKENS} live tokens: "
                      "revoke one first.")
    secret = "grp_" + secrets.token_urlsafe(32)
    wanted = sorted(set(scopes) | {"read"}, key=SCOPES.index)  # write implies read
    token = GroupToken(group_id=group.id, name=name, token_hash=token_hash(secret),
                       scopes=" ".join(wanted), created_at=utcnow())
    with sqlite_writer(session):
        session.add(token)
        session.commit()
    return MadeToken(token, secret)


def list_tokens(session: Session, group: Group, *, revoked: bool = True) -> list[GroupToken]:
    query = select(GroupToken).where(GroupToken.group_id == group.id)
    if not revoked:
        query = query.where(GroupToken.revoked_at.is_(None))
    return list(session.scalars(query.order_by(GroupToken.id)).all())


def revoke_token(session: Session, group: Group, token_id: int) -> GroupToken:
    """Revoke a token of this group: refused at once, from the next request on."""
    token = session.get(GroupToken, token_id) if 0 < token_id < 2**31 else None
    if token is None or token.group_id != group.id:
        raise Refused(404, "no-token", f"This group has no token {token_id}.")
    if token.revoked_at is None:
        with sqlite_writer(session):
            token.revoked_at = utcnow()
            session.commit()
    return token

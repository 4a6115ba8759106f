"""``/api/v1/groups``: a group, its members and its API tokens (docs/groups.md). The views turn
HTTP into calls to ``popreplay.groups`` and its outcomes (or its refusals) into answers; its games,
names, leaderboards and statistics are in ``group_games.py`` (routes of the same blueprint).

Who may do what: ``Authorization: Bearer`` with the admin token, the invite key or an API token
of the group. A private group answers 404 without one; a token of another group, a revoked or an
unknown token are refused at once."""

from __future__ import annotations

from typing import Any, Callable

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..db.groups import Group, GroupGame, GroupToken, Member
from ..db.queries import folded_name
from ..db.session import get_session
from ..groups import access as group_access
from ..groups import members as group_members
from ..groups import ratings
from ..groups.errors import Refused
from ..queue import broker_url
from .errors import ApiError
from .group_schemas import (CreatedGroupSchema, CreatedTokenSchema, GroupChangeSchema,
                            GroupSchema, MemberChangeSchema, MembersSchema, GroupMemberSchema,
                            NewGroupSchema, NewMemberSchema, NewTokenSchema, TokensSchema)
from .represent import base_url
from .schemas import ErrorSchema

bp = Blueprint("groups", __name__, url_prefix="/api/v1/groups",
               description="Groups: members, games, leaderboards, ratings, statistics, tokens.")
SECURITY: list[dict[str, list[str]]] = [{"groupToken": []}]
# A read: a public group's (``private: false``) needs no token; a private one's its invite key or
# a token (404 without: a private group is not known to exist).
READ_SECURITY: list[dict[str, list[str]]] = [{"groupToken": []}, {}]


def refused(error: Refused) -> ApiError:
    headers = {"WWW-Authenticate": 'Bearer realm="popreplay"'} if error.status == 401 else None
    return ApiError(error.status, error.message, errors=[error.as_error()], headers=headers)


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def opened(slug: str, need: str, *, doing: str) -> tuple[Session, Group, group_access.Access]:
    """The group at ``slug`` and what this request may do with it, ``need`` required."""
    session = get_session()
    try:
        group = group_access.find_group(session, slug)
        allowed = group_access.authorize(session, group, bearer=_bearer())
        allowed.require(need, doing=doing)
    except Refused as error:
        raise refused(error) from None
    return session, group, allowed


def attempt(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A use case's value, or its refusal as the API's error."""
    try:
        return call(*args, **kwargs)
    except Refused as error:
        raise refused(error) from None


def later() -> Callable[[int], None] | None:
    """The recompute of a group's ratings on a worker when a broker is set (else None: here)."""
    broker = broker_url()
    if broker is None:
        return None

    def enqueue(group_id: int) -> None:
        from ..queue.worker import enqueue as send

        send(broker, "popreplay.ratings", group_id)

    return enqueue


def fresh(session: Session, group: Group) -> None:
    """Ratings up to date before they are read (here, or left to the worker)."""
    ratings.ensure_fresh(session, group, queued=broker_url() is not None)


def ratings_state(group: Group) -> dict[str, Any]:
    return {"up_to_date": group.stale_from is None, "done": group.ratings_done,
            "total": group.ratings_total}


def group_view(session: Session, group: Group) -> dict[str, Any]:
    count = session.scalar(select(func.count()).select_from(GroupGame).where(
        GroupGame.group_id == group.id)) or 0
    people = session.scalar(select(func.count()).select_from(Member).where(
        Member.group_id == group.id, Member.merged_into_id.is_(None))) or 0
    return {"slug": group.slug, "name": group.name, "private": group.private,
            "checked_only": group.checked_only, "members": people, "games": count,
            "ratings": ratings_state(group), "created_at": group.created_at,
            "links": {"self": f"{base_url()}/api/v1/groups/{group.slug}",
                      "page": f"{base_url()}/g/{group.slug}"}}


def member_view(session: Session, member: Member) -> dict[str, Any]:
    return {"id": member.id, "name": member.name,
            "aliases": group_members.aliases_of(session, member)}


def invite_url(group: Group, key: str) -> str:
    return f"{base_url()}/g/{group.slug}/join?key={key}"


@bp.route("")
class Groups(MethodView):
    @bp.arguments(NewGroupSchema)
    @bp.response(201, CreatedGroupSchema, description="The admin token and the invite key are "
                 "shown this once.")
    @bp.alt_response(422, schema=ErrorSchema, description="No name, or a name too long.")
    def post(self, args: dict[str, Any]) -> Any:
        """Create a group (private by default)"""
        session = get_session()
        seen: set[str] = set()
        for k, name in enumerate(args["members"]):  # checked before anything is written
            folded = folded_name(attempt(group_members.valid_name, name, path=f"/members/{k}"))
            if folded in seen:
                raise ApiError(422, "The same member is named twice.", errors=[{
                    "code": "name-twice", "message": f"{name!r} again", "path": f"/members/{k}"}])
            seen.add(folded)
        made = attempt(group_access.create_group, session, name=args["name"],
                       private=args["private"], checked_only=args["checked_only"])
        for name in args["members"]:
            attempt(group_members.add_member, session, made.group, name=name)
        body = {"group": group_view(session, made.group), "admin_token": made.admin_token,
                "invite_key": made.invite_key, "invite_url": invite_url(made.group,
                                                                        made.invite_key)}
        return body, 201, {"Location": body["group"]["links"]["self"]}


@bp.route("/<string:slug>")
class OneGroup(MethodView):
    @bp.response(200, GroupSchema)
    @bp.alt_response(404, schema=ErrorSchema, description="No such group, or a private one "
                     "without its invite key or a token.")
    @bp.alt_response(401, schema=ErrorSchema, description="An unknown or revoked token.")
    @bp.alt_response(403, schema=ErrorSchema, description="A token of another group.")
    @bp.doc(security=READ_SECURITY)
    def get(self, slug: str) -> Any:
        """A group: its name, counts and the state of its ratings"""
        session, group, _ = opened(slug, "read", doing="Reading this group")
        return group_view(session, group)

    @bp.arguments(GroupChangeSchema)
    @bp.response(200, GroupSchema)
    @bp.alt_response(403, schema=ErrorSchema, description="Not the admin token.")
    @bp.doc(security=SECURITY)
    def patch(self, args: dict[str, Any], slug: str) -> Any:
        """Change a group's settings (admin token)

        `checked_only`: the ratings count only games checked move by move (score sheets are
        left out), or all; changing it recomputes every rating.
        """
        session, group, _ = opened(slug, "admin", doing="Changing a group's settings")
        if "private" in args:
            group.private = args["private"]
        if "checked_only" in args and args["checked_only"] != group.checked_only:
            group.checked_only = args["checked_only"]
            first = session.scalar(select(func.min(GroupGame.order_at)).where(
                GroupGame.group_id == group.id))
            if first is not None:
                from ..db.group_events import mark_stale

                mark_stale(group, first)
        session.commit()
        ratings.schedule(session, group, later=later())
        return group_view(session, group)


@bp.route("/<string:slug>/members")
class Members(MethodView):
    @bp.response(200, MembersSchema)
    @bp.alt_response(404, schema=ErrorSchema)
    @bp.doc(security=READ_SECURITY)
    def get(self, slug: str) -> Any:
        """A group's members and their names"""
        session, group, _ = opened(slug, "read", doing="Reading the members")
        return {"members": [member_view(session, m)
                            for m in group_members.members(session, group)]}

    @bp.arguments(NewMemberSchema)
    @bp.response(201, GroupMemberSchema)
    @bp.alt_response(409, schema=ErrorSchema, description="A name is already another "
                     "member's (a name mapped twice), or the group is full.")
    @bp.doc(security=SECURITY)
    def post(self, args: dict[str, Any], slug: str) -> Any:
        """Add a member (with the names they appear under in logs)"""
        session, group, _ = opened(slug, "write", doing="Adding a member")
        member = attempt(group_members.add_member, session, group, name=args["name"],
                         aliases=args["aliases"])
        return member_view(session, member), 201


@bp.route("/<string:slug>/members/<int:member_id>", methods=["PATCH"])
@bp.arguments(MemberChangeSchema)
@bp.response(200, GroupMemberSchema)
@bp.alt_response(404, schema=ErrorSchema, description="No such member in this group.")
@bp.alt_response(409, schema=ErrorSchema, description="A name already another member's; two "
                 "members who sat at one game cannot be merged.")
@bp.doc(security=SECURITY)
def change_member(args: dict[str, Any], slug: str, member_id: int) -> Any:
    """Rename a member, give them more names, or merge them into another

    No stored log changes: only which member a seat belongs to.
    """
    session, group, _ = opened(slug, "write", doing="Changing a member")
    member = attempt(group_members.member_of, session, group, member_id)
    if "merge_into" in args:
        into = attempt(group_members.member_of, session, group, args["merge_into"],
                       path="/merge_into")
        member = attempt(group_members.merge, session, group, member, into=into)
        ratings.schedule(session, group, later=later())
    if "name" in args:
        attempt(group_members.rename, session, group, member, args["name"])
    for alias in args.get("add_aliases", []):
        attempt(group_members.add_alias, session, group, member, alias)
    return member_view(session, member)


def token_view(token: GroupToken) -> dict[str, Any]:
    return {"id": token.id, "name": token.name, "scopes": token.scopes.split(),
            "created_at": token.created_at, "revoked_at": token.revoked_at}


@bp.route("/<string:slug>/tokens")
class Tokens(MethodView):
    @bp.response(200, TokensSchema)
    @bp.alt_response(403, schema=ErrorSchema, description="Not the admin token.")
    @bp.doc(security=SECURITY)
    def get(self, slug: str) -> Any:
        """A group's API tokens (admin token), revoked ones too"""
        session, group, _ = opened(slug, "admin", doing="Listing the tokens")
        return {"tokens": [token_view(t) for t in group_access.list_tokens(session, group)]}

    @bp.arguments(NewTokenSchema)
    @bp.response(201, CreatedTokenSchema, description="The token is shown this once.")
    @bp.alt_response(403, schema=ErrorSchema, description="Not the admin token.")
    @bp.doc(security=SECURITY)
    def post(self, args: dict[str, Any], slug: str) -> Any:
        """Make an API token for a data user (admin token): named, with scopes"""
        session, group, _ = opened(slug, "admin", doing="Making a token")
        made = attempt(group_access.create_token, session, group, name=args["name"],
                       scopes=args["scopes"])
        return {**token_view(made.token), "token": made.secret}, 201


@bp.route("/<string:slug>/tokens/<int:token_id>", methods=["DELETE"])
@bp.response(204)
@bp.alt_response(403, schema=ErrorSchema, description="Not the admin token.")
@bp.alt_response(404, schema=ErrorSchema, description="No such token in this group.")
@bp.doc(security=SECURITY)
def revoke(slug: str, token_id: int) -> Any:
    """Revoke an API token (admin token): refused from the next request on"""
    session, group, _ = opened(slug, "admin", doing="Revoking a token")
    attempt(group_access.revoke_token, session, group, token_id)
    return ""


"""A group's pages (docs/groups.md), server-rendered, no script: ``/g/<slug>`` (games, members,
leaderboards, what awaits sign-off or is disputed, the names to ask, recent activity) and
``/g/<slug>/p/<member>`` (a member's games, statistics, rating chart, head-to-head, streaks).

The invite link (``/g/<slug>/join?key=…``) keeps its key in a cookie of this phone, limited to
the group's pages (``Path=/g/<slug>``, ``HttpOnly``, ``SameSite=Lax``) and sends it on to the
group page without the key in the address: the phone is a member from then on. A private group
without it answers as if it did not exist."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, redirect, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from ..db.groups import Group, GroupGame, Member
from ..db.session import get_session
from ..groups import access, games, members, ratings, stats
from ..groups.errors import Refused
from ..queue import broker_url
from ..tables import qr, signoff
from .charts import rating_chart
from .lang import current as current_lang
from .views import bp, render_page

COOKIE_DAYS = 400


COOKIE = "group_key"  # one per group: its path is the group's pages


def _open(slug: str, need: str = "read") -> tuple[Any, Group, access.Access]:
    session = get_session()
    try:
        group = access.find_group(session, slug)
        allowed = access.authorize(session, group, invite_key=request.cookies.get(COOKIE))
        allowed.require(need, doing="This page")
    except Refused:
        abort(404)
    return session, group, allowed


@bp.post("/g")
def create_group() -> BaseResponse | str:
    """The home page's form: a new group; its admin token and invite link shown once."""
    session = get_session()
    try:
        made = access.create_group(session, name=request.form.get("name", ""),
                                   private=request.form.get("public") != "on")
    except Refused:
        return Response(render_page("web/group_created.html", made=None), status=422)
    invite = url_for("web.join_group", slug=made.group.slug, key=made.invite_key, _external=True)
    page = render_page("web/group_created.html", made=made, invite=invite,
                       qr_svg=qr.svg(invite, title=_("Join %(name)s", name=made.group.name)))
    response = Response(page)
    _remember(response, made.group.slug, made.invite_key)
    response.headers["Cache-Control"] = "no-store"
    return response


def _remember(response: BaseResponse, slug: str, key: str) -> None:
    response.set_cookie(COOKIE, key, max_age=COOKIE_DAYS * 86400, path=f"/g/{slug}",
                        httponly=True, samesite="Lax", secure=request.is_secure)


@bp.get("/g/<string:slug>/join")
def join_group(slug: str) -> BaseResponse:
    key = request.args.get("key", "")
    session = get_session()
    try:
        group = access.find_group(session, slug)
        allowed = access.authorize(session, group, invite_key=key)
    except Refused:
        abort(404)
    if allowed.via != "invite":
        abort(404)
    response = redirect(url_for("web.group_page", slug=slug))
    _remember(response, slug, key)
    return response


def _fresh(session: Any, group: Group) -> None:
    ratings.ensure_fresh(session, group, queued=broker_url() is not None)


def _activity(session: Any, group: Group, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The newest happenings: games added and members who joined."""
    joined = session.scalars(select(Member).where(Member.group_id == group.id)
                             .order_by(Member.created_at.desc()).limit(10)).all()
    added = session.execute(select(GroupGame.added_at, GroupGame.game_id).where(
        GroupGame.group_id == group.id).order_by(GroupGame.added_at.desc()).limit(10)).all()
    by_id = {r["record"].id: r["record"] for r in rows}
    events = [{"when": m.created_at, "text": _("%(name)s joined", name=m.name)} for m in joined]
    events += [{"when": when, "text": _("a game was added"), "game": by_id.get(game_id)}
               for when, game_id in added]
    return sorted(events, key=lambda e: e["when"], reverse=True)[:10]


@bp.get("/g/<string:slug>")
def group_page(slug: str) -> str:
    session, group, allowed = _open(slug)
    _fresh(session, group)
    rows = stats.game_rows(session, group, limit=30)
    tables = signoff.stored(session, [r["record"].slug for r in rows], current_lang())
    pending = [r for r in rows if r["record"].slug in tables and (
        tables[r["record"].slug]["signoff"]["disputes"] or
        tables[r["record"].slug]["signoff"]["waiting"])]
    asked = games.awaiting_names(session, group, limit=10)
    boards = {board: stats.leaderboard(session, group, board)
              for board in stats.boards(session, group)}
    people = members.members(session, group)
    return render_page("web/group.html", group=group, rows=rows, tables=tables, pending=pending,
                       asked=[(g, games.seats_of(session, g)) for g in asked], boards=boards,
                       members=people, activity=_activity(session, group, rows),
                       can_write=allowed.write)


@bp.post("/g/<string:slug>/members")
def group_add_member(slug: str) -> BaseResponse:
    session, group, _allowed = _open(slug, "write")
    try:
        members.add_member(session, group, name=request.form.get("name", ""))
    except Refused:
        pass  # shown as it is: the list does not change
    return redirect(url_for("web.group_page", slug=slug) + "#members", code=303)


@bp.post("/g/<string:slug>/names/<string:ref>")
def group_map_names(slug: str, ref: str) -> BaseResponse:
    """The group page's question: who sat at each unknown seat of a game."""
    session, group, _allowed = _open(slug, "write")
    from ..store.lookups import find_by_slug

    record = find_by_slug(session, ref)
    if record is None:
        abort(404)
    mapping: dict[str, int | None] = {}
    for seat in games.seats_of(session, record):
        value = request.form.get(f"seat-{seat.position}", "")
        if value.isdigit():
            mapping[seat.name] = int(value)
    try:
        games.map_names(session, group, record, mapping)
        schedule_ratings(session, group)
    except Refused:
        pass
    return redirect(url_for("web.group_page", slug=slug) + "#asked", code=303)


def schedule_ratings(session: Any, group: Group) -> None:
    """After a change: the ratings recomputed on a worker (a broker is set) or here."""
    from ..api.groups import later

    ratings.schedule(session, group, later=later())


@bp.get("/g/<string:slug>/p/<int:member_id>")
def member_page(slug: str, member_id: int) -> BaseResponse | str:
    session, group, _allowed = _open(slug)
    try:
        member = members.member_of(session, group, member_id)
    except Refused:
        abort(404)
    if member.id != member_id:  # merged: the page of the member it became
        return redirect(url_for("web.member_page", slug=slug, member_id=member.id), code=301)
    _fresh(session, group)
    return stats.kept(group, ("page", member.id, current_lang()),
                      lambda: _member_page(session, group, member))


def _member_page(session: Any, group: Group, member: Member) -> str:
    charts = []
    for board, points in stats.histories(session, group, member, limit=500).items():
        if points:
            charts.append({"board": board, "now": points[-1], "count": len(points),
                           "svg": rating_chart(points, title=_("%(name)s's rating on %(board)s",
                                                             name=member.name, board=board),
                                               label=_("games in played order"))})
    played = stats.member_games(session, group, member, limit=50)
    tables = signoff.stored(session, [r.slug for r, _ in played], current_lang())
    disputed = [r for r, _ in played if r.slug in tables and tables[r.slug]["signoff"]["disputes"]]
    return render_page("web/group_member.html", group=group, member=member,
                       aliases=members.aliases_of(session, member),
                       stats=stats.member_stats(session, group, member), charts=charts,
                       h2h=stats.head_to_head(session, group, member),
                       streaks=stats.streaks(session, group, member), played=played,
                       tables=tables, disputed=disputed)

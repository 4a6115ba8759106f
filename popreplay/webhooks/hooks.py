"""A group's hooks: made (a checked URL, at most ``MAX_HOOKS``, the secret shown once), listed,
deleted; a hook's delivery log; a test event. Managed by the group's admin token or one of its
API tokens with the write scope (:func:`require_manager`); never with the invite key, which every
member's phone holds."""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from typing import Any, Sequence
from urllib.parse import urlsplit

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..db.groups import Group
from ..db.session import sqlite_writer
from ..db.types import db_text, utcnow
from ..db.webhooks import Webhook, WebhookDelivery
from ..groups.errors import Refused
from .delivery import event_body, send

__all__ = ["MAX_HOOKS", "Made", "check_url", "create_hook", "deliveries", "delete_hook",
           "list_hooks", "require_manager", "send_test"]

MAX_HOOKS = 10  # hooks of one group
MAX_URL = 2000
LOOPBACK_NAMES = ("localhost",)


@dataclass(frozen=True, slots=True)
class Made:
    hook: Webhook
    secret: str  # shown this once


def require_manager(access: Any) -> None:
    """The admin token, or an API token with the write scope (``groups.access.Access``)."""
    if not (access.admin or (access.via == "token" and access.write)):
        raise Refused(403, "forbidden", "Managing webhooks needs the group's admin token or an "
                      "API token with the write scope.")


def _loopback(host: str) -> bool:
    if host.casefold() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_url(url: str, *, loopback: bool) -> str:
    """``url`` when a hook may post to it: ``https://`` to a host that is not an address of a
    private, loopback or reserved network; ``http://`` or ``https://`` to a loopback host only
    with ``loopback`` (``POPREPLAY_WEBHOOK_LOOPBACK``, tests and development)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        host, _ = parts.hostname or "", parts.port
    except ValueError:
        host, parts = "", None
    if parts is None or len(url) > MAX_URL or parts.scheme not in ("http", "https") or not host \
            or parts.username or parts.password or parts.fragment or any(c.isspace() for c in url):
        raise Refused(422, "bad-url", f"A webhook's URL is an https:// address of at most "
                      f"{MAX_URL} characters, without credentials or fragment.", path="/url")
    if _loopback(host):
        if loopback:
            return url
        raise Refused(422, "bad-url", "A webhook cannot post to this server's own machine "
                      "(allowed only in tests and development: POPREPLAY_WEBHOOK_LOOPBACK).",
                      path="/url")
    if parts.scheme != "https":
        raise Refused(422, "bad-url", "A webhook's URL starts with https:// (plain http only "
                      "to a loopback address in tests and development).", path="/url")
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return url
    if not address.is_global:
        raise Refused(422, "bad-url", "A webhook cannot post to a private or reserved address.",
                      path="/url")
    return url


def create_hook(session: Session, group: Group, *, url: str, loopback: bool) -> Made:
    url = check_url(db_text(url), loopback=loopback)
    if len(list_hooks(session, group)) >= MAX_HOOKS:
        raise Refused(409, "too-many-webhooks", f"A group has at most {MAX_HOOKS} webhooks: "
                      "delete one first.")
    secret = "whsec_" + secrets.token_urlsafe(32)
    hook = Webhook(group_id=group.id, url=url, secret=secret, created_at=utcnow())
    with sqlite_writer(session):
        session.add(hook)
        session.commit()
    return Made(hook, secret)


def list_hooks(session: Session, group: Group) -> list[Webhook]:
    return list(session.scalars(select(Webhook).where(Webhook.group_id == group.id)
                                .order_by(Webhook.id)).all())


def hook_of(session: Session, group: Group, hook_id: int) -> Webhook:
    hook = session.get(Webhook, hook_id) if 0 < hook_id < 2**31 else None
    if hook is None or hook.group_id != group.id:
        raise Refused(404, "no-webhook", f"This group has no webhook {hook_id}.")
    return hook


def delete_hook(session: Session, group: Group, hook_id: int) -> None:
    """The hook and its delivery log go; deliveries under way stop at their next attempt."""
    hook = hook_of(session, group, hook_id)
    with sqlite_writer(session):
        session.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id == hook.id))
        session.delete(hook)
        session.commit()


def deliveries(session: Session, group: Group, hook_id: int, *,
               limit: int = 50) -> Sequence[WebhookDelivery]:
    """A hook's latest deliveries, newest first."""
    hook = hook_of(session, group, hook_id)
    return session.scalars(select(WebhookDelivery).where(WebhookDelivery.webhook_id == hook.id)
                           .order_by(WebhookDelivery.id.desc()).limit(limit)).all()


def last_states(session: Session, hooks: Sequence[Webhook]) -> dict[int, str]:
    """Each hook's latest delivery state (none: never sent)."""
    if not hooks:
        return {}
    latest = select(func.max(WebhookDelivery.id)).where(
        WebhookDelivery.webhook_id.in_([h.id for h in hooks])).group_by(WebhookDelivery.webhook_id)
    return dict(session.execute(select(WebhookDelivery.webhook_id, WebhookDelivery.state).where(
        WebhookDelivery.id.in_(latest))).all())


def send_test(session: Session, group: Group, hook_id: int) -> WebhookDelivery:
    """A ``ping`` event to this hook alone, delivered like any other: its delivery."""
    hook = hook_of(session, group, hook_id)
    body = event_body("ping", group, None, {"webhook": hook.id})
    [delivery_id] = send(session, [hook], body)
    delivery = session.get(WebhookDelivery, delivery_id)
    assert delivery is not None
    return delivery

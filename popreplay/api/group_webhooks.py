"""``/api/v1/groups/<slug>/webhooks``: a group's webhooks, their delivery logs and a test event
(docs/webhooks.md): routes of ``groups.bp``. Managed by the group's admin token or an API token
with the write scope; the views turn HTTP into calls to ``popreplay.webhooks.hooks``."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from ..db.webhooks import Webhook, WebhookDelivery
from ..webhooks import hooks
from ..webhooks.delivery import EVENTS, MAX_ATTEMPTS
from .groups import SECURITY, attempt, bp, opened
from .schemas import ErrorSchema


NOT_MANAGER = "Neither the admin token nor a token with the write scope."


class NewWebhookSchema(Schema):
    url = fields.String(required=True, validate=validate.Length(min=1, max=hooks.MAX_URL),
                        metadata={"description": "https:// (http:// to a loopback host only "
                                  "in tests and development: POPREPLAY_WEBHOOK_LOOPBACK)"})


class TestEventSchema(Schema):
    """An empty object (``{}``): a write's body is JSON (api/guard.py)."""


class WebhookSchema(Schema):
    id = fields.Integer()
    url = fields.String()
    created_at = fields.DateTime()
    last_delivery = fields.String(allow_none=True, metadata={
        "description": "the state of its latest delivery: pending, delivered, failed (null: "
                       "none yet)"})


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(metadata={"description": "signs every delivery "
                                     "(`Popreplay-Signature`); shown this once"})
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)))


class WebhooksSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema))


class DeliverySchema(Schema):
    id = fields.Integer()
    event_id = fields.String()
    event = fields.String(validate=validate.OneOf(EVENTS))
    state = fields.String(validate=validate.OneOf(("pending", "delivered", "failed")))
    attempts = fields.Integer(metadata={"description": f"at most {MAX_ATTEMPTS}"})
    response_code = fields.Integer(allow_none=True, metadata={
        "description": "the receiver's HTTP status at the latest attempt (null: no answer)"})
    last_error = fields.String(allow_none=True)
    created_at = fields.DateTime()
    last_attempt_at = fields.DateTime(allow_none=True)
    next_at = fields.DateTime(allow_none=True, metadata={"description": "when it is tried "
                                                         "again (pending only)"})


class DeliveriesSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema))


def hook_view(hook: Webhook, last: str | None) -> dict[str, Any]:
    return {"id": hook.id, "url": hook.url, "created_at": hook.created_at, "last_delivery": last}


def delivery_view(row: WebhookDelivery) -> dict[str, Any]:
    return {"id": row.id, "event_id": row.event_id, "event": row.event, "state": row.state,
            "attempts": row.attempts, "response_code": row.response_code,
            "last_error": row.last_error, "created_at": row.created_at,
            "last_attempt_at": row.last_attempt_at, "next_at": row.next_at}


def managed(slug: str, doing: str) -> Any:
    session, group, allowed = opened(slug, "read", doing=doing)
    attempt(hooks.require_manager, allowed)
    return session, group


@bp.route("/<string:slug>/webhooks")
class Webhooks(MethodView):
    @bp.response(200, WebhooksSchema)
    @bp.alt_response(403, schema=ErrorSchema, description=NOT_MANAGER)
    @bp.doc(security=SECURITY)
    def get(self, slug: str) -> Any:
        """A group's webhooks (never their secrets)"""
        session, group = managed(slug, "Listing the webhooks")
        found = hooks.list_hooks(session, group)
        last = hooks.last_states(session, found)
        return {"webhooks": [hook_view(h, last.get(h.id)) for h in found]}

    @bp.arguments(NewWebhookSchema)
    @bp.response(201, CreatedWebhookSchema, description="The secret is shown this once.")
    @bp.alt_response(403, schema=ErrorSchema, description=NOT_MANAGER)
    @bp.alt_response(409, schema=ErrorSchema, description="The group has as many webhooks as "
                     "it may.")
    @bp.alt_response(422, schema=ErrorSchema, description="A URL that is not https://, or "
                     "names a private or loopback address.")
    @bp.doc(security=SECURITY)
    def post(self, args: dict[str, Any], slug: str) -> Any:
        """Add a webhook: the group's events are posted to its URL, signed with its secret"""
        session, group = managed(slug, "Adding a webhook")
        made = attempt(hooks.create_hook, session, group, url=args["url"],
                       loopback=bool(current_app.config.get("WEBHOOK_LOOPBACK")))
        return {**hook_view(made.hook, None), "secret": made.secret, "events": list(EVENTS)}, 201


@bp.route("/<string:slug>/webhooks/<int:hook_id>", methods=["DELETE"])
@bp.response(204)
@bp.alt_response(404, schema=ErrorSchema, description="No such webhook in this group.")
@bp.alt_response(403, schema=ErrorSchema, description=NOT_MANAGER)
@bp.doc(security=SECURITY)
def delete_webhook(slug: str, hook_id: int) -> Any:
    """Delete a webhook and its delivery log"""
    session, group = managed(slug, "Deleting a webhook")
    attempt(hooks.delete_hook, session, group, hook_id)
    return ""


@bp.route("/<string:slug>/webhooks/<int:hook_id>/deliveries", methods=["GET"])
@bp.response(200, DeliveriesSchema)
@bp.alt_response(404, schema=ErrorSchema, description="No such webhook in this group.")
@bp.alt_response(403, schema=ErrorSchema, description=NOT_MANAGER)
@bp.doc(security=SECURITY)
def webhook_deliveries(slug: str, hook_id: int) -> Any:
    """A webhook's latest deliveries, newest first: state, attempts, answer, last error"""
    session, group = managed(slug, "Reading a webhook's deliveries")
    rows = attempt(hooks.deliveries, session, group, hook_id)
    return {"deliveries": [delivery_view(row) for row in rows]}


@bp.route("/<string:slug>/webhooks/<int:hook_id>/test", methods=["POST"])
@bp.arguments(TestEventSchema)
@bp.response(202, DeliverySchema, description="The `ping` event is on its way: its delivery "
             "(follow it in the log).")
@bp.alt_response(404, schema=ErrorSchema, description="No such webhook in this group.")
@bp.alt_response(403, schema=ErrorSchema, description=NOT_MANAGER)
@bp.doc(security=SECURITY)
def test_webhook(_args: dict[str, Any], slug: str, hook_id: int) -> Any:
    """Send a test event (`ping`) to a webhook"""
    session, group = managed(slug, "Testing a webhook")
    return delivery_view(attempt(hooks.send_test, session, group, hook_id)), 202

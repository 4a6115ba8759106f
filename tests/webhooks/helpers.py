"""A group with a webhook to the test's receiver, made through the API."""

from __future__ import annotations

from typing import Any

from tests.webhooks.receiver import wait_until


def hooked(app: Any, client: Any, url: str, *, name: str = "Hook Club") -> dict[str, Any]:
    """A private group of Alice and Bruno with one webhook to ``url``: its slug, the admin's
    headers, the hook's id and secret. Retries come fast (0.05 s, doubled)."""
    app.config.update(WEBHOOK_LOOPBACK=True, WEBHOOK_RETRY=0.05, WEBHOOK_TIMEOUT=2.0)
    made = client.post("/api/v1/groups", json={"name": name, "members": ["Alice", "Bruno"]})
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    slug, headers = body["group"]["slug"], {"Authorization": f"Bearer {body['admin_token']}"}
    hook = client.post(f"/api/v1/groups/{slug}/webhooks", json={"url": url}, headers=headers)
    assert hook.status_code == 201, hook.get_json()
    return {"slug": slug, "headers": headers, "hook": hook.get_json()["id"],
            "secret": hook.get_json()["secret"], "invite": body["invite_key"]}


def deliveries(client: Any, made: dict[str, Any]) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/groups/{made['slug']}/webhooks/{made['hook']}/deliveries",
                        headers=made["headers"])
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["deliveries"]


def settled(client: Any, made: dict[str, Any], count: int = 1) -> list[dict[str, Any]]:
    """The delivery log once its latest ``count`` deliveries are no longer pending."""
    wait_until(lambda: len(found := deliveries(client, made)) >= count
               and all(d["state"] != "pending" for d in found[:count]),
               timeout=20, what="the deliveries to settle")
    return deliveries(client, made)

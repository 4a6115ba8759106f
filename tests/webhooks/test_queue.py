"""Webhooks with the broker (RabbitMQ of this machine; mandatory with CI=true): each attempt is
a task run by a real worker process (``popreplay worker``), a failed one enqueued again with its
backoff, and the same log as without a broker."""

from __future__ import annotations

import json

import pytest

from popreplay.webhooks import signing
from tests.conftest import simulated
from tests.queue.helpers import workers
from tests.webhooks.helpers import hooked, settled

pytestmark = pytest.mark.slow


def test_with_a_broker_a_worker_delivers_and_retries(app, client, receiver, queue_env,
                                                     tmp_path):
    env = {**queue_env, "POPREPLAY_WEBHOOK_LOOPBACK": "on", "POPREPLAY_WEBHOOK_RETRY": "0.2"}
    made = hooked(app, client, receiver.url)
    app.config.update(BROKER_URL=env["POPREPLAY_BROKER_URL"], QUEUE_NAME=env["POPREPLAY_QUEUE"])
    receiver.statuses[:] = [500]
    with workers(env, tmp_path, 1):
        answer = client.post(f"/api/v1/groups/{made['slug']}/games", headers=made["headers"],
                             json={"log": simulated("battle", 2, 5)})
        assert answer.status_code == 201
        got = receiver.wait_for(2, timeout=90)
        [logged] = settled(client, made)
    assert [json.loads(r.body)["type"] for r in got] == ["game.stored"] * 2
    assert got[0].body == got[1].body
    assert all(signing.verify(made["secret"], r.headers[signing.HEADER], r.body) for r in got)
    assert logged["state"] == "delivered" and logged["attempts"] == 2
    assert logged["response_code"] == 200

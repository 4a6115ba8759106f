"""With a broker the recompute goes to a worker (task ``popreplay.ratings``), and the API says the
ratings are not up to date meanwhile; the worker's task recomputes and records its progress."""

from __future__ import annotations

from popreplay.db.groups import Group
from popreplay.db.session import get_session
from popreplay.queue import worker
from tests.groups.helpers import club


def test_the_worker_task_recomputes_with_progress(app, monkeypatch):
    with app.app_context():
        made, _, _ = club(count=6)
        group_id = made.group.id
    monkeypatch.setattr(worker, "_app", app)
    assert worker.ratings_task(group_id) == "rated 6"
    with app.app_context():
        group = get_session().get(Group, group_id)
        assert group.stale_from is None and group.ratings_done == group.ratings_total == 6


def test_with_a_broker_the_api_hands_the_recompute_over(app, client, monkeypatch):
    sent = []
    monkeypatch.setattr(worker, "enqueue", lambda broker, name, *args: sent.append((name, args)))
    app.config["BROKER_URL"] = "amqp://127.0.0.1:5672//"
    made = client.post("/api/v1/groups", json={"name": "Queued", "members": ["Alice", "Bruno"]})
    body = made.get_json()
    headers = {"Authorization": f"Bearer {body['admin_token']}"}
    from tests.conftest import simulated

    client.post("/api/v1/groups/queued/games", headers=headers,
                json={"log": simulated("battle", 2, 4)})
    assert sent and sent[-1][0] == "popreplay.ratings"
    boards = client.get("/api/v1/groups/queued/leaderboards", headers=headers).get_json()
    assert boards["ratings"]["up_to_date"] is False and boards["boards"] == []

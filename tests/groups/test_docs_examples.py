"""docs/api.md's Python example of pulling a group's history runs as written against the app
(httpx through its WSGI transport), only the address and the token changed."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import httpx

from tests.groups.helpers import club

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_the_python_pull_of_a_group_runs(app, client, monkeypatch):
    code = re.search(r"<!-- example: group-python -->\n```python\n(.*?)```",
                     DOC.read_text("utf-8"), re.S).group(1)
    with app.app_context():
        made, _, _ = club(count=7)
        slug, admin = made.group.slug, made.admin_token
    token = client.post(f"/api/v1/groups/{slug}/tokens", json={"name": "doc", "scopes": ["read"]},
                        headers={"Authorization": f"Bearer {admin}"}).get_json()["token"]
    code = code.replace("http://127.0.0.1:8000/api/v1/groups/cafe-du-jeudi",
                        f"http://localhost/api/v1/groups/{slug}").replace('"grp_..."',
                                                                          repr(token))
    code = code.replace('"limit": 500', '"limit": 3')  # several pages
    real = httpx.Client
    monkeypatch.setattr(httpx, "Client", lambda **kw: real(
        transport=httpx.WSGITransport(app=app), **kw))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/api.md", "exec"), {})
    assert out.getvalue().startswith("7 games; [('pop/battle', ")

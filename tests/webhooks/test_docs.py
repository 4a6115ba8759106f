"""docs/webhooks.md's receiver check runs as written on a real delivery, only the secret filled
in: it accepts the delivery, refuses it tampered with, and refuses it signed 10 minutes ago."""

from __future__ import annotations

import re
from pathlib import Path

from popreplay.webhooks import signing
from tests.webhooks.helpers import hooked

DOC = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


def test_the_documented_check_verifies_a_real_delivery(app, client, receiver):
    code = re.search(r"<!-- example: webhook-verify -->\n```python\n(.*?)```",
                     DOC.read_text("utf-8"), re.S).group(1)
    made = hooked(app, client, receiver.url)
    client.post(f"/api/v1/groups/{made['slug']}/webhooks/{made['hook']}/test",
                headers=made["headers"], json={})
    [got] = receiver.wait_for(1)
    space: dict = {}
    exec(compile(code.replace('b"whsec_..."', repr(made["secret"].encode())), "docs/webhooks.md",
                 "exec"), space)
    header = got.headers["Popreplay-Signature"]
    assert space["verified"](header, got.body) is True
    assert space["verified"](header, got.body.replace(b"ping", b"pong")) is False
    old = signing.sign(made["secret"], got.body, now=signing.time.time() - 600)
    assert space["verified"](old, got.body) is False
    assert space["verified"]("t=x,v1=00", got.body) is False

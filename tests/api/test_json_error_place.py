"""Issue 16: a JSON syntax error's line and column count characters as people see them (code
points: an emoji before the error is one column), the same on every way in: upload, validation
(JSON and NDJSON) and the command line."""

from __future__ import annotations

import json

LINE = '{"format": "popreplay/1", "players": ["\U0001F600 Zo\u00e9", "\U0001F3B2\U0001F3B2"] x}'
COLUMN = LINE.index(" x") + 2  # 1-based, in code points
WHERE = f"at line 1, column {COLUMN}."


def test_upload_and_validation_count_code_points(client):
    assert COLUMN == 54 and len(LINE[:COLUMN - 1].encode("utf-16-le")) // 2 == COLUMN - 1 + 3
    raw = LINE.encode("utf-8")
    upload = client.post("/api/v1/games", data=raw, content_type="application/json")
    assert upload.status_code == 422
    assert upload.get_json()["errors"][0]["message"].endswith(WHERE)
    checked = client.post("/api/v1/validate", data=raw, content_type="application/json")
    assert checked.get_json()["errors"][0]["message"].endswith(WHERE)
    lines = client.post("/api/v1/validate", data=b"{}\n" + raw + b"\n",
                        content_type="application/x-ndjson")
    second = json.loads(lines.data.split(b"\n")[1])
    assert second["line"] == 2 and second["errors"][0]["message"].endswith(WHERE)


def test_the_command_line_counts_code_points(runner, tmp_path):
    path = tmp_path / "emoji.json"
    path.write_text(LINE, "utf-8")
    shown = runner.invoke(["validate", "--json", str(path)])
    assert shown.exit_code == 2
    assert json.loads(shown.stdout)["errors"][0]["message"].endswith(WHERE)

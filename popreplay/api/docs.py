"""``GET /api/v1/docs``: the OpenAPI document as one self-contained HTML page (no script, no CDN:
it works offline)."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from flask import Blueprint, Response, current_app

bp = Blueprint("api_docs", __name__)

METHODS = ("get", "post", "put", "patch", "delete")

STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2.5rem}
section.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4.5rem;font-weight:bold;text-transform:uppercase}
.get{color:#0a6}.post{color:#06c}.delete{color:#c30}
code,pre{background:#f5f5f5;border-radius:4px}pre{padding:.5rem;overflow:auto;font-size:13px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
"""


def _spec() -> dict[str, Any]:
    return current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()


def render(spec: dict[str, Any]) -> str:
    info = spec.get("info", {})
    parts = ["<!doctype html><html lang=en><meta charset=utf-8>",
             f"<title>{escape(info.get('title', 'API'))} API</title><style>{STYLE}</style>",
             (f"<h1>{escape(info.get('title', ''))} API "
              f"<small>{escape(info.get('version', ''))}</small></h1>"),
             ("<p>Machine-readable: <a href=openapi.json><code>/api/v1/openapi.json</code></a> "
              "(OpenAPI 3). Every error has the shape <a href=#schema-Error><code>Error</code></a>"
              " below.</p>")]
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                parts.append(_operation(path, method, item[method], spec))
    parts.append("<h2>Schemas</h2>")
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        parts.append(f"<h3 id=schema-{escape(name)}>{escape(name)}</h3>"
                     f"<pre>{escape(json.dumps(schema, indent=1, ensure_ascii=False))}</pre>")
    return "".join(parts)


def _operation(path: str, method: str, op: dict[str, Any], spec: dict[str, Any]) -> str:
    html = [(f"<section class=op><h3><span class='method {method}'>{method}</span> "
             f"<code>{escape(path)}</code> — {escape(op.get('summary', ''))}</h3>")]
    if op.get("description"):
        html.append(f"<p>{escape(op['description'])}</p>")
    params = op.get("parameters", [])
    if params:
        html.append("<table><tr><th>parameter</th><th>in</th><th>type</th><th>about</th></tr>")
        for p in params:
            schema = p.get("schema", {})
            kind = schema.get("type", "") + (f" ({', '.join(map(str, schema['enum']))})"
                                             if "enum" in schema else "")
            html.append(f"<tr><td><code>{escape(p['name'])}</code></td><td>{escape(p['in'])}</td>"
                        f"<td>{escape(kind)}</td><td>{escape(p.get('description', ''))}</td></tr>")
        html.append("</table>")
    body = op.get("requestBody")
    if body:
        html.append(f"<p><b>Body</b> ({escape(', '.join(body.get('content', {})))}): "
                    f"{escape(body.get('description', ''))}</p>")
    html.append("<ul>")
    shared = spec.get("components", {}).get("responses", {})
    for status, response in sorted(op.get("responses", {}).items()):
        if "$ref" in response:
            response = shared.get(response["$ref"].rsplit("/", 1)[-1], {})
        ref = _schema_ref(response)
        link = f" — <a href='#schema-{escape(ref)}'>{escape(ref)}</a>" if ref else ""
        html.append(f"<li><b>{escape(str(status))}</b> {escape(response.get('description', ''))}"
                    f"{link}</li>")
    html.append("</ul></section>")
    return "".join(html)


def _schema_ref(response: dict[str, Any]) -> str:
    for content in response.get("content", {}).values():
        ref = content.get("schema", {}).get("$ref", "")
        if ref:
            return ref.rsplit("/", 1)[-1]
    return ""


@bp.route("/api/v1/docs")
def docs() -> Response:
    return Response(render(_spec()), mimetype="text/html")

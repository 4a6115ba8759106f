"""``GET /api/v1/docs``: the OpenAPI document as one self-contained HTML page (no script, no CDN:
it works offline; phone-first, code scrolls inside its box).

Everything shown comes from the document the app builds: allowed values (``enum``) of parameters
and fields, descriptions (Markdown, rendered by markdown-it-py with raw HTML off, so stored text
cannot inject markup), and one example request and answer per operation (``x-example``, attached
here from ``examples.py`` and replayed by ``tests/api/test_docs_page.py``).
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from flask import Blueprint, Response, current_app
from flask_babel import get_locale
from flask_babel import gettext as _
from markdown_it import MarkdownIt

from .examples import EXAMPLES

bp = Blueprint("api_docs", __name__)

METHODS = ("get", "post", "put", "patch", "delete")
MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False})

STYLE = """
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:.5rem .75rem;
color:#222;overflow-wrap:break-word}
h1{font-size:1.5rem}h2{border-bottom:1px solid #ccc;margin-top:2rem;font-size:1.25rem}
h3{font-size:1.05rem}h4{margin:.75rem 0 .25rem}
section.op{border:1px solid #ddd;border-radius:6px;padding:.25rem .75rem;margin:1rem 0}
.method{display:inline-block;min-width:4rem;font-weight:bold;text-transform:uppercase}
.get{color:#046335}.post{color:#0553a5}.put{color:#6b4400}.delete{color:#a32100}
code,pre{background:#f3f3f3;border-radius:4px;font-size:13px}
pre{padding:.5rem;overflow-x:auto;max-width:100%;white-space:pre;overflow-wrap:normal}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.2rem .4rem;
text-align:left;vertical-align:top}td p,li p{margin:0}td:first-child{white-space:nowrap}
.enum code{display:inline-block;margin:1px}
"""


def _api() -> Any:
    return current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"]


def _spec() -> dict[str, Any]:
    return _api().spec.to_dict()


@bp.record_once
def attach(state: Any) -> None:
    """Put each example on its operation of the app's OpenAPI document (``x-example``)."""
    paths = state.app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec._paths
    for example in EXAMPLES:
        operation = paths[example["path"]][example["method"]]
        operation["x-example"] = {"title": example["title"], "request": example["request"],
                                  "response": example["response"]}


def md(text: str, *, inline: bool = False) -> str:
    if not text:
        return ""
    return MARKDOWN.renderInline(text) if inline else MARKDOWN.render(text)


def _enum(schema: dict[str, Any]) -> str:
    values = schema.get("enum") or schema.get("items", {}).get("enum")
    if not values:
        return ""
    return ("<div class=enum>" + escape(_("one of:")) + " "
            + " ".join(f"<code>{escape(json.dumps(v, ensure_ascii=False))}</code>" for v in values)
            + "</div>")


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"<a href='#schema-{escape(name)}'>{escape(name)}</a>"
    if schema.get("type") == "array":
        return escape(_("array of")) + f" {_type(schema.get('items', {}))}"
    kind = escape(str(schema.get("type", "any")))
    if schema.get("format"):
        kind += f" ({escape(schema['format'])})"
    if schema.get("nullable"):
        kind += " " + escape(_("or null"))
    return kind


def _default(schema: dict[str, Any]) -> str:
    if "default" not in schema:
        return ""
    word = escape(_("default"))
    return f"<div>{word} <code>{escape(json.dumps(schema['default'], ensure_ascii=False))}</code></div>"


def render(spec: dict[str, Any]) -> str:
    info = spec.get("info", {})
    lang = str(get_locale() or "en")
    other, other_name = ("en", "English") if lang == "fr" else ("fr", "Français")
    parts = [f"<!doctype html><html lang={escape(lang)}><meta charset=utf-8>",
             "<meta name=viewport content='width=device-width,initial-scale=1'>",
             (f"<p class=lang-switch><a href='?lang={other}' hreflang={other} lang={other}>"
              f"{other_name}</a></p>"),
             f"<title>{escape(info.get('title', 'API'))} API</title><style>{STYLE}</style>",
             (f"<h1>{escape(info.get('title', ''))} API "
              f"<small>{escape(info.get('version', ''))}</small></h1>"),
             md(info.get("description", "")),
             "<p>" + _("Machine-readable: %(link)s (OpenAPI 3). Every error has the shape "
                       "%(error)s below. In the examples, %(origin)s is the service's address "
                       "and %(gap)s a part left out.",
                       link="<a href=openapi.json><code>/api/v1/openapi.json</code></a>",
                       error="<a href=#schema-Error><code>Error</code></a>",
                       origin="<code>{origin}</code>", gap="<code>\"…\"</code>") + "</p>",
             "<h2>" + escape(_("Operations")) + "</h2><ul>"]
    operations = [(path, method, item[method]) for path, item in spec.get("paths", {}).items()
                  for method in METHODS if method in item]
    for path, method, op in operations:
        parts.append(f"<li><a href='#{escape(_anchor(method, path))}'>{method.upper()} "
                     f"<code>{escape(path)}</code></a></li>")
    parts.append("</ul>")
    for path, method, op in operations:
        params = spec["paths"][path].get("parameters", []) + op.get("parameters", [])
        parts.append(_operation(path, method, op, params, spec))
    parts.append("<h2>" + escape(_("Schemas")) + "</h2>")
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        parts.append(_schema(name, schema))
    return "".join(parts)


def _anchor(method: str, path: str) -> str:
    return f"op-{method}-" + "".join(c if c.isalnum() else "-" for c in path).strip("-")


def _schema(name: str, schema: dict[str, Any]) -> str:
    html = [f"<h3 id=schema-{escape(name)}>{escape(name)}</h3>", md(schema.get("description", ""))]
    properties = schema.get("properties", {})
    required = set(schema.get("required", []))
    if properties:
        html.append("<div class=scroll tabindex=0><table><tr><th>" + escape(_("field")) + "</th><th>"
                    + escape(_("type")) + "</th><th>" + escape(_("about")) + "</th></tr>")
        for field, sub in properties.items():
            need = " <small>(" + escape(_("required")) + ")</small>" if field in required else ""
            html.append(f"<tr><td><code>{escape(field)}</code>{need}</td><td>{_type(sub)}</td>"
                        f"<td>{md(sub.get('description', ''), inline=True)}{_enum(sub)}"
                        f"{_default(sub)}</td></tr>")
        html.append("</table></div>")
    elif schema:
        html.append(f"<pre tabindex=0>{escape(json.dumps(schema, indent=1, ensure_ascii=False))}</pre>")
    return "".join(html)


def _operation(path: str, method: str, op: dict[str, Any], params: list[dict[str, Any]],
               spec: dict[str, Any]) -> str:
    html = [(f"<section class=op id='{escape(_anchor(method, path))}'><h3>"
             f"<span class='method {method}'>{method}</span> "
             f"<code>{escape(path)}</code></h3><p>{md(op.get('summary', ''), inline=True)}</p>")]
    html.append(md(op.get("description", "")))
    if params:
        html.append("<div class=scroll tabindex=0><table><tr><th>" + escape(_("parameter")) + "</th><th>"
                    + escape(_("type")) + "</th><th>" + escape(_("about")) + "</th></tr>")
        for p in params:
            schema = p.get("schema", {})
            need = " " + escape(_("required")) if p.get("required") else ""
            html.append(f"<tr><td><code>{escape(p['name'])}</code><br><small>{escape(p['in'])}"
                        f"{need}</small></td><td>{_type(schema)}</td>"
                        f"<td>{md(p.get('description', ''), inline=True)}{_enum(schema)}"
                        f"{_default(schema)}</td></tr>")
        html.append("</table></div>")
    body = op.get("requestBody")
    if body:
        kinds = []
        for content_type, content in body.get("content", {}).items():
            kinds.append(f"<code>{escape(content_type)}</code>"
                         + (f" {_type(content['schema'])}" if content.get("schema") else ""))
        html.append("<p><b>" + escape(_("Body")) + f"</b>: {', '.join(kinds)}</p>"
                    f"{md(body.get('description', ''))}")
    html.append("<h4>" + escape(_("Answers")) + "</h4><ul>")
    shared = spec.get("components", {}).get("responses", {})
    for status, response in sorted(op.get("responses", {}).items()):
        if "$ref" in response:
            response = shared.get(response["$ref"].rsplit("/", 1)[-1], {})
        ref = _schema_ref(response)
        link = f" — <a href='#schema-{escape(ref)}'>{escape(ref)}</a>" if ref else ""
        html.append(f"<li><b>{escape(str(status))}</b> "
                    f"{md(response.get('description', ''), inline=True)}{link}</li>")
    html.append("</ul>")
    example = op.get("x-example")
    if example:
        html.append(_example(example))
    html.append("</section>")
    return "".join(html)


def _example(example: dict[str, Any]) -> str:
    request, response = example["request"], example["response"]
    lines = [f"{request['method']} {request['url']}"]
    lines += [f"{name}: {value}" for name, value in request.get("headers", {}).items()]
    if request.get("body") is not None:
        lines += ["", json.dumps(request["body"], indent=1, ensure_ascii=False)]
    answer = [f"{response['status']}" + (f" ({response['content_type']})"
                                         if response.get("body") is not None
                                         or response.get("lines") or response.get("text")
                                         else "")]
    if response.get("lines"):
        answer += [json.dumps(line, ensure_ascii=False) for line in response["lines"]]
    elif response.get("text"):
        answer.append(response["text"].rstrip("\r\n"))
    elif response.get("body") is not None:
        answer.append(json.dumps(response["body"], indent=1, ensure_ascii=False))
    heading = escape(_("Example: %(title)s", title=example["title"]))
    return (f"<h4>{heading}</h4>"
            f"<pre class=request tabindex=0>{escape(chr(10).join(lines))}</pre>"
            f"<pre class=response tabindex=0>{escape(chr(10).join(answer))}</pre>")


def _schema_ref(response: dict[str, Any]) -> str:
    for content in response.get("content", {}).values():
        ref = content.get("schema", {}).get("$ref", "")
        if ref:
            return ref.rsplit("/", 1)[-1]
    return ""


@bp.route("/api/v1/docs")
def docs() -> Response:
    return Response(render(_spec()), mimetype="text/html")

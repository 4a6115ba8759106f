"""The rules pages: ``docs/rules/<game>.md`` (English) and ``docs/fr/rules/<game>.md`` (French)
served as HTML, so a replay can link the reader to every decision the engine applies.

- ``GET /rules`` and ``GET /fr/rules``: the list of rules pages.
- ``GET /rules/<game>``: the English page; ``GET /fr/rules/<game>`` the French one.
  ``/rules/<game>`` also serves French when the reader's language is French: ``?lang=fr``, or
  (once the pages' language choice, ``popreplay.web.lang``, is there) the ``lang`` cookie or
  ``Accept-Language``.
  ``/fr/rules/<game>`` is always French: it is the address to share.
- An unknown game answers 404 with the list of the rules pages.

The Markdown is installed with the package (``popreplay/docs`` is a link to the repository's
``docs/``; pyproject.toml lists the files as package data) and rendered by markdown-it-py with raw
HTML off, as the API docs page does. Links from one rules page to another (or to the French index)
become the served addresses; links to other documents of the repository (log formats) are not
served, so they are shown as their path in the repository; headings get ``id``s (``#cards``) so a
page can link to one decision.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import flask_babel
from flask import Blueprint, Response, g, url_for
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from ..games import KITS
from .lang import current as current_lang
from .views import SECURITY_HEADERS, _compress_pages, render_page

GAMES = tuple(KITS)  # the order of the lists: the registry's
LANGS = ("en", "fr")
DOCS = "docs"  # popreplay/docs -> ../docs


def source_path(game: str, lang: str) -> str:
    """The page's path under ``docs/`` (``rules/pop.md``, ``fr/rules/pop.md``)."""
    return f"rules/{game}.md" if lang == "en" else f"{lang}/rules/{game}.md"


def source(game: str, lang: str) -> Traversable:
    """The installed Markdown file of one rules page."""
    return files("popreplay").joinpath(DOCS, *source_path(game, lang).split("/"))


bp = Blueprint("rules", __name__, template_folder="templates")


bp.after_request(_compress_pages)  # gzip, as the viewer's pages (a rules page is 20-30 KiB)


@bp.after_request
def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():  # the pages' policy: base.html's style sheet
        response.headers.setdefault(name, value)
    return response


def reader_language() -> str:
    """The reader's language as every page chooses it (``?lang=``, cookie, ``Accept-Language``)."""
    return current_lang()


def speak(lang: str) -> None:
    """This page is in ``lang`` whatever the cookie says (``/fr/rules/…`` is French): the header,
    the footer and ``<html lang>`` (base.html) follow."""
    g._popreplay_lang = lang
    flask_babel.refresh()


def page_url(game: str | None, lang: str) -> str:
    """The served address of a rules page (``game`` None: the list)."""
    if game is None:
        return url_for("rules.index_fr") if lang == "fr" else url_for("rules.index")
    return (url_for("rules.page_fr", game=game) if lang == "fr"
            else url_for("rules.page", game=game))


@bp.app_template_global("rules_url")
def rules_url(game: str | None = None, lang: str | None = None,
              section: str | None = None) -> str | None:
    """For any page's template: the address of a game's rules page in ``lang`` (default: the
    page's language; ``section``: a heading's anchor), the list of pages when ``game`` is None,
    None for a game without a page."""
    if game is not None and game not in GAMES:
        return None
    if lang is None:
        lang = reader_language()
    url = page_url(game, lang if lang in LANGS else "en")
    return f"{url}#{section}" if section and game is not None else url


@bp.get("/rules")
def index() -> Any:
    return _index(reader_language())


@bp.get("/fr/rules")
def index_fr() -> Any:
    return _index("fr")


@bp.get("/rules/<game>")
def page(game: str) -> Any:
    return _page(game, reader_language())


@bp.get("/fr/rules/<game>")
def page_fr(game: str) -> Any:
    return _page(game, "fr")


def _index(lang: str) -> Any:
    speak(lang)
    return render_page("web/rules.html", lang=lang, game=None, missing=None, title=None,
                       body=None, other=page_url(None, _other(lang)), pages=_pages(lang))


def _page(game: str, lang: str) -> Any:
    speak(lang)
    if game not in GAMES:
        return render_page("web/rules.html", lang=lang, game=None, missing=game, title=None,
                           body=None, other=None, pages=_pages(lang)), 404
    title, body = rendered(game, lang)
    return render_page("web/rules.html", lang=lang, game=game, missing=None, title=title,
                       body=Markup(body), other=page_url(game, _other(lang)), pages=_pages(lang))


def _other(lang: str) -> str:
    return "en" if lang == "fr" else "fr"


def _pages(lang: str) -> list[dict[str, str]]:
    return [{"game": g, "title": str(KITS[g].title), "url": page_url(g, lang)} for g in GAMES]


# --- Markdown ------------------------------------------------------------------------------------

MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def slug(text: str) -> str:
    """A heading's anchor: lower case, accents dropped, words joined by ``-`` (``## 5. Steps and
    colours`` → ``5-steps-and-colours``; ``## Cartes cachées`` → ``cartes-cachees``)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def heading_text(tokens: list[Token], index: int) -> str:
    """The plain text of the heading opened at ``tokens[index]``."""
    inline = tokens[index + 1]
    return "".join(child.content for child in inline.children or []
                   if child.type in ("text", "code_inline"))


def link_target(href: str, here: str) -> tuple[str | None, str | None]:
    """Where a relative link of the page at ``docs/<here>`` goes: ``(served URL, None)`` for a
    rules page or the French index, ``(None, repository path)`` for another file of the
    repository, ``(href, None)`` for anything else (an anchor, an absolute URL)."""
    if not href or href.startswith("#") or re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I):
        return href, None
    path, _, anchor = href.partition("#")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(here), path))
    suffix = f"#{anchor}" if anchor else ""
    for lang in LANGS:
        for game in GAMES:
            if resolved == source_path(game, lang):
                return page_url(game, lang) + suffix, None
    if resolved in ("fr/README.md", "fr/rules", "rules"):
        return page_url(None, "fr" if resolved.startswith("fr") else "en") + suffix, None
    return None, ("docs/" + resolved if not resolved.startswith("..") else
                  posixpath.normpath(posixpath.join("docs", resolved)))


def render_markdown(text: str, here: str) -> tuple[str, str]:
    """``(title, HTML)`` of a rules page whose source is ``docs/<here>``: the title is the first
    level-1 heading (left out of the HTML, the template shows it)."""
    tokens = MARKDOWN.parse(text)
    title = ""
    seen: dict[str, int] = {}
    out: list[Token] = []
    skip_to = -1
    for i, token in enumerate(tokens):
        if i <= skip_to:
            continue
        if token.type == "heading_open":
            text_of = heading_text(tokens, i)
            if token.tag == "h1" and not title:
                title = text_of
                skip_to = i + 2  # the inline and heading_close
                if _language_line(tokens, i + 3):
                    skip_to = i + 5  # the page's nav links to the other language already
                continue
            anchor = slug(text_of) or "section"
            seen[anchor] = seen.get(anchor, 0) + 1
            if seen[anchor] > 1:
                anchor = f"{anchor}-{seen[anchor]}"
            token.attrSet("id", anchor)
        if token.type == "inline" and token.children:
            token.children = _links(token.children, here)
        out.append(token)
    html = MARKDOWN.renderer.render(out, MARKDOWN.options, {})
    html = html.replace("<table>", '<div class="table-scroll"><table>').replace(
        "</table>", "</table></div>")  # raw HTML is off: these tags come from Markdown tables
    return title, html


def _language_line(tokens: list[Token], index: int) -> bool:
    """Whether ``tokens[index]`` opens the line under the title that links to the page in the
    other language (``*Version française : [...](../fr/rules/pop.md).*``): for readers of the
    Markdown; on a served page the navigation has that link, in the reader's language."""
    if index + 2 >= len(tokens) or tokens[index].type != "paragraph_open":
        return False
    children = tokens[index + 1].children or []
    hrefs = [str(c.attrGet("href") or "") for c in children if c.type == "link_open"]
    return (bool(children) and children[0].type == "em_open" and children[-1].type == "em_close"
            and len(hrefs) == 1
            and re.search(r"(^|/)rules/[a-z]+\.md$", hrefs[0]) is not None)


def _links(children: list[Token], here: str) -> list[Token]:
    """Rewrite the links of one inline run (see :func:`link_target`)."""
    out: list[Token] = []
    open_links: list[tuple[str | None, int]] = []  # per open link: repository path, text start
    for child in children:
        if child.type == "link_open":
            url, repo_path = link_target(str(child.attrGet("href") or ""), here)
            open_links.append((repo_path, len(out) + (url is not None)))
            if url is not None:
                child.attrSet("href", url)
                out.append(child)
            continue
        if child.type == "link_close":
            repo_path, start = open_links.pop() if open_links else (None, 0)
            if repo_path is None:
                out.append(child)
            else:  # not served: the text, then where the file is in the repository
                shown = "".join(t.content for t in out[start:])
                if repo_path not in shown:
                    out.append(_text(" ("))
                    code = Token("code_inline", "code", 0, markup="`", content=repo_path)
                    out.append(code)
                    out.append(_text(")"))
            continue
        out.append(child)
    return out


def _text(content: str) -> Token:
    return Token("text", "", 0, content=content)


@lru_cache(maxsize=None)
def rendered(game: str, lang: str) -> tuple[str, str]:
    """``(title, HTML)`` of one rules page (read and rendered once per process)."""
    return render_markdown(source(game, lang).read_text(encoding="utf-8"),
                           source_path(game, lang))

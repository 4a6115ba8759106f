"""The viewer's routes: they turn a stored game (or a shipped example) into a page, nothing more."""

from __future__ import annotations

import gzip
import json
import mimetypes
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from babel.dates import format_date, format_time
from flask import (Blueprint, Response, abort, current_app, redirect, request, send_from_directory,
                   url_for)
from flask import render_template as _render_template
from flask_babel import gettext as _
from markupsafe import Markup

from ..api.represent import base_url
from ..budget import cyclic_gc_paused
from ..caching import BoundedCache
from ..checking import check_log, check_text
from ..db.session import get_session
from ..db.types import db_text
from ..engine import ENGINE_VERSION, GAMES
from ..games import KITS, example_kit, examples, static_file
from ..i18n import has_ids
from ..i18n.words import error_words
from ..jsonout import compact
from ..store.lookups import find_by_slug, known_players, recent_public
from ..store.records import parse_datetime
from ..store.replays import replay_stored
from ..tables import signoff
from ..tables.shapes import StoredTable
from . import i18n, preview
from .claimform import claim_form
from .places import offending_move
from .titles import page_title
from .lang import LANGS
from .page_cache import cached_page
from .lang import current as current_lang
from .words import mode_word

HERE = Path(__file__).parent

# The shipped example games, kit after kit (``popreplay/games/<g>/examples/``: for POP! one per
# mode), in the order the home page lists them; the key names the file and the page.
EXAMPLES: dict[str, Any] = {  # lazy strings: each page says them in its language
    name: example.blurb for name, example in examples().items()}


def example_heading(name: str) -> str:
    """An example's heading: its game's title, and the mode when the game ships several."""
    kit, _ = example_kit(name) or (None, None)
    if kit is None:
        return name
    if len(kit.examples) == 1:
        return str(kit.title)
    return f"{kit.title} {mode_word(_example_mode(name))}"


@lru_cache(maxsize=None)
def _example_mode(name: str) -> Any:
    return (_parse(_example_bytes(name)) or {}).get("mode")


SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

# The pages are ES modules: a module script is refused unless served with a JavaScript type (and
# X-Content-Type-Options: nosniff is set); the host's mime.types may lack .mjs or say otherwise.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/javascript", ".mjs")

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path="/assets")
bp.add_app_template_global(mode_word, "mode_word")


@bp.after_request
def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


# A replay with more steps than this, or whose stored (gzip) form is larger, is not embedded in
# its page: the viewer fetches it from the API. A POP! battle has ~100 steps (11 KiB stored); a
# 5,000-event slap game (the most slap allows) 5,000 steps (5 to 20 MB of JSON, compressing very
# well: its size alone would not tell).
EMBED_MAX_STEPS = 2000
EMBED_MAX_GZIP = 256 * 1024

SMALLEST_COMPRESSED = 1024  # bytes: below this gzip saves too little to be worth its header


@bp.after_request
def _compress_pages(response: Response) -> Response:
    """Pages go gzip-compressed to a client that accepts it: a replay page is 160 KiB of HTML
    (its replay embedded), 15 KiB compressed, and the service may face browsers without a proxy.
    Only whole HTML pages; files and streams pass as they are."""
    if response.mimetype != "text/html":
        return response
    response.vary.add("Accept-Encoding")
    if (response.direct_passthrough or response.is_streamed
            or "Content-Encoding" in response.headers
            or (response.content_length or 0) < SMALLEST_COMPRESSED
            or request.accept_encodings.quality("gzip") <= 0):
        return response
    response.set_data(gzip.compress(response.get_data(), compresslevel=5, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    return response


def render_page(template: str, **context: Any) -> str:
    """A page as UTF-8 can carry it, whatever is stored: a lone surrogate in an old game's names
    or log (accepted before logs holding one were refused) shows as U+FFFD instead of failing the
    page (and the home page with it) with a 500."""
    page = _render_template(template, **context)
    try:
        page.encode("utf-8")
    except UnicodeEncodeError:
        return db_text(page)
    return page


# --- pages ---------------------------------------------------------------------------------------


@bp.get("/")
def home() -> str:
    games = recent_public(get_session(), limit=20)
    played = {g.id: format_played(g.played_at_text) or g.played_at for g in games}
    tables = signoff.stored(get_session(), [g.slug for g in games], current_lang())
    return render_page("web/home.html", games=games, played=played, examples=EXAMPLES,
                       example_heading=example_heading, game_titles=_game_titles(),
                       tables=tables)


@bp.get("/r/<slug>")
def replay(slug: str) -> Any:
    return replay_page(slug, "web/replay.html")


def replay_page(slug: str, template: str) -> Any:
    """A stored game's replay drawn by ``template``: the page, or the viewer alone (embed.py)."""
    session = get_session()
    record = find_by_slug(session, slug)
    if record is None:
        return render_page("web/not_found.html", slug=slug), 404
    # recorded at a table: its sign-off and corrections (docs/table.md), changing after storing
    table = signoff.stored(session, [record.slug], current_lang()).get(record.slug)
    # kept rendered (web/page_cache.py): by game and log, engine, language, address, and what
    # changes after storing (visibility, sign-off)
    key = ("replay", template, record.id, record.slug, record.content_hash, record.visibility,
           str(record.updated_at), record.engine_version, ENGINE_VERSION, current_lang(),
           request.url, base_url(), json.dumps(table, sort_keys=True, default=str))
    return cached_page(key, lambda: _replay_page(session, record, table, template))


def _replay_page(session: Any, record: Any, table: StoredTable | None, template: str) -> str:
    stored = replay_stored(session, record, wait=current_app.config["REPLAY_WAIT"])
    if record.engine_version == ENGINE_VERSION and (len(stored.body) > EMBED_MAX_GZIP
                                                    or stored.step_count > EMBED_MAX_STEPS):
        # A long game (5,000 slap events: 5 to 20 MB of steps): the page carries the stored result
        # and the viewer fetches the replay (gzip as stored, with its ETag) instead of every view
        # decompressing, escaping and compressing megabytes again.
        log = _parse(record.log)
        return render_page(template, **_replay_context(
            record.result, log, players=record.players, title=record.title,
            slug=record.slug, played_at=played_as_logged(log) or record.played_at,
            created_at=record.created_at, visibility=record.visibility,
            raw_log_url=f"/api/v1/games/{record.slug}/log", step_count=stored.step_count,
            replay_url=f"/api/v1/games/{record.slug}/replay"), table=table)
    lang = current_lang()
    localized_key = (record.id, record.content_hash, record.engine_version, lang)
    replay_text = None if lang == "en" else _localized_texts.get(localized_key)
    if replay_text is None:
        replay_text = gzip.decompress(stored.body).decode("utf-8")
        if lang != "en" and _localize is not None:
            # the notes and messages in the reader's language: rendered once per game and
            # language, then kept (a battle's 200 notes take the rendering layer ~0.1 s)
            with cyclic_gc_paused():
                replay_text = compact(localized(json.loads(replay_text)))
            _localized_texts.put(localized_key, replay_text)
    if record.engine_version == ENGINE_VERSION:
        # The page needs the result, not its steps: the stored one is the same (one engine, one
        # result), and the replay goes into the page as the stored text. Parsing 150 KiB of steps
        # and encoding them again was most of a page's time (about 8 ms of a battle's 10); for a
        # long illegal game (22 MB of steps), seconds. The violation is the last step.
        result = record.result
        step_count: int | None = stored.step_count
    else:  # an older engine stored the result: the page shows what the running one says
        with cyclic_gc_paused():
            result = json.loads(replay_text)
        step_count = None
    log = _parse(record.log)
    return render_page(template, **_replay_context(
        result, log, players=record.players, title=record.title, slug=record.slug,
        played_at=played_as_logged(log) or record.played_at, created_at=record.created_at,
        visibility=record.visibility, raw_log_url=f"/api/v1/games/{record.slug}/log",
        replay_text=replay_text, step_count=step_count,
        result_localized=record.engine_version != ENGINE_VERSION),  # parsed from replay_text
        table=table)


@bp.get("/record")
def record() -> Any:
    """The recorder (docs/recorder.md): the page is the same for every draft; the draft itself
    lives in the browser and in the API (``/api/v1/record``). ``?group=<slug>``: the recorder of
    a group, at ``/g/<slug>/record`` (where the phone's group key is sent: web/group_record.py)."""
    if request.args.get("group"):
        lang: dict[str, Any] = {"lang": request.args["lang"]} if request.args.get("lang") else {}
        return redirect(url_for("web.group_record", slug=request.args["group"], **lang))
    return record_page()


def record_page(group: dict[str, Any] | None = None) -> str:
    """The recorder's page; ``group``: the group it records for (its slug, name, privacy and
    members), whose members the setup offers as players."""
    games = [{"name": g.name, "title": game_title(g), "modes": list(g.modes),
              "players": {m: list(c) for m, c in g.player_counts.items()},
              "mode_words": {m: mode_word(m) for m in g.modes},
              "style": game_style(g.name), "claims": claim_form(g)}
             for g in GAMES.values() if hasattr(g, "choices")]
    known = known_players(get_session())
    if group is not None:
        names = [m["name"] for m in group["members"]]
        known = names + [n for n in known if n not in names]
    page = {"games": games, "known_players": known, "group": group}
    return render_page("web/record.html", games=games, group=group,
                       page_json=_htmlsafe(json.dumps(page, ensure_ascii=False)))


def game_title(game: Any) -> str:
    """A game's name for people, in the page's language: its kit's ``title``, which is the
    engine's (``tests/code/test_kits.py``)."""
    kit = KITS.get(game.name)
    return str(kit.title) if kit is not None else str(game.title)


@bp.app_template_global("game_modules")
def game_modules(game: str | None = None, *, panels: bool = False) -> list[dict[str, str]]:
    """The kits' page modules a page names (``static/games.js``): ``{"game", "part", "file"}``
    for each game's renderer (``part`` "renderer") and, with ``panels``, its entry panel
    ("panel"), of ``game`` alone when given, else of every game the recorder knows (with
    ``panels``) or every kit."""
    names = [game] if game is not None else [g.name for g in GAMES.values()
                                             if not panels or hasattr(g, "choices")]
    out = []
    for name in names:
        for part, file in (("renderer", game_script(name)), ("panel", record_script(name) if panels else None)):
            if file:
                out.append({"game": name, "part": part, "file": file})
    return out


def record_script(game: str) -> str | None:
    """The recorder's panel of the game, under ``/assets/`` (``games/<file>``), if it has one."""
    kit = KITS.get(game)
    return f"games/{kit.record_script}" if kit is not None and kit.record_script else None


@bp.get("/assets/games/<name>")
def game_asset(name: str) -> Response:
    """A kit's static file (``popreplay/games/<g>/static/``) at the address the pages have always
    used, ``/assets/games/<name>``: the templates write ``url_for('web.static',
    filename='games/<name>')`` and this more specific rule answers it."""
    folder = static_file(name)
    if folder is None:
        abort(404)
    return send_from_directory(folder, name)


@bp.get("/examples/<mode>")
def example(mode: str) -> Any:
    if mode not in EXAMPLES:
        return render_page("web/not_found.html", slug=mode), 404
    raw = _example_bytes(mode)
    log = _parse(raw)
    assert log is not None  # a shipped example is a JSON object
    meta = log.get("meta") or {}
    return render_page("web/replay.html", **_replay_context(
        _example_replay_in(mode, current_lang()), log, players=log["players"], title=meta.get("title"),
        slug=None, played_at=played_as_logged(log), created_at=None, visibility="example",
        raw_log_url=url_for("web.example_log", mode=mode), result_localized=True,
        image_path=f"/examples/{mode}.png"))


@bp.get("/assets/i18n/<lang>.js")
def i18n_js(lang: str) -> Response:
    """The page JavaScript's dictionary for ``lang`` and its ``t()``/``nt()`` (docs/i18n.md)."""
    if lang not in LANGS:
        abort(404)
    script, version = i18n.js_bundle(lang)
    response = Response(script, mimetype="text/javascript")
    if request.args.get("v") == version:
        response.cache_control.public = True
        response.cache_control.max_age = 365 * 24 * 3600
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    return response


@bp.app_template_global("i18n_script_url")
def i18n_script_url() -> str:
    lang = current_lang()
    return url_for("web.i18n_js", lang=lang, v=i18n.js_bundle(lang)[1])


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon (five cards of the five colours) where browsers look for it."""
    return send_from_directory(HERE / "static", "favicon.ico", max_age=7 * 24 * 3600,
                               mimetype="image/vnd.microsoft.icon")


@bp.get("/examples/<mode>.json")
def example_log(mode: str) -> Response:
    if mode not in EXAMPLES:
        abort(404)
    return Response(_example_bytes(mode), mimetype="application/json")


# --- helpers -------------------------------------------------------------------------------------


def _game_titles() -> dict[str, str]:
    return {name: game_title(game) for name, game in GAMES.items()}


def example_path(name: str) -> Path:
    """The file of the shipped example ``name`` (in its kit's ``examples/``)."""
    found = example_kit(name)
    if found is None:
        raise KeyError(f"no example called {name!r}")
    return found[0].example_path(name)


@lru_cache(maxsize=None)
def _example_bytes(mode: str) -> bytes:
    return example_path(mode).read_bytes()


@lru_cache(maxsize=None)
def _example_replay(mode: str) -> dict[str, Any]:
    return dict(check_text(_example_bytes(mode), with_steps=True))


@lru_cache(maxsize=None)
def _example_replay_in(mode: str, lang: str) -> dict[str, Any]:
    """An example's replay in ``lang`` (rendered once per language)."""
    if lang == "en" or _localize is None:
        return _example_replay(mode)
    return _localize(_example_replay(mode), lang)


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def game_script(game: str | None) -> str | None:
    """The game's replay renderer under ``/assets/`` (``games/<file>``, its kit's ``script``),
    when there is one."""
    kit = KITS.get(game) if isinstance(game, str) else None
    return f"games/{kit.script}" if kit is not None and kit.script else None


def game_style(game: str | None) -> str | None:
    """The game's own style sheet under ``/assets/`` (its kit's ``style``), when it has a
    renderer and a style sheet."""
    kit = KITS.get(game) if isinstance(game, str) and game_script(game) else None
    return f"games/{kit.style}" if kit is not None and kit.style else None


def _replay_context(result: dict[str, Any], log: dict[str, Any] | None, *, players: list[str],
                    title: str | None, slug: str | None, played_at: Any, created_at: Any,
                    visibility: str, raw_log_url: str, replay_text: str | None = None,
                    step_count: int | None = None, replay_url: str | None = None,
                    result_localized: bool = False,
                    image_path: str | None = None) -> dict[str, Any]:
    """What the replay page shows. ``result`` may come without its steps when ``replay_text``
    (the whole result with steps, as JSON text) and ``step_count`` are given: the page embeds
    that text as it is, and an illegal game's violation is its last step."""
    if not result_localized:
        result = localized(result)  # ``replay_text`` comes localized (see replay())
    fallback_title = _("Game")
    game: str | None = result.get("game")

    def title_of(default: str) -> str:
        """The game's title in the page's language; the game's name, else ``default``."""
        return _game_titles().get(game, game) if game else default

    error = result["errors"][0] if result["status"] == "illegal" and result["errors"] else None
    if result.get("errors") and log is not None and current_lang() != "en" and \
            not has_ids(result):
        # a row stored before message ids were kept (popreplay revalidate stores them): the
        # log (no steps: fast) gives them back, so that the violation is in the page's language
        fresh = check_log(log)
        if [e["code"] for e in fresh["errors"]] == [e.get("code") for e in result["errors"]]:
            result = {**result, "errors": localized(dict(fresh))["errors"]}
    words = [error_words(e, log, current_lang()) for e in result.get("errors") or []]
    steps = result.get("steps")
    if steps is not None:
        violation_step = next((s["index"] for s in steps if s["kind"] == "violation"), None)
    elif step_count and error is not None:
        violation_step = step_count - 1
    else:
        violation_step = None
    return {
        "page_json": page_json(replay_text if replay_text is not None else result,
                               players=players, log=log, slug=slug, replay_url=replay_url,
                               words=words),
        "step_max": (max(len(steps) - 1, 0) if steps is not None
                     else None if step_count is None else max(step_count - 1, 0)),
        "result": result,
        "title": page_title(title, lambda: title_of(fallback_title), result.get("mode"), players)
                 or f"{title_of(fallback_title)} {mode_word(result.get('mode'))}",
        "game_title": title_of("?"),
        "players": players,
        "slug": slug,
        "played_at": played_at,
        "created_at": created_at,
        "visibility": visibility,
        "raw_log_url": raw_log_url,
        "game_script": game_script(game),
        "game_style": game_style(game),
        "game": game,
        "error": error,
        "error_words": words[0] if error else None,
        "offending": offending_move(log, error) if error else None,
        "violation_step": violation_step,
        "preview": preview.summary(result, game_title=title_of("Game"), players=players),
        "image_url": (base_url() + (image_path or f"/r/{slug}.png")
                      + ("?lang=fr" if current_lang() == "fr" else "")) if slug or image_path else None,
        "page_url": (f"{base_url()}/r/{slug}" if slug else request.base_url)
        + ("?lang=fr" if current_lang() == "fr" else ""),
    }


_localize: Callable[[Mapping[str, Any], str], dict[str, Any]] | None
try:  # the notes' and messages' rendering layer (issue 17, popreplay/i18n); English without it
    from ..i18n import localize as _localize
except ImportError:  # pragma: no cover - before the i18n layer is merged
    _localize = None


def localized(result: dict[str, Any]) -> dict[str, Any]:
    """The result (or replay) with its notes and error messages in the page's language."""
    lang = current_lang()
    if _localize is None or lang == "en":
        return result
    return _localize(result, lang)


# Stored replays rendered in another language than the engine's English, as JSON text, newest
# last; bounded by their total size. Keyed by the game's id, content hash and engine version: a
# changed or re-replayed game is a new key, and an entry is only served after the game was found.
LOCALIZED_CACHE_BYTES = 32 * 1024 * 1024  # characters, in fact: the size of a text is its len
_localized_texts: BoundedCache[tuple[Any, ...], str] = BoundedCache(
    max_bytes=LOCALIZED_CACHE_BYTES, max_item_bytes=LOCALIZED_CACHE_BYTES // 4)


def _htmlsafe(json_text: str) -> str:
    """JSON text that can stand inside ``<script>``: Jinja's ``tojson`` escapes, done on text.
    (The four characters can only occur inside JSON strings, where the escapes mean the same.)"""
    return (json_text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("'", "\\u0027"))


def page_json(result: dict[str, Any] | str, *, players: list[str], log: dict[str, Any] | None,
              slug: str | None, replay_url: str | None = None,
              words: list[dict[str, Any]] | None = None) -> Markup:
    """The page's data block, ``{"result", "players", "log", "slug"}``, for a
    ``<script type="application/json">``. ``result`` may be its JSON text, embedded as it is.
    With ``replay_url`` the result comes without steps: the viewer fetches them from there."""
    extra: dict[str, Any] = {"replay_url": replay_url} if replay_url else {}
    if words:  # the result's errors in words (popreplay.i18n.words), in the same order
        extra["error_words"] = words
    rest = compact({"players": players, "log": log, "slug": slug, **extra})
    result_text = result if isinstance(result, str) else compact(result)
    return Markup(_htmlsafe('{"result":' + result_text + "," + rest[1:]))


def played_as_logged(log: dict[str, Any] | None) -> str | None:
    """When the game was played, as the log says it (local time and offset), for people:
    ``2026-11-27T20:15:00+01:00`` is ``2026-11-27 20:15 (UTC+01:00)``."""
    meta = log.get("meta") if log else None
    return format_played(meta.get("played_at") if isinstance(meta, dict) else None)


def format_played(value: Any) -> str | None:
    """``2026-11-27T20:15:00+01:00`` in the time zone it was recorded in, for the page's
    language (Babel): ``27 Nov 2026, 20:15 (UTC+01:00)``, ``27 nov. 2026, 20:15 (UTC+01:00)``;
    None when unreadable."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return local_datetime(parsed)
    offset = parsed.strftime("%z")
    zone = "UTC" if offset == "+0000" else f"UTC{offset[:3]}:{offset[3:]}"
    return local_datetime(parsed) + f" ({zone})"


BABEL_LOCALES = {"en": "en_GB", "fr": "fr_FR"}  # 24-hour clocks, day before month


def local_datetime(value: datetime) -> str:
    """A date and time as the page's language writes them, in ``value``'s own time zone (a
    naive value as it is): ``27 Nov 2026, 20:15`` / ``27 nov. 2026, 20:15``."""
    try:
        lang = current_lang()
    except RuntimeError:  # outside a request (a script, a test): English
        lang = "en"
    locale = BABEL_LOCALES.get(lang, "en_GB")
    zone = value.tzinfo or timezone.utc
    return (format_date(value, "medium", locale=locale) + ", "
            + format_time(value, "short", tzinfo=zone, locale=locale))


@bp.app_template_global("outcome_badge")
def outcome_badge(outcome: Any) -> tuple[str, str] | None:
    """The outcome as a badge beside the status, when the outcome is a win or a loss of the
    table (coop, solo: ``result``; a puzzle: ``solved``): (text, tone), tone ``good`` or ``bad``.
    The status badge itself is neutral for a complete game: "complete" says the log reached the
    end, not that it went well (a lost coop game is complete)."""
    if not isinstance(outcome, dict):
        return None
    if outcome.get("result") in ("won", "lost"):
        return (_("won"), "good") if outcome["result"] == "won" else (_("lost"), "bad")
    if isinstance(outcome.get("solved"), bool):
        return (_("solved"), "good") if outcome["solved"] else (_("not solved"), "bad")
    return None


@bp.app_template_global("status_word")
def status_word(status: Any) -> str:
    """A result's ``status`` in the page's language (the badge's class keeps the code)."""
    words = {"complete": _("complete"), "incomplete": _("incomplete"), "illegal": _("illegal"),
             "invalid": _("invalid"), "sheet": _("score sheet — not checked move by move")}
    return words.get(status, str(status))


@bp.app_template_filter("viewer_date")
def viewer_date(value: Any) -> str:
    """A date for people in the page's language: ``27 Nov 2026, 19:15 UTC``; strings are parsed
    when ISO 8601."""
    if value is None or value == "":
        return ""
    if isinstance(value, str) and "(" in value:  # already for people (played_as_logged)
        return value
    parsed = parse_datetime(value)
    if parsed is None:
        return str(value)
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(timezone.utc)
    return local_datetime(parsed) + " UTC"

"""Replay notes and rule messages in the reader's language (English, French).

The engine gives every note and violation as a message id with parameters (see
``popreplay/engine/messages.py``); English templates live with the engine, the other languages in
gettext catalogues (the shared ids in ``popreplay/i18n/<lang>/*.po``, each game's in its kit,
``popreplay/games/<g>/<lang>.po``: ``msgid`` is the message id, ``msgstr`` the template, in the
engine's tiny template syntax). A message without an id, or an id missing from a
catalogue, keeps the English text the engine gave.

- :func:`localize` renders a result object or replay (``errors``, ``steps``) in a language and keeps
  the ids and parameters next to the text (``message_id``/``params``, ``note_id``/``note_params``);
- :func:`language_free` is a result as stored: plain JSON that keeps every message's id and
  parameters (``message_id``/``params`` on each error, ``note_ids`` beside Bloops' outcome remarks),
  so that :func:`localize` renders a stored game in any language without running the engine;
  :func:`without_ids` is the published result the two forms share (what revalidation compares);
- :func:`negotiate` picks ``"en"`` or ``"fr"`` from ``?lang=`` then ``Accept-Language``;
- :func:`from_environment` picks it from ``LC_ALL``/``LC_MESSAGES``/``LANG`` (the command line).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Mapping

from ..engine import messages as _messages
from ..engine.messages import EN, FR, Lang, Msg, fill
from .po import read_po

LANGUAGES = ("en", "fr")
DEFAULT = "en"
_RULES: dict[str, Lang] = {"en": EN, "fr": FR}
HERE = Path(__file__).resolve().parent

__all__ = ["LANGUAGES", "catalogue", "catalogue_paths", "from_environment", "has_ids",
           "language_free", "localize", "negotiate", "render", "without_ids"]


def _load_games() -> None:
    from ..engine import GAMES  # noqa: F401  (importing the games defines their English)


@functools.cache
def catalogue(lang: str) -> dict[str, str]:
    """Message id → template for ``lang`` (English: the engine's own table)."""
    _load_games()
    if lang == "en":
        return dict(_messages.ENGLISH)
    table: dict[str, str] = {}
    for path in catalogue_paths(lang):
        table.update(read_po(path.read_text("utf-8")))
    return table


def catalogue_paths(lang: str) -> list[Path]:
    """The ``.po`` files of ``lang``: the shared ones (``popreplay/i18n/<lang>/*.po``), then each
    game's, in its kit (``popreplay/games/<g>/<lang>.po``)."""
    from ..games import KITS

    paths = sorted((HERE / lang).glob("*.po"))
    for kit in KITS.values():
        path = kit.catalogue_path(lang)
        if path is not None:
            paths.append(path)
    return paths


def clean(lang: str | None) -> str:
    """``"en"`` or ``"fr"``: a region (``fr-CA``, ``fr_BE.UTF-8``) counts; anything else is
    English."""
    base = _base(lang or "")
    return base if base in LANGUAGES else DEFAULT


def _base(tag: str) -> str:
    return tag.strip().replace("_", "-").split("-")[0].split(".")[0].lower()


def render(key: str | None, params: Mapping[str, Any] | None, lang: str,
           fallback: str = "") -> str:
    """The message ``key`` in ``lang``; ``fallback`` (the engine's English) when it has no id or
    the catalogue lacks it."""
    lang = clean(lang)
    if key is None:
        return fallback
    table = catalogue(lang)
    template = table.get(key)
    if template is None:
        if lang != "en":
            return render(key, params, "en", fallback)
        return fallback
    rules = _RULES[lang]

    def resolve(inner: str, inner_params: Mapping[str, Any], inner_fallback: str) -> str:
        return render(inner, inner_params, lang, inner_fallback)

    return fill(template, params or {}, rules, resolve)


def _message(value: Any, lang: str, key: str | None, params: Any) -> tuple[str, Any, Any]:
    if isinstance(value, Msg):
        key, params = value.id, value.json_params()
    return render(key, params, lang, str(value) if value is not None else ""), key, params


def _error(entry: Mapping[str, Any], lang: str) -> dict[str, Any]:
    out = dict(entry)
    text, key, params = _message(entry.get("message"), lang, entry.get("message_id"),
                                 entry.get("params"))
    out["message"], out["message_id"], out["params"] = text, key, params
    return out


def localize(result: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A copy of a result object or replay (with or without ``steps``) whose error ``message``s,
    step ``note``s and outcome remarks (Bloops' ``outcome.notes``) are in ``lang``.

    Each error gains ``message_id`` and ``params`` (``None`` for a message without an id); each
    step keeps ``note_id`` and ``note_params``; the ``code``s and everything else are unchanged.
    The input is not changed."""
    lang = clean(lang)
    out = dict(result)
    steps = result.get("steps")
    errors = result.get("errors")
    last_error = None
    if isinstance(steps, list) and steps and steps[-1].get("kind") == "violation":
        last_error = ((steps[-1].get("data") or {}).get("error")) or None
    if isinstance(errors, list):
        localized = []
        for entry in errors:
            if (not isinstance(entry.get("message"), Msg) and "message_id" not in entry
                    and last_error and last_error.get("message_id")
                    and last_error.get("code") == entry.get("code")
                    and last_error.get("path") == entry.get("path")):
                # a stored result (JSON: the ids are gone) takes them from its violation step
                entry = {**entry, "message_id": last_error["message_id"],
                         "params": last_error.get("params")}
            localized.append(_error(entry, lang))
        out["errors"] = localized
    if isinstance(steps, list):
        out["steps"] = [_step(step, lang) for step in steps]
    outcome = result.get("outcome")
    if isinstance(outcome, Mapping) and isinstance(outcome.get("notes"), list):
        # Bloops' remarks: rendered when they are messages (a fresh result) or stored with their
        # ids (``note_ids``, see language_free), else kept as they are
        stored = outcome.get(NOTE_IDS)
        keys = stored if isinstance(stored, list) and len(stored) == len(outcome["notes"]) else []
        notes = [_message(note, lang, None, None)[0] if isinstance(note, Msg)
                 else _stored_note(note, keys[i] if keys else None, lang)
                 for i, note in enumerate(outcome["notes"])]
        out["outcome"] = {k: v for k, v in outcome.items() if k != NOTE_IDS}
        out["outcome"]["notes"] = notes
    return out


NOTE_IDS = "note_ids"  # a stored outcome's remarks, language-free (beside ``notes``)


def _stored_note(note: Any, key: Any, lang: str) -> Any:
    if isinstance(key, Mapping) and isinstance(key.get("id"), str):
        return render(key["id"], key.get("params"), lang, str(note))
    return note


def language_free(result: Mapping[str, Any]) -> dict[str, Any]:
    """A result object (without steps) as stored: plain JSON that keeps the message ids. Each
    error gains ``message_id`` and ``params`` (``None`` for a message without an id); Bloops'
    outcome remarks (``outcome.notes``) stay English text with ``outcome.note_ids`` beside them
    (``{"id", "params"}`` or ``None`` per remark). :func:`localize` renders such a result in any
    language and drops ``note_ids``; nothing else changes. The input is not changed."""
    out = dict(result)
    out["errors"] = [_error_with_ids(entry) for entry in result.get("errors") or []]
    outcome = result.get("outcome")
    if isinstance(outcome, Mapping) and isinstance(outcome.get("notes"), list) \
            and outcome["notes"] and NOTE_IDS not in outcome:
        keys = [_messages.ids(note) for note in outcome["notes"]]
        out["outcome"] = {**outcome, "notes": [str(note) for note in outcome["notes"]],
                          NOTE_IDS: [None if key is None else {"id": key, "params": params}
                                     for key, params in keys]}
    return out


def _error_with_ids(entry: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    if "message_id" not in out:
        out["message_id"], out["params"] = _messages.ids(entry.get("message"))
    if isinstance(out.get("message"), str):
        out["message"] = str(out["message"])  # a Msg: its English text
    return out


def has_ids(result: Mapping[str, Any]) -> bool:
    """Whether a stored result keeps its message ids (:func:`language_free`); a row stored
    before they were kept does not (``popreplay revalidate`` stores them)."""
    errors = result.get("errors") or []
    outcome = result.get("outcome")
    notes = outcome.get("notes") if isinstance(outcome, Mapping) else None
    return all("message_id" in entry for entry in errors) and (
        not notes or not isinstance(outcome, Mapping) or NOTE_IDS in outcome)


def without_ids(result: Mapping[str, Any]) -> dict[str, Any]:
    """The published part of a result, stored or fresh: errors without ``message_id`` and
    ``params``, the outcome without ``note_ids``, every message as its English text."""
    out = dict(result)
    out["errors"] = [{k: (str(v) if k == "message" and isinstance(v, str) else v)
                      for k, v in entry.items() if k not in ("message_id", "params")}
                     for entry in result.get("errors") or []]
    outcome = result.get("outcome")
    if isinstance(outcome, Mapping) and (NOTE_IDS in outcome or "notes" in outcome):
        out["outcome"] = {k: v for k, v in outcome.items() if k != NOTE_IDS}
        if isinstance(outcome.get("notes"), list):
            out["outcome"]["notes"] = [str(n) if isinstance(n, str) else n
                                       for n in outcome["notes"]]
    return out


def _step(step: Mapping[str, Any], lang: str) -> dict[str, Any]:
    out = dict(step)
    text, key, params = _message(step.get("note"), lang, step.get("note_id"),
                                 step.get("note_params"))
    out["note"], out["note_id"], out["note_params"] = text, key, params
    data = step.get("data")
    if isinstance(data, Mapping) and isinstance(data.get("error"), Mapping):
        out["data"] = {**data, "error": _error(data["error"], lang)}
    return out


def negotiate(query_lang: str | None, accept_language: str | None) -> str:
    """``?lang=`` when it names a language we have, else the best of ``Accept-Language``
    (quality values honoured, ``*`` is English), else English."""
    if query_lang and _base(query_lang) in LANGUAGES:
        return _base(query_lang)
    best, best_q = DEFAULT, 0.0
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        tag = tag.strip().lower()
        if not tag:
            continue
        quality = 1.0
        for param in rest.split(";"):
            name, _, number = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(number)
                except ValueError:
                    quality = 0.0
        code = "en" if tag == "*" else _base(tag)
        if code in LANGUAGES and quality > best_q:
            best, best_q = code, quality
    return best


def from_environment(environ: Mapping[str, str]) -> str:
    """The command line's language: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` (the first
    one set and not empty, as POSIX says); ``fr_*`` is French, anything else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return clean(value)
    return DEFAULT


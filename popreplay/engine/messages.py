"""Language-free messages: every note and violation is a message id with its parameters.

The engine words nothing itself: it builds a :class:`Msg` from an id (``"pop.note.draw"``) and
parameters (players, cards, queues, counts). A :class:`Msg` *is* its English text (a ``str``, so the
result object is unchanged: ``message`` and ``note`` stay plain English, byte for byte), and it keeps
``id`` and ``params`` for the rendering layer (``popreplay.i18n``), which renders the same id in
another language from its catalogue.

Templates are tiny on purpose, the same syntax in every language:

``{x}``
    parameter ``x``: a number, a text, a list (``"3, 5 and 7"`` / ``"3, 5 et 7"``) or a nested
    message (rendered in the same language);
``{x|one|other}``
    a plural form chosen by ``x`` (a count, or a list's length): English singular for 1 only,
    French for 0 and 1;
``{de:x}`` (also ``que``, ``le``, ``la``, ``à``, ``ne``)
    the word before ``x`` with French elision and contraction: ``d'Alice``, ``de Bruno``,
    ``du Chef Multicolore`` (``de`` + ``le …``), ``au`` (``à`` + ``le …``);
``{repr:x}``
    ``x`` quoted as the English messages quote names (``'Bob'``);
``{comma:x}``, ``{semi:x}``, ``{or:x}``
    a list joined by commas only (``"3, 5, 7"``), by semicolons, or with "or" (``"a, b or c"``).

A map without ``id`` is a list of scores: ``{"Alice": 3, "Bruno": 4}`` → ``"Alice 3, Bruno 4"``.

Standard library only, deterministic.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

ENGLISH: dict[str, str] = {}  # message id -> English template; each game adds its own

_FIELD = re.compile(r"\{([^{}]+)\}")
_VOWELS = frozenset("aeiouyhàâäéèêëîïôöùûüœæAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


def define(table: Mapping[str, str]) -> None:
    """Add a game's English templates (ids are unique across games: ``<game>.<what>``)."""
    for key, text in table.items():
        if ENGLISH.setdefault(key, text) != text:
            raise ValueError(f"message id {key!r} is defined twice")


class Lang:
    """What differs between languages in the templates: plurals, lists, elision."""

    def __init__(self, code: str, *, and_word: str, or_word: str,
                 zero_is_singular: bool) -> None:
        self.code = code
        self.and_word = and_word
        self.or_word = or_word
        self.zero_is_singular = zero_is_singular
        # French puts a narrow no-break space before ";" (docs/fr/glossary.md)
        self.semicolon = "\u202f; " if code == "fr" else "; "

    def singular(self, count: int) -> bool:
        return count == 1 or (self.zero_is_singular and count == 0)

    def join(self, items: list[str], word: str | None = None) -> str:
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + f" {word or self.and_word} " + items[-1]


EN = Lang("en", and_word="and", or_word="or", zero_is_singular=False)
FR = Lang("fr", and_word="et", or_word="ou", zero_is_singular=True)

Resolve = Callable[[str, Mapping[str, Any], str], str]  # (id, params, fallback) -> text


def _count(value: Any) -> int:
    if isinstance(value, (list, tuple)):
        return len(value)
    return int(value) if isinstance(value, (int, float)) else 0


def elide(word: str, text: str) -> str:
    """French: ``de`` + ``Alice`` → ``d'Alice``; ``de`` + ``le Chef`` → ``du Chef``."""
    lower = text[:4].lower()
    if word in ("de", "à"):
        if lower.startswith("les "):
            return ("des " if word == "de" else "aux ") + text[4:]
        if lower.startswith("le "):
            return ("du " if word == "de" else "au ") + text[3:]
        if word == "à":
            return f"à {text}"
    if text[:1] in _VOWELS:
        return f"{word[:-1]}'{text}"
    return f"{word} {text}"


_LISTS = ("comma", "semi", "or")
_compiled: dict[str, tuple] = {}  # template -> its parts (a template is parsed once)


def _compile(template: str) -> tuple:
    """Literal texts and fields ``(is_plural, name, word_or_singular, plural)``."""
    parts: list[Any] = []
    position = 0
    for match in _FIELD.finditer(template):
        if match.start() > position:
            parts.append(template[position:match.start()])
        spec = match.group(1)
        if "|" in spec:
            name, *forms = spec.split("|")
            parts.append((True, name, forms[0], forms[-1]))
        else:
            word, _, name = spec.rpartition(":")
            parts.append((False, name, word, None))
        position = match.end()
    if position < len(template):
        parts.append(template[position:])
    return tuple(parts)


def fill(template: str, params: Mapping[str, Any], lang: Lang, resolve: Resolve) -> str:
    """``template`` with its fields replaced (see the module's docstring)."""
    parts = _compiled.get(template)
    if parts is None:
        parts = _compiled[template] = _compile(template)
    out: list[str] = []
    add = out.append
    # a resolver may say that a nested message's own text is already its words (English's does)
    own_text = getattr(resolve, "own_text", False)
    for part in parts:
        if part.__class__ is str:
            add(part)
            continue
        plural, name, word, other = part
        raw = params.get(name)
        if plural:
            add(word if lang.singular(_count(raw)) else other)
        elif not word:
            if raw.__class__ is str or (own_text and raw.__class__ is Msg and raw):
                add(raw)
            else:
                add(text(raw, lang, resolve))
        elif word == "repr":  # a value from the log as Python shows it: 'Bob', 5, None
            add(text(raw, lang, resolve) if _is_message(raw) else repr(raw))
        elif word in _LISTS and isinstance(raw, (list, tuple)):
            items = [text(item, lang, resolve) for item in raw]
            if word == "or":  # "a, b or c"
                add(lang.join(items, lang.or_word))
            else:
                add((lang.semicolon if word == "semi" else ", ").join(items))
        elif word in _LISTS:
            add(text(raw, lang, resolve))
        else:
            add(elide(word, text(raw, lang, resolve)))
    return "".join(out)


def _is_message(value: Any) -> bool:
    return isinstance(value, Msg) or (isinstance(value, Mapping) and "id" in value)


def text(value: Any, lang: Lang, resolve: Resolve) -> str:
    """One parameter in words."""
    if value.__class__ is int:
        return str(value)
    if isinstance(value, Msg):
        return resolve(value.id, value.params, str(value))
    if isinstance(value, Mapping) and "id" in value:
        return resolve(value["id"], value.get("params") or {}, value.get("text", ""))
    if isinstance(value, (list, tuple)):
        return lang.join([text(item, lang, resolve) for item in value])
    if isinstance(value, Mapping):  # scores: "Alice 3, Bruno 4"
        return ", ".join(f"{key} {text(item, lang, resolve)}" for key, item in value.items())
    if value is None:
        return ""
    return str(value)


def english(key: str, params: Mapping[str, Any], fallback: str = "") -> str:
    template = ENGLISH.get(key)
    if template is None:
        return fallback
    return fill(template, params, EN, _nested_english)


class _NestedEnglish:
    """Resolves a nested message in English: a :class:`Msg` already is its English text
    (``fallback``), so :func:`fill` uses it as it is (``own_text``) without calling this."""

    own_text = True

    def __call__(self, key: str, params: Mapping[str, Any], fallback: str) -> str:
        return fallback or english(key, params)


_nested_english = _NestedEnglish()


class Msg(str):
    """English text that remembers its message id and parameters (``msg(id, **params)``)."""

    id: str
    params: dict[str, Any]
    _as_json: dict[str, Any] | None  # ``{"id", "params"}``, made the first time it is asked for

    def __new__(cls, text: str, key: str, params: dict[str, Any]) -> Msg:
        self = super().__new__(cls, text)
        self.id = key
        self.params = params
        self._as_json = None
        return self

    def __reduce__(self) -> tuple:
        return (Msg, (str(self), self.id, self.params))

    def json_params(self) -> dict[str, Any]:
        """The parameters as JSON (a nested message becomes ``{"id", "params"}``)."""
        return {k: _json(v) for k, v in self.params.items()}

    def as_json(self) -> dict[str, Any]:
        """The message as a parameter of another, ``{"id", "params"}``: made once per message
        and shared (a message never changes; the notes reuse theirs: a card's name, "onto <card>",
        what a flip makes), so a long replay does not walk them again at every step. Read only."""
        shown = self._as_json
        if shown is None:
            shown = self._as_json = {"id": self.id, "params": self.json_params()}
        return shown


def _json(value: Any) -> Any:
    cls = value.__class__
    if cls is int or cls is str or value is None:
        return value
    if isinstance(value, Msg):
        return value.as_json()
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def msg(msg_id: str, /, **params: Any) -> Msg:
    """The message ``msg_id`` with ``params``, as English text that keeps both. (The id is
    positional only, and named so that no template's parameter is: compiled by mypyc, a
    parameter named like it was lost, and ``cube.needs``' ``key`` said "needs None".)"""
    if msg_id not in ENGLISH:
        raise KeyError(f"no English template for message {msg_id!r}")
    return Msg(english(msg_id, params), msg_id, params)


def ids(value: Any) -> tuple[str | None, dict[str, Any] | None]:
    """``(id, JSON params)`` of a message, ``(None, None)`` for plain text."""
    if isinstance(value, Msg):
        return value.id, value.json_params()
    return None, None


# --- messages shared by every game ------------------------------------------------------------

define({
    "core.illegal": "Illegal: {message}.",
    # a live table: the whole draft is illegal where this phone cannot see (docs/table.md)
    "core.hidden-clash": "The draft holds an entry that does not agree with cards this phone "
                         "cannot see: the host's phone shows where; the player who entered it "
                         "may correct it.",
    "core.player-count": "{what} is for {wanted} {high|player|players}; the log names {count}",
    "core.player-range": "{low}–{high}",
    "core.blank-name": "a player name is empty or only spaces",
    "core.name-twice": "the name {repr:name} is given twice",
    "core.name-same": ("{repr:name} is the same name as {repr:other} (full-width letters and "
                       "invisible characters do not make another name): write each player's "
                       "name one way"),
    "core.unknown-player": "{repr:name} is not a player of this game{hint}",
    "core.did-you-mean": "; did you mean {repr:name}?",
    "core.given-twice": "{name} is given twice",
    "core.unreadable": "cannot read {source}: {reason}",
    # the shape of a log (``popreplay.logformat``): the common messages have ids, the rarer
    # ones of each game's fields stay English (no id)
    "shape.required": "required key is missing",
    "shape.unknown-key": "unknown key (free data belongs in \"meta\")",
    "shape.did-you-mean": "unknown key: did you mean \"{key}\"? (free data belongs in \"meta\")",
    "shape.object": "must be an object",
    "shape.not-null": "must not be null",
    "shape.integer": "must be an integer",
    "shape.boolean": "must be true or false",
    "shape.string": "must be a string",
    "shape.list": "must be a list",
    "shape.by-player": "must be an object keyed by player name",
    "shape.log-object": "A log must be a JSON object.",
    "shape.unknown-game": "unknown game {repr:game}; known games: {comma:known}",
    "shape.too-deep": "nested deeper than {depth} levels",
    "shape.too-long": "longer than {limit} characters",
    "shape.too-many": "more than {limit} values",
    "shape.key-too-long": "has a key longer than {limit} characters",
    "json.not-utf8": "The log is not UTF-8 text (byte {byte}).",
    "json.not-json": "The log is not valid JSON: {detail} at line {line}, column {column}.",
    "json.too-deep": "The log is not accepted: its JSON is nested far too deeply.",
    "json.not-accepted": "The log is not accepted: {detail}.",
    "json.lone-surrogate": "A lone surrogate (a \\uD800-\\uDFFF escape without its pair) in this "
                           "string or key: it is not Unicode text, so the log is not accepted.",
})

# shape messages that arrive as plain text (marshmallow's, the fields' own): text -> id
SHAPE_TEXTS: dict[str, str] = {}
for _key in ("shape.required", "shape.unknown-key", "shape.object", "shape.not-null",
             "shape.integer", "shape.boolean", "shape.string", "shape.list", "shape.by-player"):
    SHAPE_TEXTS[ENGLISH[_key]] = _key


def shape_text(text: str) -> Msg | str:
    """A shape message as a :class:`Msg` when it is one of the common ones, else as it is."""
    key = SHAPE_TEXTS.get(text)
    return text if key is None else msg(key)

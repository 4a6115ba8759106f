"""A reader for the gettext ``.po`` catalogues of ``popreplay/i18n`` (standard library only).

Only what the catalogues use: ``msgid``/``msgstr`` pairs, strings continued over several lines,
comments, the escapes ``\\"``, ``\\\\``, ``\\n`` and ``\\t``. The header (empty ``msgid``) and
fuzzy or untranslated entries (empty ``msgstr``) are left out.
"""

from __future__ import annotations

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def _unquote(text: str, line: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"line {line}: a quoted string was expected")
    out, chars = [], iter(text[1:-1])
    for char in chars:
        if char == "\\":
            nxt = next(chars, "")
            out.append(_ESCAPES.get(nxt, "\\" + nxt))
        else:
            out.append(char)
    return "".join(out)


def read_po(text: str) -> dict[str, str]:
    """``{msgid: msgstr}`` of a catalogue."""
    entries: list[tuple[str, str, bool]] = []
    key: list[str] | None = None
    value: list[str] | None = None
    current: list[str] | None = None
    fuzzy = next_fuzzy = False

    def close() -> None:
        nonlocal key, value, current
        if key is not None and value is not None:
            entries.append(("".join(key), "".join(value), fuzzy))
        key = value = current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                next_fuzzy = True
            continue
        if line.startswith("msgid "):
            close()
            fuzzy, next_fuzzy = next_fuzzy, False
            key = [_unquote(line[6:], number)]
            current = key
        elif line.startswith("msgstr "):
            if key is None:
                raise ValueError(f"line {number}: msgstr without msgid")
            value = [_unquote(line[7:], number)]
            current = value
        elif line.startswith('"'):
            if current is None:
                raise ValueError(f"line {number}: a string outside an entry")
            current.append(_unquote(line, number))
        else:
            raise ValueError(f"line {number}: not understood: {line[:40]!r}")
    close()
    return {k: v for k, v, fuzzy in entries if k and v and not fuzzy}

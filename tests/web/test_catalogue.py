"""The pages' catalogues (issue 17, docs/i18n.md): extraction (babel's Python API, the same map
and keywords as scripts/i18n) finds no string without a French translation, the .po holds no
stale entry, the committed .mo is the .po compiled, and the page JavaScript's dictionary serves
every string its files ask for."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_javascript
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from popreplay.web import i18n

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "popreplay" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None, "tn": None, "nt": (1, 2), "_l": None}
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def _method_map() -> list[tuple[str, str]]:
    """babel.cfg's sections, as extract_from_dir takes them."""
    out = []
    for line in (ROOT / "babel.cfg").read_text("utf-8").splitlines():
        match = re.fullmatch(r"\[(\w+): (.+)\]", line.strip())
        if match:
            out.append((match.group(2), match.group(1)))
    return out


@pytest.fixture(scope="module")
def extracted() -> dict[object, list[str]]:
    """msgid (a tuple for a plural) -> the files it comes from."""
    found: dict[object, list[str]] = {}
    for filename, _lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map=_method_map(), keywords=KEYWORDS):
        key = tuple(message) if isinstance(message, (list, tuple)) else message
        if isinstance(key, tuple):
            key = key[:2]
        found.setdefault(key, []).append(filename)
    return found


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle, locale="fr")


def _key(message: object) -> object:
    return tuple(message)[:2] if isinstance(message, (list, tuple)) else message


def test_extraction_covers_every_page(extracted: dict[object, list[str]]) -> None:
    files = {f for names in extracted.values() for f in names}
    for expected in ("popreplay/web/templates/web/replay.html", "popreplay/web/static/replay.js",
                     "popreplay/web/static/recorder.js", "popreplay/games/pop/static/pop.js",
                     "popreplay/games/bloops/static/bloops.record.js", "popreplay/web/views.py",
                     "popreplay/api/docs.py"):
        assert expected in files
    assert "Settle the score: replay a game, move by move" in extracted
    assert ("{n} difference", "{n} differences") in extracted
    assert len(extracted) > 600


def test_every_extracted_string_has_a_french_translation(
        extracted: dict[object, list[str]], catalog: Catalog) -> None:
    entries = {_key(m.id): m for m in catalog if m.id}
    problems = []
    for msgid, files in sorted(extracted.items(), key=str):
        entry = entries.get(msgid)
        strings = () if entry is None else (
            entry.string if isinstance(entry.string, (list, tuple)) else (entry.string,))
        if entry is None:
            problems.append(f"missing from messages.po: {msgid!r} ({files[0]})")
        elif entry.fuzzy or not strings or not all(s and s.strip() for s in strings):
            problems.append(f"untranslated or fuzzy: {msgid!r} ({files[0]})")
        else:
            ids = msgid if isinstance(msgid, tuple) else (msgid,)
            wanted = set(PLACEHOLDER.findall(" ".join(ids)))
            for text in strings:
                if set(PLACEHOLDER.findall(text)) - wanted:
                    problems.append(f"unknown placeholder in {text!r} for {msgid!r}")
                if not isinstance(msgid, tuple) and set(PLACEHOLDER.findall(text)) != wanted:
                    problems.append(f"placeholders differ: {text!r} for {msgid!r}")
    assert not problems, "\n".join(problems)


def test_no_obsolete_or_stale_entries(extracted: dict[object, list[str]], catalog: Catalog) -> None:
    stale = [m.id for m in catalog if m.id and _key(m.id) not in extracted]
    assert not stale, f"entries no page uses any more (run scripts/i18n): {stale}"
    assert not catalog.obsolete


def test_french_plural_rule_and_header(catalog: Catalog) -> None:
    assert catalog.num_plurals == 2
    assert catalog.plural_expr.replace(" ", "") in ("(n>1)", "n>1")


def test_committed_mo_is_the_po_compiled(catalog: Catalog) -> None:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    assert MO.read_bytes() == out.getvalue(), "run scripts/i18n compile"


def test_every_javascript_call_is_extractable() -> None:
    """pybabel's JavaScript extractor skips a t() nested in another t()'s arguments: every
    literal t("…")/tn("…")/nt("…") of the page scripts must be one it sees."""
    missed = []
    static = ROOT / "popreplay" / "web" / "static"
    kits = ROOT / "popreplay" / "games"
    for path in sorted([*static.rglob("*.js"), *kits.glob("*/static/*.js")]):
        source = path.read_text("utf-8")
        seen = {m if isinstance(m, str) else m[0]
                for _l, _f, m, _c in extract_javascript(io.BytesIO(source.encode()),
                                                        ["t", "tn", "nt"], [], {})}
        for match in re.finditer(r'(?<![\w.$])(?:t|tn|nt)\(\s*"((?:[^"\\]|\\.)*)"', source):
            text = json.loads('"' + match.group(1) + '"')
            if text not in seen:
                missed.append(f"{path.name}:{source.count(chr(10), 0, match.start()) + 1}: {text}")
    assert not missed, "\n".join(missed)


def test_javascript_dictionary_serves_the_scripts_strings() -> None:
    messages = i18n.js_messages("fr")
    assert messages["Where the points came from"] == "D’où viennent les points".replace("’", "'")
    assert messages["{n} difference"] == ["{n} différence", "{n} différences"]
    assert messages["Result"] == "Résultat"
    assert "Settle the score: replay a game, move by move" not in messages  # template only
    assert i18n.js_messages("en") == {}
    script, version = i18n.js_bundle("fr")
    assert script.startswith("export default {") and len(version) == 12
    assert "</" not in script.split(";\n", 1)[0]

"""Every game is its engine and its kit (issue 22, docs/architecture.md): each kit is complete
(every part present and loadable, its static files served, its examples valid, its French
there), its modes are the engine's (the log shape and the JSON Schema agree), and no module of
the package outside the engine and the kits spells out the games or keeps a game's file."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import click
import pytest
from marshmallow import Schema, validate

from popreplay.checking import check_text
from popreplay.engine import GAMES, messages
from popreplay.games import KITS, GameKit, example_kit, examples, static_file
from popreplay.i18n.po import read_po

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "popreplay"
NAMES = sorted(GAMES)


def kits() -> list[GameKit]:
    return [KITS[name] for name in NAMES]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.conftest import migrated_app

    for app in migrated_app(f"sqlite:///{tmp_path_factory.mktemp('kits') / 'db.sqlite'}"):
        yield app.test_client()


# --- one kit per game, nothing else ---------------------------------------------------------------


def test_every_game_of_the_engine_has_a_kit_and_every_kit_a_game() -> None:
    assert list(KITS) == list(GAMES)  # the same games, in the registry's order
    folders = sorted(p.name for p in (PACKAGE / "games").iterdir()
                     if (p / "__init__.py").is_file())
    assert folders == NAMES
    for name, kit in KITS.items():
        assert isinstance(kit, GameKit) and kit.name == name
        assert kit.folder == PACKAGE / "games" / name
        with pytest.raises(AttributeError):
            kit.name = "other"  # type: ignore[misc]  # frozen


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_title_is_the_engines(kit: GameKit) -> None:
    """One title per game: the kit marks the engine's for translation (outside a request it is
    the English)."""
    assert str(kit.title) == GAMES[kit.name].title


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_log_shape_loads_and_its_modes_are_the_engines(kit: GameKit) -> None:
    shape = kit.load("shape")
    assert isinstance(shape, type) and issubclass(shape, Schema)
    [one_of] = [v for v in shape().fields["mode"].validators if isinstance(v, validate.OneOf)]
    assert tuple(one_of.choices) == GAMES[kit.name].modes
    assert shape.__module__ == f"popreplay.games.{kit.name}.logformat"


@pytest.mark.parametrize("folder", ["schemas", "popreplay/jsonschemas"])
@pytest.mark.parametrize("name", NAMES)
def test_the_json_schemas_mode_enum_is_the_engines_modes(folder: str, name: str) -> None:
    schema = json.loads((ROOT / folder / "popreplay" / "1" / f"{name}.schema.json")
                        .read_text("utf-8"))
    assert schema["properties"]["mode"]["enum"] == list(GAMES[name].modes)
    assert schema["properties"]["game"] == {"const": name}


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_renderer_draws_every_step_of_every_example_in_both_languages(kit: GameKit) -> None:
    renderer = kit.load("renderer")
    assert callable(renderer)
    assert kit.examples, f"{kit.name} ships no example"
    for example in kit.examples:
        result = check_text(kit.example_path(example.name).read_bytes(), with_steps=True)
        states = [step["state"] for step in result["steps"] if step.get("state")]
        assert states
        for lang in ("en", "fr"):
            for state in (states[0], states[-1]):
                lines = renderer(state, lang)
                assert lines and all(isinstance(line, str) for line in lines)
                assert all(click.unstyle(line).strip() for line in lines[:1])


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_optional_parts_load(kit: GameKit) -> None:
    if kit.pending is not None:
        pending = kit.load("pending")
        assert isinstance(pending, Mapping) and pending
        for key, field in pending.items():
            check, message, card, card_message = field
            assert isinstance(key, str) and callable(check) and message in messages.ENGLISH
            assert (card is None) == (card_message is None)
    if kit.bound is not None:
        bound: Callable[[Any], Any] = kit.load("bound")
        assert bound({"game": kit.name, "turns": []}) is None
    if kit.place_word is not None:
        place_word: Callable[[str, str | None, str | None], str | None] = kit.load("place_word")
        assert place_word("7", "nothing", None) is None  # a number it has no word for
    with pytest.raises(ValueError):
        kit.load("name")  # not a "module:attribute" part


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_every_claimable_field_and_choice_has_its_words(kit: GameKit) -> None:
    """The recorder's end screen labels each field the engine declares claimable (the shared
    words, or the kit's ``claim_labels``) and each value of a choice (the kit's
    ``claim_choices``); the kit has no word for a field or value the engine does not declare."""
    from popreplay.web.claimform import LABELS, claim_form

    game = GAMES[kit.name]
    forms = claim_form(game)
    declared = {(f["key"], c["value"]) for form in forms.values() for f in form
                for c in f.get("choices", []) if f["kind"] == "choice"}
    assert all(f["label"] for form in forms.values() for f in form)
    assert {key for key, _ in kit.claim_choices} == declared
    keys = {f["key"] for form in forms.values() for f in form}
    assert {key for key, _ in kit.claim_labels} <= keys - set(LABELS)


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_static_files_exist_and_are_served(kit: GameKit, client: Any) -> None:
    assert kit.script, f"{kit.name} has no replay renderer"
    on_disk = sorted(p.name for p in kit.static_folder.iterdir())
    assert on_disk == sorted(kit.static_files)  # every file declared, every declared file there
    for name in kit.static_files:
        assert static_file(name) == kit.static_folder
        response = client.get(f"/assets/games/{name}")
        assert response.status_code == 200, name
        assert response.get_data() == (kit.static_folder / name).read_bytes()
        assert response.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")
        response.close()
    assert client.get("/assets/games/nothing.js").status_code == 404


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_examples_validate(kit: GameKit) -> None:
    on_disk = sorted(p.stem for p in (kit.folder / "examples").glob("*"))
    assert on_disk == sorted(e.name for e in kit.examples)
    for example in kit.examples:
        assert example_kit(example.name) == (kit, example)
        assert str(example.blurb)
        result = check_text(kit.example_path(example.name).read_bytes())
        assert result["game"] == kit.name and result["mode"] in GAMES[kit.name].modes
        assert result["status"] in ("complete", "illegal"), result["errors"]
        assert not [e for e in result["errors"] if e["code"] in ("json", "schema")]
    names = list(examples())
    assert len(names) == len(set(names)) == sum(len(k.examples) for k in KITS.values())


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_kits_french_holds_exactly_its_games_messages(kit: GameKit) -> None:
    path = kit.catalogue_path("fr")
    assert path is not None and path.is_file()
    french = read_po(path.read_text("utf-8"))
    prefix = f"{kit.name}."
    assert french and all(key.startswith(prefix) for key in french)
    assert {k for k in messages.ENGLISH if k.startswith(prefix)} == set(french)
    assert kit.catalogue_path("de") is None


# --- no table of games, no game's file, anywhere else ---------------------------------------------


def _modules() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).parts
        if relative[0] in ("engine", "games", "docs", "jsonschemas", "migrations"):
            continue
        yield path


def _game_names(node: ast.AST) -> set[str]:
    values: list[ast.expr | None] = []
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        values = list(node.elts)
    elif isinstance(node, ast.Dict):
        values = list(node.keys)
    return {v.value for v in values if isinstance(v, ast.Constant) and v.value in GAMES}


# A comparison with one game's name that is still outside its kit (owner, and why).
GAME_COMPARISONS_ALLOWED = {
    "bench.py",  # POP!'s own bench beside the other games' (leaving the package: issue 22)
}


def test_no_module_outside_the_registry_and_the_kits_spells_out_the_games() -> None:
    """A literal list, tuple, set or dict naming two games or more is a table of games: it
    belongs in the registry (derived from it: ``popreplay.games.KITS``)."""
    tables, comparisons = [], []
    for path in _modules():
        relative = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if len(_game_names(node)) >= 2:
                tables.append(f"{relative}:{node.lineno}")
            if (isinstance(node, ast.Compare) and relative not in GAME_COMPARISONS_ALLOWED
                    and any(isinstance(c, ast.Constant) and c.value in GAMES
                            for c in node.comparators)):
                comparisons.append(f"{relative}:{node.lineno}")
    assert not tables, f"tables of games outside the registry and the kits: {tables}"
    assert not comparisons, f"a game's case outside its kit: {comparisons}"


# A module outside the kits that still says one game's name (owner, and why); anything else that
# names a game (a string, an import of its kit or its rules) fails the test below.
GAME_NAMES_ALLOWED = {
    "bench.py": "POP!'s own bench beside the other games' (leaving the package: issue 22)",
    "api/examples.py": "the API docs' example logs are POP! games (examples, not branches)",
    "api/group_examples.py": "the groups' API examples are POP! battles (examples, not branches)",
    "api/tables.py": "the OpenAPI example of a first draft is a POP! battle (an example, not a "
                     "branch)",
    "queue/seeding.py": "the queue's load seeds are POP! battles (bench data)",
}


def _names_a_game(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in GAMES
    if isinstance(node, ast.ImportFrom):
        modules = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
    elif isinstance(node, ast.Import):
        modules = [a.name for a in node.names]
    else:
        return False
    return any(part in GAMES for module in modules for part in module.split("."))


def test_no_module_outside_the_kits_names_a_game() -> None:
    """A game's words, forms and branches live in its kit (``popreplay/games/<g>/``) and its rules
    (``engine/games/<g>/``): no other module says its name or imports them (a fifth game is two
    folders, docs/adding-a-game.md)."""
    found = []
    for path in _modules():
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in GAME_NAMES_ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if _names_a_game(node):
                found.append(f"{relative}:{node.lineno}")
    assert not found, f"a game named outside its kit: {found}"
    for relative in GAME_NAMES_ALLOWED:
        tree = ast.parse((PACKAGE / relative).read_text("utf-8"))
        assert any(_names_a_game(node) for node in ast.walk(tree)), f"{relative} needs no leave"


def test_the_scans_cover_every_shared_module_of_the_tables() -> None:
    scanned = {path.relative_to(PACKAGE).as_posix() for path in _modules()}
    assert {"tables/gather.py", "tables/games.py", "tables/views.py"} <= scanned
    assert not {name for name in scanned if name.startswith(("engine/", "games/"))}


def test_no_module_outside_the_kits_says_a_kits_slot_role() -> None:
    """The roles a kit names public (its ``table`` module's ``PUBLIC_ROLES``: POP!'s face-up
    layout) are its words: a shared module asks the kit (``tables/games.py``), never says them."""
    from popreplay.tables import games as table_games

    words = {role for name in KITS for role in table_games.public_roles(name)}
    assert "layout" in words  # POP!'s
    found = []
    for path in _modules():
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in GAME_NAMES_ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Constant) and node.value in words:
                found.append(f"{relative}:{node.lineno}: {node.value!r}")
    assert not found, f"a kit's word outside its kit: {found}"


def test_the_scanner_finds_a_game_named_in_a_string_or_an_import() -> None:
    tree = ast.parse('from .games.pop.logformat import X\nimport popreplay.engine.games.cube\n'
                     'if log["game"] == "slap": pass\nfrom .games import KITS\n')
    assert len([node for node in ast.walk(tree) if _names_a_game(node)]) == 3


# The page modules shared by every game (popreplay/web/static/*.js): a game's name in their code
# (comments aside) is a branch for that game, which belongs in its kit's renderer or panel.
_JS_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _js_game_names(source: str) -> list[str]:
    code = _JS_COMMENT.sub("", source)
    words = re.finditer(r"(?<![.\w$])([A-Za-z_$][\w$]*)(?![\w$])", code)
    return [m.group(1) for m in words if m.group(1).lower() in GAMES]


def test_no_shared_page_module_names_a_game() -> None:
    found = []
    for path in sorted((PACKAGE / "web" / "static").glob("*.js")):
        found += [f"{path.name}: {name}" for name in _js_game_names(path.read_text("utf-8"))]
    assert not found, f"a game named in a shared page module: {found}"


def test_the_page_scanner_finds_a_game_named_in_code_not_in_a_comment() -> None:
    source = ('// POP! and slap\n/* cube */ if (view.game === "slap") x.pop();\n'
              'var bloops = 1; t("Cube rules");')
    assert _js_game_names(source) == ["slap", "bloops", "Cube"]


def test_the_scanner_finds_a_table_of_games() -> None:
    tree = ast.parse('SHAPES = {"pop": 1, "cube": 2}\nGAMES = ("slap", "bloops")\nX = ("pop",)')
    found = [node for node in ast.walk(tree) if len(_game_names(node)) >= 2]
    assert len(found) == 2


def test_no_file_of_a_game_outside_its_engine_and_its_kit() -> None:
    """Each game's files are in two folders: ``engine/games/<g>/`` and ``games/<g>/``."""
    stray = []
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in ("docs", "jsonschemas", "migrations", "engine", "games"):
            continue
        if "__pycache__" in relative.parts:
            continue
        words = set(re.split(r"[^a-z0-9]+", relative.as_posix().lower()))
        if words & set(GAMES):
            stray.append(relative.as_posix())
    assert not stray, f"files of a game outside its kit: {stray}"
    for folder in (PACKAGE / "engine" / "games").iterdir():
        if folder.is_dir() and folder.name != "__pycache__":
            assert folder.name in GAMES, folder


@pytest.mark.parametrize("kit", kits(), ids=lambda k: k.name)
def test_the_mode_words_name_the_engines_modes(kit: GameKit) -> None:
    """The pages' names of the modes (``web.words.mode_word``): one per engine mode, no other."""
    assert tuple(mode for mode, _ in kit.mode_words) == GAMES[kit.name].modes
    assert all(str(word) for _, word in kit.mode_words)
    others = {m for k in KITS.values() if k is not kit for m, _ in k.mode_words}
    assert not others & set(GAMES[kit.name].modes)  # mode_word() takes a mode without its game


def test_the_package_data_carries_every_kits_files() -> None:
    """pyproject's package-data globs match each kit's static files, examples and catalogues, so
    an installed service has them (the kits' Python is found as packages)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["popreplay"]
    matched = {path.resolve() for pattern in patterns for path in PACKAGE.glob(pattern)}
    for kit in KITS.values():
        files = [kit.static_folder / name for name in kit.static_files]
        files += [kit.example_path(example.name) for example in kit.examples]
        files += [kit.folder / name for name in kit.catalogues]
        for path in files:
            assert path.resolve() in matched, path

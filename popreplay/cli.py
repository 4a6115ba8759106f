"""The ``popreplay`` command line (``spec/pop.md`` section 7, and the service commands)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Iterator

import click

from . import render
from .checking import check_text
from .engine import ENGINE_VERSION, GAMES, get_game
from .engine.messages import msg
from .i18n import from_environment, localize

EXIT_OK, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Commands(click.Group):
    """The command group: ``validate``, ``replay`` and ``simulate`` are here; the service's
    commands (``service_cli.register``: serve, db, import, export, revalidate, worker, jobs) and
    ``bench`` are added when a name not here is asked for, or the list of commands (``--help``),
    so that checking a log imports nothing of the service (no Flask, SQLAlchemy, Celery,
    marshmallow; ``tests/cli/test_startup.py``)."""

    def _load_the_rest(self) -> None:
        if getattr(self, "_rest_loaded", False):
            return
        self._rest_loaded = True
        from .bench import bench
        from .service_cli import register

        register(self)
        self.add_command(bench)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            self._load_the_rest()
            command = super().get_command(ctx, cmd_name)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_the_rest()
        return super().list_commands(ctx)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ENGINE_VERSION, prog_name="popreplay")
def main() -> None:
    """Replay card-game logs, check every move, recompute the scores."""


def colour_choice(flag: bool | None) -> bool | None:
    """Colours or not: ``--color``/``--no-color`` first, then ``FORCE_COLOR``, then ``NO_COLOR``
    (each counts when set and not empty), else None: click decides (colours on a terminal only,
    so ``| less -R`` needs ``--color`` or ``FORCE_COLOR=1``)."""
    if flag is not None:
        return flag
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("NO_COLOR"):
        return False
    return None


def lang_choice(flag: str | None) -> str:
    """The language of messages and notes: ``--lang`` first, else ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` (``fr_*`` is French), else English."""
    return flag or from_environment(os.environ)


lang_option = click.option(
    "--lang", "lang", type=click.Choice(["en", "fr"]), default=None,
    help="Language of messages and notes (en, fr). Default: from LC_ALL, LC_MESSAGES or LANG "
         "(fr_* is French), else English.")

SPEC_ERROR_KEYS = ("code", "message", "round", "turn", "path")


def in_language(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """``result`` with its messages and notes in ``lang``; error entries keep exactly the
    spec's keys (``spec/pop.md``, result object), steps keep ``note_id`` and ``note_params``."""
    if lang == "en":
        return result
    out = localize(result, lang)
    out["errors"] = [{k: e[k] for k in SPEC_ERROR_KEYS if k in e} for e in out["errors"]]
    return out


colour_option = click.option(
    "--color/--no-color", "color", default=None,
    help="Colours even in a pipe (for `less -R`), or never. Default: on a terminal only, "
         "unless FORCE_COLOR or NO_COLOR is set.")


# --- validate ------------------------------------------------------------------------------------


def _read(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    return Path(source).read_bytes()


def _unreadable(source: str, error: OSError) -> dict[str, Any]:
    reason = error.strerror or str(error)
    return {"source": source, "game": None, "mode": None, "engine": ENGINE_VERSION,
            "status": "invalid", "legal": False,
            "errors": [{"code": "unreadable",
                        "message": msg("core.unreadable", source=source, reason=reason),
                        "round": None, "turn": None, "path": ""}],
            "outcome": None, "claims": None}


def _results(sources: tuple[str, ...], ndjson: bool) -> Iterator[dict[str, Any]]:
    """One result per log, streamed: an NDJSON source is read a line at a time."""
    for source in sources:
        if ndjson:
            try:
                stream = sys.stdin.buffer if source == "-" else open(source, "rb")  # noqa: SIM115
            except OSError as error:
                yield _unreadable(source, error)
                continue
            with stream:
                for number, line in enumerate(stream, start=1):
                    if line.strip():
                        yield {"source": f"{source}:{number}", **check_text(line)}
            continue
        try:
            text = _read(source)
        except OSError as error:
            yield _unreadable(source, error)
            continue
        yield {"source": source, **check_text(text)}


def exit_code(result: dict[str, Any]) -> int:
    if result["status"] == "invalid":
        return EXIT_INVALID
    if result["status"] == "illegal" or (result["claims"] and not result["claims"]["match"]):
        return EXIT_ILLEGAL
    return EXIT_OK


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One result object per line (NDJSON).")
@click.option("--ndjson", is_flag=True,
              help="Each FILE holds one log per line (streamed, constant memory).")
@colour_option
@lang_option
def validate(files: tuple[str, ...], as_json: bool, ndjson: bool, color: bool | None,
             lang: str | None) -> None:
    """Replay each log FILE ('-' for standard input) and say whether it is legal.

    Exit status: 2 if any file is invalid or unreadable, else 1 if any is illegal or has claims
    that differ, else 0.
    """
    colour = colour_choice(color)
    lang = lang_choice(lang)
    worst = EXIT_OK
    rows: list[dict[str, str]] = []
    streamed = 0
    for result in _results(files, ndjson):
        worst = max(worst, exit_code(result))
        result = in_language(result, lang)
        if as_json:
            click.echo(_dumps(result))
        elif ndjson:  # a stream: one row at a time, in constant memory
            click.echo(render.table([render.summary_row(result, lang)], header=not streamed,
                                    lang=lang), color=colour)
            streamed += 1
        else:
            rows.append(render.summary_row(result, lang))
    if not as_json and not ndjson:
        click.echo(render.table(rows, lang=lang), color=colour)
    sys.exit(worst)


# --- replay --------------------------------------------------------------------------------------


@main.command()
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="The result object with its steps.")
@click.option("--step", type=int, default=None, help="Show only step N (0-based).")
@colour_option
@lang_option
def replay(file: str, as_json: bool, step: int | None, color: bool | None,
           lang: str | None) -> None:
    """Replay one log FILE step by step, drawing the table after each step."""
    lang = lang_choice(lang)
    try:
        text = _read(file)
    except OSError as error:
        result = _unreadable(file, error)
    else:
        result = dict(check_text(text, with_steps=True))
    result = in_language(result, lang)
    steps = result.get("steps", [])
    if step is not None and not 0 <= step < max(len(steps), 1):
        raise click.BadParameter(f"the replay has {len(steps)} steps (0–{len(steps) - 1})",
                                 param_hint="--step")
    if as_json:
        if step is not None:
            result = {**result, "steps": [steps[step]]}
        click.echo(_dumps(result))
    else:
        colour = colour_choice(color)
        chosen = steps if step is None else [steps[step]]
        for item in chosen:
            click.echo(render.step(result, item, lang), color=colour)
        click.echo(render.verdict(result, lang), color=colour)
    sys.exit(exit_code(result))


# --- simulate ------------------------------------------------------------------------------------


@main.command()
@click.option("--game", type=click.Choice(sorted(GAMES)), default=next(iter(GAMES)),
              show_default=True)
@click.option("--mode", required=True,
              help="A mode of the game: " + "; ".join(
                  f"{name}: {', '.join(game.modes)}" for name, game in sorted(GAMES.items())) + ".")
@click.option("--players", type=int, required=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--count", type=int, default=1, show_default=True, help="How many games.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write one file per game here instead of NDJSON on standard output.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A log option, e.g. difficulty=3 or two_player_variant=true.")
def simulate(game: str, mode: str, players: int, seed: int, count: int, out: Path | None,
             options: tuple[str, ...]) -> None:
    """Random legal games, identical for identical seeds (game K uses seed SEED+K)."""
    engine = get_game(game)
    if mode not in engine.modes:
        raise click.BadParameter(f"{game} modes: {', '.join(engine.modes)}", param_hint="--mode")
    parsed = {}
    for item in options:
        key, _, value = item.partition("=")
        try:
            parsed[key] = json.loads(value)
        except json.JSONDecodeError:
            parsed[key] = value
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for k in range(count):
        try:
            log = engine.simulate(mode=mode, players=players, seed=seed + k, options=parsed)
        except ValueError as error:
            raise click.UsageError(str(error)) from None
        if out is None:
            click.echo(_dumps(log))
        else:
            path = out / f"{game}-{mode}-{players}p-{seed + k}.json"
            path.write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", "utf-8")
    if out is not None:
        click.echo(f"wrote {count} game{'s' * (count != 1)} to {out}", err=True)

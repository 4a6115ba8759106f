"""The game-agnostic replay core: violations, steps, the result object, claims.

Every game plugs in through :class:`Game` (see ``registry.py``). A game's ``replay`` receives a
log whose JSON *shape* has already been checked and returns a :class:`GameReplay`; this module turns
it into the published result object (``spec/pop.md`` section 6), compares the claims and keeps the
key order fixed so that the same log always serialises to the same bytes.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Protocol

from .messages import ids
from .pointer import join

ENGINE_VERSION = "0.2.2"

Status = Literal["complete", "incomplete", "illegal", "invalid"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem with a log: a rule violation, or a JSON/shape error."""

    code: str
    message: str
    path: str
    round: int | None = None
    turn: int | None = None

    def to_dict(self, *, with_ids: bool = False) -> dict[str, Any]:
        """The error entry of the result object (``spec/pop.md``: exactly these five keys);
        ``with_ids`` adds ``message_id`` and ``params`` (the message language-free, see
        ``messages.py``; both ``None`` for a message that has no id yet)."""
        entry: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "round": self.round,
            "turn": self.turn,
            "path": self.path,
        }
        if with_ids:
            entry["message_id"], entry["params"] = ids(self.message)
        return entry


class RuleViolation(Exception):
    """Raised inside a game engine at the first rule violation; the replay stops there."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message)
        self.violation = violation


@dataclass(slots=True)
class GameReplay:
    """What a game engine returns; the core adds the envelope and the claims."""

    status: Literal["complete", "incomplete", "illegal"]
    outcome: dict[str, Any] | None
    violation: Violation | None = None
    steps: list[dict[str, Any]] | None = None
    mode: str | None = None


class Game(Protocol):
    """The interface every game implements (POP!, cube, slap, Bloops).

    Steps (when ``with_steps``) are dicts ``{index, kind, round, turn, note, note_id, note_params,
    data, state}`` made with :class:`StepRecorder`: ``kind`` names the event, ``note`` is one
    plain-English sentence (``note_id`` and ``note_params`` the same note language-free, see
    ``messages.py``),
    ``data`` what happened, ``state`` the whole visible table after the step (JSON-ready).
    """

    name: str  # the log's "game" value
    title: str  # for people: "POP!"
    modes: tuple[str, ...]
    player_counts: dict[str, tuple[int, int]]  # mode -> (fewest, most) players
    lower_score_wins: bool  # for player statistics: is the best score the lowest?

    def replay(self, log: Mapping[str, Any], *, with_steps: bool = False) -> GameReplay:
        """Replay a shape-valid log. Never raises for a rule problem: reports a violation."""

    def simulate(
        self, *, mode: str, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A random legal, complete log; the same arguments always give the same log."""

    def standings(self, outcome: Mapping[str, Any], players: list[str]) -> dict[str, Any]:
        """Per player ``{"score": number|None, "won": bool|None}`` from a legal outcome, for
        player statistics (``None`` where the mode has no such thing or it is not decided)."""

    def zones(self, state: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Every card a step's ``state`` accounts for, by zone (card ids, or slot ids for unknown
        cards). The generic property tests check that no card is in two zones and that within a
        round no card disappears."""

    # Optional, for the recorder (docs/recorder.md, "Contracts for game panels"); a game without
    # them cannot be recorded live.

    def choices(self, log: Mapping[str, Any], *,
                pending: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """What may come next after a shape-valid draft ``log`` (``pending``: a partial entry):
        ``{"over": bool, "next": {kind: ...}, ...}``, or ``{"error": violation, "next": {}}``."""

    def cut(self, log: Mapping[str, Any], step: int) -> dict[str, Any]:
        """The draft a what-if branch from step ``step`` starts from (``claimed`` dropped)."""

    def claimable(self, mode: str) -> list[dict[str, Any]]:
        """What a score sheet of ``mode`` can claim: ``[{"key", "kind", ...}]``, the recorder's
        end screen (``engine/claimable.py``)."""


@dataclass(slots=True)
class StepRecorder:
    """Collects annotated steps when a viewer wants them; a no-op on the fast path."""

    enabled: bool
    steps: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self,
        kind: str,
        *,
        round: int | None,
        turn: int | None,
        note: str,
        data: dict[str, Any],
        state: dict[str, Any] | None,  # None: a violation before the table exists
    ) -> None:
        note_id, note_params = ids(note)
        self.steps.append(
            {
                "index": len(self.steps),
                "kind": kind,
                "round": round,
                "turn": turn,
                "note": str(note),
                "note_id": note_id,
                "note_params": note_params,
                "data": data,
                "state": state,
            }
        )


def replay_game(game: Any, recorder: StepRecorder, notes: Any, *,
                outcome: Any) -> GameReplay:
    """Run a game's replayer: the first rule violation stops it. ``game.run()`` returns
    ``complete`` or ``incomplete``; ``outcome(status)`` gives the outcome; when steps are recorded,
    ``notes.violation(game, error)`` and ``notes.game_end(game, outcome)`` add the last step."""
    try:
        status = game.run()
    except RuleViolation as stop:
        if recorder.enabled:
            notes.violation(game, stop.violation.to_dict(with_ids=True))
        return GameReplay("illegal", None, stop.violation, recorder.steps)
    result = outcome(status)
    if recorder.enabled and status == "complete":
        notes.game_end(game, result)
    return GameReplay(status, result, None, recorder.steps)


def build_result(
    log: Mapping[str, Any], game_replay: GameReplay, *, with_steps: bool = False
) -> dict[str, Any]:
    """The result object of a replayed log, in the published key order."""
    legal = game_replay.status in ("complete", "incomplete")
    claimed = log.get("claimed")
    claims = None
    if legal and claimed is not None and game_replay.outcome is not None:
        claims = compare_claims(claimed, game_replay.outcome)
    result: dict[str, Any] = {
        "game": log.get("game"),
        "mode": game_replay.mode if game_replay.mode is not None else log.get("mode"),
        "engine": ENGINE_VERSION,
        "status": game_replay.status,
        "legal": legal,
        "errors": [] if game_replay.violation is None else [game_replay.violation.to_dict()],
        "outcome": game_replay.outcome if legal else None,
        "claims": claims,
    }
    if with_steps:
        result["steps"] = game_replay.steps or []
    return result


def invalid_result(errors: list[Violation], *, game: Any = None, mode: Any = None) -> dict[str, Any]:
    """The result object of a log that is not JSON or not of the right shape."""
    return {
        "game": game if isinstance(game, str) else None,
        "mode": mode if isinstance(mode, str) else None,
        "engine": ENGINE_VERSION,
        "status": "invalid",
        "legal": False,
        "errors": [error.to_dict() for error in errors],
        "outcome": None,
        "claims": None,
    }


# --- claims -----------------------------------------------------------------------------------

_MISSING = object()


def compare_claims(claimed: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
    """Compare a partial claimed outcome with the computed one (``spec/pop.md`` section 5).

    Maps are compared key by key (a key the outcome lacks compares with ``null``), the ``rounds``
    list entry by entry with each entry partial, ``winners`` as a set (order and repetition do not
    matter), any other list as a whole. Every text, keys included, is compared after Unicode NFC,
    like names everywhere else in a log: a claim for "Chlo" + U+0301 is a claim for "Chloé" (the
    difference, if any, points at the outcome's own spelling). Differences are listed in the order
    the claim gives its keys.
    """
    differences: list[dict[str, Any]] = []
    _compare_map(claimed, outcome, "", differences)
    return {"match": not differences, "differences": differences}


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _compare_map(
    claimed: Mapping[str, Any], computed: Any, base: str, out: list[dict[str, Any]]
) -> None:
    spellings: dict[str, str] | None = None  # NFC form -> the outcome's key, built when needed
    for key, value in claimed.items():
        actual, name = None, key
        if isinstance(computed, Mapping):
            actual = computed.get(key, _MISSING)
            if actual is _MISSING:
                if spellings is None:
                    spellings = {_nfc(k): k for k in computed if isinstance(k, str)}
                name = spellings.get(_nfc(key), key)
                actual = computed.get(name)
        _compare_value(key, value, actual, join(base, name), out)


def _compare_value(key: str, claimed: Any, computed: Any, path: str, out: list) -> None:
    if key == "rounds" and isinstance(claimed, list):
        computed_rounds = computed if isinstance(computed, list) else []
        for index, entry in enumerate(claimed):
            actual = computed_rounds[index] if index < len(computed_rounds) else None
            entry_path = join(path, index)
            if isinstance(entry, Mapping):
                _compare_map(entry, actual, entry_path, out)
            elif not _same(entry, actual):
                out.append(_difference(entry_path, entry, actual))
    elif key == "winners" and isinstance(claimed, list):
        if not (isinstance(computed, list) and _same_set(claimed, computed)):
            out.append(_difference(path, claimed, computed))
    elif isinstance(claimed, Mapping):  # key by key, down to the leaves, even where nothing
        _compare_map(claimed, computed, path, out)  # was computed (each leaf then differs)
    elif not _same(claimed, computed):
        out.append(_difference(path, claimed, computed))


def _same(a: Any, b: Any) -> bool:
    # JSON has no bool/int confusion: True must not equal 1.
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) and isinstance(b, str):
        return _nfc(a) == _nfc(b)
    return _text(a) == _text(b) if isinstance(a, (list, dict)) else a == b


def _same_set(a: list, b: list) -> bool:
    return set(map(_text, a)) == set(map(_text, b))


def _text(value: Any) -> str:
    """``canonical`` after NFC: combining marks only occur inside JSON strings, where NFC is
    exactly the comparison of names (a mark never composes with JSON punctuation)."""
    return _nfc(canonical(value))


def _difference(path: str, claimed: Any, computed: Any) -> dict[str, Any]:
    return {"field": path, "claimed": claimed, "computed": computed}


# --- serialisation ----------------------------------------------------------------------------


def canonical(value: Any) -> str:
    """The one serialisation of results: the same value always gives the same bytes."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)

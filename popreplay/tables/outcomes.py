"""What a table's use cases answer (``tables/usecases.py``): frozen values, no HTTP in them. The
API turns each into its response (``api/tables.py``); a test reads them as they are."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable, TypeVar

from .. import budget
from .model import TableError, Viewer
from .rows import Row, Snapshot
from .state import State

# why a request is refused: what it is, never how it is sent
REASONS = (
    "invalid",     # not a request of this shape (a JSON Pointer names where)
    "rules",       # the engine refuses it (the rule's message)
    "forbidden",   # not this phone's to make (docs/table.md "Who may make which entry")
    "filled",      # a slot filled already: the refusal names who filled it
    "correction",  # it changes the past: a correction, by its seat or the host
    "no-token",    # no token at all
    "not-found",   # no such table
    "closed",      # the table's game is stored: nothing more is entered
    "seat-taken",  # another phone holds this seat
    "full",        # the table holds its entries, or its draft its bytes
    "conflict",    # the log is stored already (by another table or upload)
)


@dataclass(frozen=True)
class Refused:
    """Nothing took effect: ``reason`` (one of :data:`REASONS`), a sentence, the error entries
    (each a JSON Pointer), and for a correction the corrected draft (to name places in words)."""

    reason: str
    message: str
    errors: tuple[dict[str, Any], ...] = ()
    log: dict[str, Any] | None = None

    @classmethod
    def of(cls, error: TableError) -> Refused:
        """A refusal the lower layers raised (their status says which reason)."""
        codes = {str(e.get("code")) for e in error.errors}
        reason = {401: "no-token", 403: "forbidden", 404: "not-found", 409: "closed"}.get(
            error.status, "rules")
        if "table-full" in codes:
            reason = "full"
        elif reason == "rules" and codes <= {"bad-request"} and codes:
            reason = "invalid"
        elif error.status == 409 and "seat" in error.message.lower():
            reason = "seat-taken"
        return cls(reason, error.message, tuple(error.errors), getattr(error, "log", None))


@dataclass(frozen=True)
class Busy:
    """The engine's work did not finish within the budget (it goes on, kept for the retry);
    ``appended``: the entry took effect all the same (its retry is a duplicate)."""

    why: str = ""
    appended: tuple[int, ...] = ()


@dataclass(frozen=True)
class Created:
    table: Snapshot
    host_token: str
    join_key: str
    state: State


@dataclass(frozen=True)
class SeatTaken:
    table: Snapshot
    player: str
    token: str  # the same one for a retry of the same request
    viewer: Viewer
    state: State
    again: bool = False  # a retry: the seat was taken by this request already


@dataclass(frozen=True)
class KeeperNamed:
    table: Snapshot
    keeper: str | None  # None: the host only


@dataclass(frozen=True)
class Appended:
    table: Snapshot
    state: State
    seqs: tuple[int, ...]
    notify: tuple[str, ...] = ()  # players whose part was refused meanwhile


@dataclass(frozen=True)
class Duplicate:
    table: Snapshot
    state: State
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class Stale:
    table: Snapshot
    state: State
    missed: tuple[Row, ...]  # the entries after ``seen``


@dataclass(frozen=True)
class Stored:
    table: Snapshot
    slug: str
    owner_token: str  # the same one for a retry
    record: Any  # the stored game (db.models.GameRecord)
    again: bool = False


@dataclass(frozen=True)
class Signed:
    table: Snapshot
    player: str


Outcome = Any  # one of the classes above
Publish = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Limits:
    """A table's bounds (docs/table.md "Limits"): the rows it takes, the bytes of its draft, the
    bytes and depth of one entry (an upload's: logformat/limits.py)."""

    max_entries: int | None = None
    max_draft_bytes: int | None = None
    max_entry_bytes: int | None = None
    max_depth: int = 32


@dataclass(frozen=True)
class Deps:
    """What the use cases need, built once by the app factory (``popreplay/app.py``):
    ``session()`` the unit of work of this request, ``wait`` the engine's budget (seconds,
    ``None``: in the caller), ``publish`` the fan-out (never raises: it logs), the limits, and the
    key that derives a retry's token."""

    session: Callable[[], Any]
    wait: float | None
    publish: Publish
    limits: Limits = field(default_factory=Limits)


T = TypeVar("T")


def use_case(function: Callable[..., T]) -> Callable[..., T | Refused | Busy]:
    """A refusal raised below (the decision, the corrections: :class:`TableError`) or the engine
    past its budget (:class:`budget.Busy`) answered as an outcome."""

    @wraps(function)
    def run(*args: Any, **kwargs: Any) -> T | Refused | Busy:
        try:
            return function(*args, **kwargs)
        except TableError as error:
            return Refused.of(error)
        except budget.Busy as busy:
            return Busy(busy.why)

    return run

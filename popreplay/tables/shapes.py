"""The fixed shapes a table's corrections and sign-off hand across module boundaries (to the
table's view, the stream, the API, the stored game's pages), as ``TypedDict``: plain dicts at
run time, so the JSON they become is unchanged (docs/table.md "Corrections", "Sign-off").

A leaf module (typing only): the corrections, the sign-off, the state and the views import it.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = ["ChangeShown", "ClaimsChecked", "Correctable", "CorrectableField", "Correction",
           "CorrectionText", "Dispute", "EntryCorrection", "Gathering", "GatheringSlot",
           "Replayed", "Seat", "SeatView", "SignoffSummary", "StoredChange", "StoredCorrected",
           "StoredTable", "TableView", "You"]


# --- a correction as stored (the body of a ``correct`` entry) -----------------------------------

class StoredChange(TypedDict):
    """One value a correction changed: ``path`` a JSON Pointer into the entry's value."""

    path: str
    old: Any
    new: Any


class StoredCorrected(TypedDict):
    """One corrected entry of a correction's body: its old and new body and each change."""

    seq: int
    old: dict[str, Any]
    new: dict[str, Any]
    changes: list[StoredChange]


# --- a correction as shown (the table's view, the stream, the stored game) -----------------------

class ChangeShown(TypedDict):
    """A change with ``pointer`` (into the draft); ``hidden`` (old and new ``None``) where the
    phone may not see the value; ``entry`` (the corrected entry's seq) in a stream entry."""

    path: str
    pointer: str
    old: Any
    new: Any
    entry: NotRequired[int]
    hidden: NotRequired[bool]


class Correction(TypedDict):
    """One corrected entry of a correction, in the history (``corrections.history``)."""

    seq: int
    who: str
    at: str | None
    entry: int
    changes: list[ChangeShown]


class CorrectionText(Correction):
    """A correction with its sentence (``signoff.correction_texts``)."""

    text: str


class EntryCorrection(TypedDict):
    """A correction as an entry of the list and the stream (``corrections.entry_view``)."""

    who: str | None
    entries: list[int]
    changes: list[ChangeShown]


class CorrectableField(TypedDict):
    path: str
    pointer: str
    value: Any
    where: NotRequired[str]  # the API adds it, in words


class Correctable(TypedDict):
    """An entry this phone may correct, with the values it may change."""

    seq: int
    pointer: str
    fields: list[CorrectableField]
    where: NotRequired[str]  # the API adds it, in words


# --- the table's view (``views.view``, before its messages are localized) ---------------------

class SeatView(TypedDict):
    """What a seat (or a spectator) sees of a draft with private cards: the draft, the engine's
    ``choices`` and result for it (``views.seat_view``, kept per table, seq and player)."""

    log: dict[str, Any]
    choices: dict[str, Any]
    result: dict[str, Any] | None


class Seat(TypedDict):
    player: str
    taken: bool


class You(TypedDict):
    role: str
    player: str | None


class GatheringSlot(TypedDict):
    """A slot of an entry being gathered: who filled it; its cards only to those who may see
    them; ``offers`` to the phone that may fill it."""

    index: int
    role: str
    player: str | None
    count: int
    filled: bool
    by: str | None
    yours: bool
    cards: list[Any] | None
    offers: NotRequired[list[Any] | None]


class Gathering(TypedDict):
    round: Any
    turn: Any
    slots: list[GatheringSlot]


class TableView(TypedDict):
    """The table as a viewer may see it (docs/table.md): the draft, the result and the choices
    (a seat's own for a game with private cards), the entries being gathered, the corrections."""

    table: str
    seq: int
    status: str
    stored: str | None
    game: str
    mode: str
    players: list[str]
    hands_recorded: bool
    seats: list[Seat]
    you: You
    keeper: str | None
    shared_by: str
    log: dict[str, Any] | None
    result: dict[str, Any] | None
    choices: dict[str, Any] | None
    over: bool
    error: dict[str, Any] | None
    hand: list[Any] | None
    gathering: dict[str, Gathering]
    refused: dict[str, Any] | None
    corrections: list[Correction]
    private: bool


# --- the sign-off ------------------------------------------------------------------------------

class Dispute(TypedDict):
    player: str
    step: int | None
    sentence: str | None
    at: str | None
    text: str


class SignoffSummary(TypedDict):
    """Who signed off the draft as it is now (``signoff.summary``)."""

    table: str
    players: int
    confirmed: int
    confirmed_by: list[str]
    disputes: list[Dispute]
    waiting: list[str]
    text: str


class StoredTable(TypedDict):
    """What a stored game recorded at a table shows of it (``signoff.stored``)."""

    signoff: SignoffSummary
    corrections: list[CorrectionText]


class Replayed(TypedDict):
    """The engine's result of a draft and each replay step's ``[round, turn]``."""

    result: dict[str, Any] | None
    places: list[list[Any]]


class ClaimsChecked(TypedDict, total=False):
    """A score sheet compared by the engine: ``{claims, errors}``, or ``{error}``."""

    claims: Any
    errors: list[Any]
    error: dict[str, Any]

"""The API's engine work within its budget (popreplay/budget.py): how long a request waits."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Hashable

from flask import current_app

from .. import budget
from ..checking import check_json, check_text


def work_wait() -> float | None:
    """The budget of a request's engine work: ``POPREPLAY_REPLAY_WAIT`` seconds (None: no limit,
    computed in the request)."""
    return current_app.config["REPLAY_WAIT"]


def within_budget(key: Hashable | None, function: Callable[..., Any], *args: Any) -> Any:
    """:func:`budget.run` with this request's budget."""
    return budget.run(key, function, *args, wait=work_wait())


def engine_check(data: Any) -> dict[str, Any]:
    """A parsed log's result (an upload, a draft stored or replaced), beside the request."""
    return within_budget(None, check_json, data)


def text_check(raw: bytes, with_steps: bool) -> dict[str, Any]:
    """A log's result from its bytes (``POST /validate``), beside the request."""
    return within_budget(None, partial(check_text, with_steps=with_steps), raw)

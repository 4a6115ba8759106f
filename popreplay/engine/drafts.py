"""Helpers for the recorder's engine side (``choices`` and ``cut`` of each game)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .replay import RuleViolation, StepRecorder


def events_within(step: int, recorder: StepRecorder, start: Callable[[], None],
                  apply: Callable[[int, Any], None], events: Sequence[Any]) -> int:
    """How many of ``events``, replayed one by one (``start()`` first, then ``apply(position,
    event)``, recording steps into ``recorder``), have all their steps at or before step ``step``.
    The replay stops at the first rule violation."""
    kept = 0
    try:
        start()
        for position, event in enumerate(events):
            apply(position, event)
            if len(recorder.steps) > step + 1:
                break
            kept = position + 1
    except RuleViolation:
        pass
    return kept

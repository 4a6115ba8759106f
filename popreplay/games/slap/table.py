"""slap at a table: what a live table (``popreplay/tables``) needs of this game's drafts. Formats
only, no rule (docs/table.md)."""

from __future__ import annotations

from typing import Any, Mapping

# flips and slaps come too fast to share: one phone records every entry (the table's keeper, or
# the host): popreplay/tables/authority.py
SHARED_BY = "keeper"


def authors(log: Mapping[str, Any], at: str, value: Any) -> tuple[frozenset[str], bool]:
    """Every entry of a slap draft is the recording phone's (nobody's own)."""
    return frozenset(), True

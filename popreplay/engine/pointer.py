"""JSON Pointers (RFC 6901) for rule violations and claim differences."""

from __future__ import annotations


def escape(token: str | int) -> str:
    """Escape one reference token: ``~`` becomes ``~0`` and ``/`` becomes ``~1``."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(*tokens: str | int) -> str:
    """Build a pointer from raw tokens: ``pointer("rounds", 0, "a/b")`` is ``/rounds/0/a~1b``."""
    return "".join("/" + escape(token) for token in tokens)


def join(base: str, *tokens: str | int) -> str:
    """Extend an existing pointer with more raw tokens."""
    return base + pointer(*tokens)


def split(path: str) -> list[str]:
    """A JSON Pointer's tokens, unescaped (``""``: none)."""
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")] if path else []

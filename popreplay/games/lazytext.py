"""A string for people marked for the pages' catalogue and said in the page's language when read:
what ``flask_babel.lazy_gettext`` gives, without importing Flask until a string is read (the
kits are read by the command line, which checks logs without the service; ``docs/performance.md``,
*Start-up*). The kits write ``_l("...")``: pybabel extracts that keyword (``babel.cfg``)."""

from __future__ import annotations

from typing import Any


class LazyText:
    """``gettext(text)`` each time it is read, in the language of the request (Flask-Babel);
    compares, hashes and formats as that string, as ``flask_babel``'s ``LazyString`` does."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        from flask_babel import gettext

        return str(gettext(self.text))

    def __html__(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"l{str(self)!r}"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(str(self), name)

    def __len__(self) -> int:
        return len(str(self))

    def __iter__(self) -> Any:
        return iter(str(self))

    def __contains__(self, item: str) -> bool:
        return item in str(self)

    def __getitem__(self, key: Any) -> str:
        return str(self)[key]

    def __add__(self, other: str) -> str:
        return str(self) + other

    def __radd__(self, other: str) -> str:
        return other + str(self)

    def __mod__(self, other: Any) -> str:
        return str(self) % other

    def __eq__(self, other: object) -> bool:
        return str(self) == other

    def __lt__(self, other: str) -> bool:
        return str(self) < other

    def __hash__(self) -> int:
        return hash(str(self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def lazy_gettext(text: str) -> LazyText:
    return LazyText(text)

"""A use case's refusal, as data: what the API answers and the pages show."""

from __future__ import annotations


class Refused(Exception):
    """Nothing was done: ``code`` for programs, ``message`` for people, ``path`` the JSON Pointer
    of the input at fault, ``status`` the HTTP status that says it best."""

    def __init__(self, status: int, code: str, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.path = status, code, message, path

    def as_error(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "path": self.path}

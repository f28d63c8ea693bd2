"""User-facing errors: bad input is reported as `PATH:LINE: what is wrong` and exit code 2."""

from __future__ import annotations

from os import PathLike


class InputError(Exception):
    """A problem with something the user gave us (a file, a value, an option)."""

    exit_code = 2

    def __init__(self, message: str, path: str | PathLike | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"

    def at(self, path: str | PathLike, line: int | None = None) -> "InputError":
        """The same error, located in a file (keeps an existing location)."""
        if self.path is None:
            self.path = str(path)
            self.line = line if self.line is None else self.line
        return self


def fail(message: str, path: str | PathLike | None = None, line: int | None = None):
    """Raise an InputError; handy inside parsers."""
    raise InputError(message, path, line)

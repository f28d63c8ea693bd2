"""User-facing errors: bad input is reported as `PATH:LINE: what is wrong` and exit code 2.

A message is always one line: `quote` shortens the offending text it cites to about 80
characters, and `InputError` itself folds any line breaks and caps the message's length.
"""

from __future__ import annotations

from os import PathLike

QUOTE_LIMIT = 80  # characters of the offending text a message may cite
MESSAGE_LIMIT = 400  # characters of a whole message (path and line excluded)


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """`repr`-style quotation of offending input, shortened to about `limit` characters."""
    s = text if isinstance(text, str) else str(text)
    if len(s) > limit:
        s = f"{s[:limit - 20]}…{s[-12:]}"
        return repr(s) + f" ({len(text if isinstance(text, str) else str(text))} characters)"
    return repr(s)


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """The message on one line and at most `limit` characters."""
    flat = " ".join(str(message).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class InputError(Exception):
    """A problem with something the user gave us (a file, a value, an option)."""

    exit_code = 2

    def __init__(self, message: str, path: str | PathLike | None = None, line: int | None = None):
        super().__init__(message)
        self.message = one_line(message)
        self.path = None if path is None else str(path)
        self.line = line

    def __str__(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"

    def at(self, path: str | PathLike, line: int | None = None) -> InputError:
        """The same error, located in a file (keeps an existing location)."""
        if self.path is None:
            self.path = str(path)
            self.line = line if self.line is None else self.line
        return self


def fail(message: str, path: str | PathLike | None = None, line: int | None = None):
    """Raise an InputError; handy inside parsers."""
    raise InputError(message, path, line)

"""Glue shared by every engine's command line: error handling and the common output options."""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from .errors import InputError


def int_at_least(minimum: int):
    """An argparse type: a whole number >= minimum (a usage error, exit 2, otherwise)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a number >= {minimum}, got {value}")
        return value

    parse.__name__ = "integer" if minimum == 0 else f"integer >= {minimum}"
    return parse


positive_int = int_at_least(1)
non_negative_int = int_at_least(0)


def positive_float(text: str) -> float:
    """An argparse type: a number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return value


def add_output_args(parser: argparse.ArgumentParser, out_help: str = "write the reproducible result (canonical JSON) here") -> None:
    """--json / --out / --timing, understood by `lab.results.emit`."""
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--out", metavar="FILE", help=out_help)
    parser.add_argument("--timing", metavar="FILE", help="write wall-clock times and memory peaks here (never hashed)")


def run_guarded(fn: Callable[[], int | None]) -> int:
    """Run a command; bad input becomes `PATH:LINE: reason` on stderr and exit code 2, never a traceback."""
    try:
        code = fn()
        return 0 if code is None else int(code)
    except InputError as err:
        print(f"puzzlelab: error: {err}" if err.path is None else str(err), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("puzzlelab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:
        # Disk full, permission denied, missing file: the user's environment, not a bug.
        where = f"{err.filename}: " if getattr(err, "filename", None) else ""
        print(f"{where}{err.strerror or err}", file=sys.stderr)
        return 2

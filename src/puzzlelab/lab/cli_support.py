"""Glue shared by every engine's command line: error handling and the common output options."""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from .errors import InputError


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

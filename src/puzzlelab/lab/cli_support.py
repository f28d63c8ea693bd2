"""Glue shared by every engine's command line: error handling and the common output options."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from .errors import InputError, one_line, quote


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


# One spelling per concept across every engine's commands (docs/CONVENTIONS.md, "Flags").
DEFAULT_MEMORY_BUDGET = "4G"


def add_memory_budget_arg(parser: argparse.ArgumentParser, default: str | None = DEFAULT_MEMORY_BUDGET,
                          help: str = "RAM the search may hold before it spills or stops (e.g. 512M, 2G)") -> None:
    """--memory-budget SIZE (parse it with `lab.sizes.parse_size`)."""
    parser.add_argument("--memory-budget", default=default, metavar="SIZE", help=help)


def add_checkpoint_args(parser: argparse.ArgumentParser) -> None:
    """--checkpoint DIR and --checkpoint-every S: a long BFS that a killed run can resume."""
    parser.add_argument("--checkpoint", metavar="DIR",
                        help="save the search in DIR between depths; a run given the DIR of an interrupted run of "
                             "the same search resumes it (same result); removed when the search ends")
    parser.add_argument("--checkpoint-every", type=positive_float, default=600.0, metavar="S",
                        help="seconds between two saves (default 600; a save happens at the end of a depth)")


def add_node_limit_arg(parser: argparse.ArgumentParser, default: int | None = None, required: bool = False,
                       help: str = "stop after this many search nodes (reproducible, unlike --timeout)") -> None:
    """--node-limit N: the machine-independent budget of the tree searches (edgematch, balda)."""
    parser.add_argument("--node-limit", type=positive_int, default=default, required=required, metavar="N",
                        help=help)


def add_work_limit_arg(parser: argparse.ArgumentParser, default: int | None = None,
                       help: str = "stop after this many work units (reproducible, unlike --timeout)") -> None:
    """--work-limit N: the machine-independent budget of engines that count work, not nodes."""
    parser.add_argument("--work-limit", type=positive_int, default=default, metavar="N", help=help)


def add_timeout_arg(parser: argparse.ArgumentParser, default: float | None = None,
                    help: str = "stop after this many wall-clock seconds") -> None:
    """--timeout S (wall clock; a result stopped by it is marked so, and is not reproducible)."""
    parser.add_argument("--timeout", type=positive_float, default=default, metavar="S", help=help)


def add_repeat_args(parser: argparse.ArgumentParser, what: str) -> None:
    """--repeats N and --repeat-below S: quick measurements taken N times in all, the median run kept."""
    from .cputime import REPEAT_BELOW_S, REPEATS

    parser.add_argument("--repeats", type=positive_int, default=REPEATS, metavar="N",
                        help=f"time {what} solves in under --repeat-below seconds N times in all and keep the "
                             f"median run (default {REPEATS}; the answers must not change)")
    parser.add_argument("--repeat-below", type=positive_float, default=REPEAT_BELOW_S, metavar="S",
                        help=f"CPU seconds under which a solve is timed again (default {REPEAT_BELOW_S:g})")


def add_seed_arg(parser: argparse.ArgumentParser, default: int = 0,
                 help: str = "random seed: the same seed gives the same bytes") -> None:
    parser.add_argument("--seed", type=non_negative_int, default=default, metavar="S", help=help)


def add_report_command(sub, tables: dict[str, str], handler: Callable, svg: bool = True,
                       runs_help: str = "result files of the runs to tabulate",
                       scorecard: tuple[str, ...] = ()) -> argparse.ArgumentParser:
    """`report TABLE RUNS... --csv F --html F [--svg F] [--scorecard F]`, the one shape of every engine's
    report command; `scorecard`: the tables that decide scorecard rows (--scorecard with another table
    is refused before the handler runs; none: no --scorecard)."""
    p = sub.add_parser("report", help="tabulate (and plot) results: " + ", ".join(tables))
    p.add_argument("table", choices=sorted(tables), metavar="TABLE",
                   help="; ".join(f"{name}: {text}" for name, text in tables.items()))
    p.add_argument("runs", nargs="+", metavar="RUNS", help=runs_help)
    p.add_argument("--csv", required=True, metavar="FILE", help="the table as CSV")
    p.add_argument("--html", required=True, metavar="FILE", help="the table as an HTML page for the report")
    if svg:
        p.add_argument("--svg", metavar="FILE", help="the table's figure")
    if scorecard:
        p.add_argument("--scorecard", metavar="FILE",
                       help="also write the seed article's headline figures this table decides, beside ours "
                            f"(CSV, lab.scorecard rows; tables: {', '.join(scorecard)})")
        handler = _refusing_other_scorecards(handler, tuple(scorecard))
    p.set_defaults(handler=handler)
    return p


def _refusing_other_scorecards(handler: Callable, deciding: tuple[str, ...]) -> Callable:
    """The report handler, behind the one check that --scorecard comes with a table that decides rows."""
    def run(args):
        if args.scorecard and args.table not in deciding:
            which = f"the {deciding[0]} table" if len(deciding) == 1 else f"the {', '.join(deciding)} tables"
            raise InputError(f"--scorecard: table {quote(args.table)} decides no scorecard rows; --scorecard is "
                             f"written by {which}")
        return handler(args)
    return run


def add_output_args(parser: argparse.ArgumentParser,
                    out_help: str = "write the reproducible result (canonical JSON) here") -> None:
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
        where = f"{err.filename}: " if getattr(err, "filename", None) else "puzzlelab: error: "
        print(one_line(f"{where}{err.strerror or err}"), file=sys.stderr)
        return 2

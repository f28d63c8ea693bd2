"""`puzzlelab edgematch mitm ...`: the exact band solver (BANDSAW) and its experiment reports."""

from __future__ import annotations

import argparse

from ...lab.cli_support import (
    add_memory_budget_arg,
    add_node_limit_arg,
    add_output_args,
    add_timeout_arg,
    non_negative_int,
)
from ...lab.errors import InputError
from ..options import add_puzzle_args, open_hints, open_puzzle

# The tables of `puzzlelab edgematch report` this package draws.
REPORTS = {
    "mitm_bench": "the 10x10 testbed: optimum, proof, growth per extra mismatch",
    "mitm_vs_beam": "bottom bands of beam boards: the exact optimum against the beam",
    "mitm_wall": "bands of growing size: proven, or stopped by memory or the node limit",
}


def register(sub) -> None:
    p = sub.add_parser(
        "mitm", help="exact best completion of a band of rows, proven optimal (meet in the middle)",
        description="Re-solve rows R0..R1-1 of a board exactly: both halves of the band are enumerated up to a "
                    "mismatch budget and joined on their seam colours; the budget rises 0, 1, 2, ... until a "
                    "completion is found, which is then proven optimal. Cells outside the band stay as they are; "
                    "the band may use exactly the pieces not used outside it.")
    add_puzzle_args(p)
    p.add_argument("--board", required=True, metavar="BOARD.json",
                   help="the board: every cell outside the band filled (JSON, a search result, or the text layout)")
    p.add_argument("--board-name", default=None, help="the board to use in a multi-board text file")
    p.add_argument("--band", required=True, metavar="R0:R1",
                   help="rows of the band, 0-based, R1 excluded (Python slice: 8:10 = rows 8 and 9; "
                        "--band=-2: = the last two rows)")
    p.add_argument("--cols", default=None, metavar="C0:C1",
                   help="columns of the band, same syntax (default: the full width)")
    p.add_argument("--method", choices=("mitm", "sat"), default="mitm",
                   help="mitm: enumerate both halves up to a rising budget and join them (default); sat: the band "
                        "as CNF, CaDiCaL asked for ever fewer mismatches until it proves there are none "
                        "(--node-limit then counts its conflicts)")
    p.add_argument("--split", type=int, default=None, metavar="K",
                   help="rows of the upper half (default: half the band's rows, rounded down)")
    p.add_argument("--clear-band", action="store_true",
                   help="ignore what the board has inside the band (start from a greedy fill instead)")
    p.add_argument("--max-budget", type=non_negative_int, default=None, metavar="B",
                   help="stop after the round with budget B; the result is then 'not proven' unless it was proven")
    add_memory_budget_arg(p, help="stop when the half tables would exceed this (e.g. 512M, 8G); counted "
                                  "deterministically from table sizes plus a fixed 256 MiB allowance (--method sat: "
                                  "from the clauses)")
    add_node_limit_arg(p, help="stop when the walks have visited N nodes in all, or with --method sat after N "
                                  "conflicts of CaDiCaL (a machine-independent time limit)")
    add_timeout_arg(p, help="also stop after S wall-clock seconds (a safety net: where it stops depends on the "
                            "machine; the result then says timed_out)")
    p.add_argument("--sweep-budget", dest="sweep", type=non_negative_int, default=None, metavar="B",
                   help="after the proof, keep enumerating both halves (no join) up to budget B, to measure growth")
    p.add_argument("--sweep", dest="sweep", type=non_negative_int, help=argparse.SUPPRESS)  # the older spelling
    p.add_argument("--label", default="", help="free text stored in the result (e.g. the pipeline's job id)")
    p.add_argument("--board-out", metavar="FILE", help="also write the re-solved board alone (JSON, or .txt layout)")
    add_output_args(p, out_help="write the result (canonical JSON: proven, mismatches, lower_bound, rounds, board)")
    p.set_defaults(handler=_mitm)


def add_report_options(p: argparse.ArgumentParser) -> None:
    """The options of `edgematch report` for the mitm tables."""
    p.add_argument("--rounds-csv", metavar="FILE", help="mitm tables: the per-budget table (CSV)")
    p.add_argument("--rounds-html", metavar="FILE", help="mitm tables: the per-budget table (HTML)")
    p.add_argument("--memory-svg", metavar="FILE", help="mitm tables: memory per budget or band (SVG)")
    add_memory_budget_arg(p, default=None, help="mitm tables: the jobs' memory budget, drawn on the memory figure")


def _mitm(args) -> int:
    from ...lab.progress import Progress
    from ...lab.results import emit
    from ...lab.sizes import parse_size
    from ..board import Board, board_from_json, load_board, save_board
    from ..score import check_fits
    from .band import build, parse_band
    from .sat import solve_sat
    from .solve import solve

    if args.method == "sat":
        for option, value in (("--split", args.split), ("--max-budget", args.max_budget),
                              ("--sweep-budget", args.sweep)):
            if value is not None:
                raise InputError(f"{option} belongs to --method mitm (the SAT back-end has no halves or budgets)")
    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    board = load_board(args.board, args.board_name, puzzle.n_pieces)
    check_fits(puzzle, board, args.board)
    band = parse_band(args.band, args.cols, puzzle)
    limit = parse_size(args.memory_budget)
    if args.clear_band:
        board = Board(board.piece.copy(), board.rot.copy(), board.name, dict(board.meta))
        board.piece[band.r0:band.r1, band.c0:band.c1] = -1
    problem = build(puzzle, board, band, hints, args.split, args.board)
    with Progress(None, "mitm", unit="round") as progress:
        if args.method == "sat":
            result = solve_sat(problem, node_limit=args.node_limit, memory_limit=limit, progress=progress,
                               timeout=args.timeout)
        else:
            result = solve(problem, max_budget=args.max_budget, memory_limit=limit, node_limit=args.node_limit,
                           sweep=args.sweep, progress=progress, timeout=args.timeout)
    result = {"puzzle": puzzle.name, "label": args.label, **result}
    if args.board_out:
        out = board_from_json(result["board"])
        out.name = board.name
        save_board(args.board_out, out)
    label = "proven optimal" if result["proven"] else f"not proven (lower bound {result['lower_bound']})"
    before = "" if result["before"] is None else f", {result['before']} before"
    text = (f"band rows {band.r0}:{band.r1} cols {band.c0}:{band.c1}: {result['mismatches']} mismatches, {label}"
            f"{before}; board score {result['score']}/{puzzle.max_score}; "
            f"{len(result['rounds'])} {'bounds asked' if args.method == 'sat' else 'rounds'}, {result['time_s']:.2f} s")
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def report(args) -> int:
    """`edgematch report` for a mitm table."""
    from .report import report as draw

    draw(args)
    return 0

"""`puzzlelab edgematch mitm ...`: the exact band solver (BANDSAW) and its experiment reports."""

from __future__ import annotations

import argparse

from ...lab.cli_support import add_output_args
from ..options import add_puzzle_args, open_hints, open_puzzle


def _budget(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    return value


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
    p.add_argument("--split", type=int, default=None, metavar="K",
                   help="rows of the upper half (default: half the band's rows, rounded down)")
    p.add_argument("--clear-band", action="store_true",
                   help="ignore what the board has inside the band (start from a greedy fill instead)")
    p.add_argument("--max-budget", type=_budget, default=None, metavar="B",
                   help="stop after the round with budget B; the result is then 'not proven' unless it was proven")
    p.add_argument("--memory-limit", default="4G", metavar="SIZE",
                   help="stop when the half tables would exceed this (e.g. 512M, 8G; default 4G); counted "
                        "deterministically from table sizes plus a fixed 256 MiB allowance")
    p.add_argument("--node-limit", type=int, default=None, metavar="N",
                   help="stop when the walks have visited N nodes in all (a machine-independent time limit)")
    p.add_argument("--sweep", type=int, default=None, metavar="B",
                   help="after the proof, keep enumerating both halves (no join) up to budget B, to measure growth")
    p.add_argument("--label", default="", help="free text stored in the result (e.g. the pipeline's job id)")
    p.add_argument("--board-out", metavar="FILE", help="also write the re-solved board alone (JSON, or .txt layout)")
    add_output_args(p, out_help="write the result (canonical JSON: proven, mismatches, lower_bound, rounds, board)")
    p.set_defaults(handler=_mitm)

    p = sub.add_parser("mitm-report", help="tables and figures of a meet-in-the-middle experiment",
                       description="Summary table, per-budget table, main figure and memory figure of one "
                                   "experiment, from the result files of its `edgematch mitm` jobs.")
    p.add_argument("experiment", choices=("mitm_bench", "mitm_vs_beam", "mitm_wall"))
    p.add_argument("--runs", nargs="+", required=True, help="mitm result files (--out of `edgematch mitm`)")
    p.add_argument("--timings", nargs="*", default=[], help="their timing files, in the same order")
    p.add_argument("--memory-limit", default=None, help="the jobs' memory limit, drawn on the memory figure")
    p.add_argument("--csv", required=True, help="the summary table (CSV)")
    p.add_argument("--html", required=True, help="the summary table (HTML)")
    p.add_argument("--rounds-csv", required=True, help="the per-budget table (CSV)")
    p.add_argument("--rounds-html", required=True, help="the per-budget table (HTML)")
    p.add_argument("--svg", required=True, help="the experiment's figure (SVG)")
    p.add_argument("--memory-svg", required=True, help="memory per budget / band (SVG)")
    p.set_defaults(handler=_report)


def _mitm(args) -> int:
    from ...lab.errors import InputError
    from ...lab.progress import Progress
    from ...lab.results import emit
    from ...lab.sizes import parse_size
    from ..board import Board, board_from_json, load_board, save_board
    from ..score import check_fits
    from .band import build, parse_band
    from .solve import solve

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    board = load_board(args.board, args.board_name)
    check_fits(puzzle, board, args.board)
    band = parse_band(args.band, args.cols, puzzle)
    if args.max_budget is not None and args.max_budget < 0:
        raise InputError(f"--max-budget must be 0 or more, not {args.max_budget}")
    if args.node_limit is not None and args.node_limit < 1:
        raise InputError(f"--node-limit must be 1 or more, not {args.node_limit}")
    if args.sweep is not None and args.sweep < 0:
        raise InputError(f"--sweep must be 0 or more, not {args.sweep}")
    limit = parse_size(args.memory_limit)
    if args.clear_band:
        board = Board(board.piece.copy(), board.rot.copy(), board.name, dict(board.meta))
        board.piece[band.r0:band.r1, band.c0:band.c1] = -1
    problem = build(puzzle, board, band, hints, args.split, args.board)
    with Progress(None, "mitm", unit="round") as progress:
        result = solve(problem, max_budget=args.max_budget, memory_limit=limit, node_limit=args.node_limit,
                       sweep=args.sweep, progress=progress)
    result = {"puzzle": puzzle.name, "label": args.label, **result}
    if args.board_out:
        out = board_from_json(result["board"])
        out.name = board.name
        save_board(args.board_out, out)
    label = "proven optimal" if result["proven"] else f"not proven (lower bound {result['lower_bound']})"
    before = "" if result["before"] is None else f", {result['before']} before"
    text = (f"band rows {band.r0}:{band.r1} cols {band.c0}:{band.c1}: {result['mismatches']} mismatches, {label}"
            f"{before}; board score {result['score']}/{puzzle.max_score}; "
            f"{len(result['rounds'])} rounds, {result['time_s']:.2f} s")
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _report(args) -> int:
    from .report import report

    report(args)
    return 0

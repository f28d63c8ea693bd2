"""`puzzlelab edgematch beam|dfs|lds|sweep`: the searches on the command line, and the beam report tables.

Every board a search writes is re-scored by the one scorer and checked (pieces at most once,
rotations 0-3, hints respected) before it is written; a disagreement is a bug and stops the run.
Timings: `time_s` (wall clock), `cpu_time_s` (CPU of this process, the fair figure on a busy
machine) and `nodes_per_s` (nodes per CPU second) go to the timing file only.
"""

from __future__ import annotations

import argparse
import time

from ...lab.cli_support import (
    add_memory_budget_arg,
    add_node_limit_arg,
    add_output_args,
    add_seed_arg,
    add_timeout_arg,
    positive_int,
)
from ...lab.errors import InputError, quote
from ...lab.jit import WorkClock
from ..options import add_puzzle_args, open_hints, open_puzzle

MAX_SEEDS = 100_000  # seeds of one sweep
# The tables of `puzzlelab edgematch report` this package draws.
REPORTS = {
    "beam_width": "score and time per board against the beam width",
    "beam_orders": "visiting orders: scores and where the mismatches land",
    "beam_ties": "tie window and Gumbel noise: score and diversity",
    "beam_dedup": "survivor deduplication across widths",
    "beam_vs_dfs_lds": "beam, DFS and LDS at an equal node budget",
    "beam_factory": "the beam as a board factory: histogram, families, boards per hour",
    "edgematch_speed": "placements per CPU second of DFS and LDS, nodes per CPU second of the beam",
}


def _order_args(p):
    p.add_argument("--order", choices=("row", "spiral", "border", "comb"), default="row",
                   help="visiting order of the cells (default: row)")
    p.add_argument("--comb-spine", type=int, default=None, help="comb order: rows filled row by row first "
                                                                "(default: half the rows)")
    p.add_argument("--comb-tooth", type=int, default=4, help="comb order: width of a vertical tooth (default: 4)")


def _beam_args(p):
    p.add_argument("--width", type=positive_int, default=1024, help="beam width W (default: 1024)")
    add_memory_budget_arg(p, help="the beam's states must fit in this (e.g. 512M, 8G; default 4G)")
    p.add_argument("--tie-window", type=int, default=0, help="treat scores within k of the cut as equal (default: 0)")
    p.add_argument("--temperature", type=float, default=0.0, help="Gumbel noise scale added to scores (default: 0)")
    p.add_argument("--dedup", choices=("none", "pieces", "path"), default="none",
                   help="merge survivors with the same piece set, or the same piece set and frontier")
    p.add_argument("--tie-break", choices=("lottery", "prior", "lodestone"), default="lottery",
                   help="order of tied children before the lottery: none (lottery), pieces frequent at the cell "
                        "in --prior-boards (prior), or pieces serving scarce demands (lodestone)")
    p.add_argument("--prior-boards", metavar="FILE", default="none",
                   help="--tie-break prior: strong boards of this puzzle (record-board text layout; default: none)")


def _backtrack_args(p, lds: bool, required: bool):
    add_node_limit_arg(p, required=required, help="stop after N placements tried (the node budget)")
    p.add_argument("--tolerance", type=int, default=20, help="mismatches allowed on the whole board (default: 20)")
    if lds:
        p.add_argument("--max-discrepancy", type=int, default=8, help="largest discrepancy count tried (default: 8)")
    add_timeout_arg(p, help="DFS/LDS: also stop after S wall-clock seconds per run (checked every "
                            "50 M nodes; the result is then marked timed_out)")


def parse_seeds(text: str) -> list[int]:
    """'0-7', '3', '1,4,9' or '0-3,10'."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            a, sep, b = part.partition("-")
            lo, hi = (int(a), int(b)) if sep else (int(a), int(a))
            if hi - lo + 1 + len(seeds) > MAX_SEEDS:
                raise argparse.ArgumentTypeError(f"at most {MAX_SEEDS} seeds per sweep, not {quote(text)}")
            seeds += list(range(lo, hi + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are like 0-7 or 1,4,9, not {quote(text)}") from None
    if not seeds:
        raise argparse.ArgumentTypeError(f"no seed given in {quote(text)}")
    return seeds


def register(sub) -> None:
    p = sub.add_parser("beam", help="beam search to a full board",
                       description="Keep the W best partial boards, grow them cell by cell, score by matched edges.")
    add_puzzle_args(p)
    _order_args(p)
    _beam_args(p)
    add_seed_arg(p, help="lottery seed among tied children (default: 0)")
    add_output_args(p, out_help="write the result (canonical JSON with the board) here")
    p.set_defaults(handler=_single, algo="beam")

    for name, lds in (("dfs", False), ("lds", True)):
        p = sub.add_parser(name, help=("depth-first backtracking" if not lds else "limited-discrepancy search")
                           + " with a mismatch tolerance and a node budget")
        add_puzzle_args(p)
        _order_args(p)
        _backtrack_args(p, lds, required=True)
        add_seed_arg(p, help="shuffle candidates of equal quality (0: table order)")
        add_output_args(p, out_help="write the result (canonical JSON with the deepest board) here")
        p.set_defaults(handler=_single, algo=name)

    p = sub.add_parser("sweep", help="run one search for several seeds; all results in one JSON",
                       description="The pipeline's solve job: one search per seed, boards checked, one JSON.")
    add_puzzle_args(p)
    p.add_argument("--algo", choices=("beam", "dfs", "lds"), default="beam")
    p.add_argument("--seeds", type=parse_seeds, required=True, help="seeds, e.g. 0-7 or 1,4,9")
    _order_args(p)
    _beam_args(p)
    _backtrack_args(p, lds=True, required=False)
    p.add_argument("--label", default="", help="free text stored in the result (e.g. the instance name)")
    add_output_args(p, out_help="write all results (canonical JSON) here")
    p.set_defaults(handler=_sweep)


def add_report_options(p: argparse.ArgumentParser) -> None:
    """The options of `edgematch report` for the beam tables."""
    p.add_argument("--puzzles", nargs="*", default=[], metavar="PUZZLE",
                   help="beam tables: the puzzle files of the runs (matched by puzzle name), to draw boards")
    p.add_argument("--boards", metavar="FILE", help="beam tables: picture of the best board of every instance")
    p.add_argument("--family-rows", type=int, default=13,
                   help="beam_factory: rows that define a board family (default: 13)")


def _tables(args, puzzle, hints):
    from .tables import build_tables

    return build_tables(puzzle, args.order, hints, args.comb_spine, args.comb_tooth)


def _tie_table(args, puzzle, tables):
    """The beam's tie-break ranks (ties.tie_table), built once per command."""
    if getattr(args, "_tie", None) is None:
        from .ties import tie_table

        args._tie = tie_table(puzzle, tables, args.tie_break, args.prior_boards)
    return args._tie


def run_one(args, puzzle, hints, tables, algo: str, seed: int) -> dict:
    """Run one search and return its checked result record."""
    from ..board import board_to_json
    from ..score import check_board

    with WorkClock() as clock:  # numba compiling or loading kernels is no part of the run's CPU
        if algo == "beam":
            if getattr(args, "timeout", None) is not None:
                raise InputError("--timeout applies to dfs and lds; the beam stops at its last cell")
            from ...lab.sizes import parse_size
            from .beam import beam_search

            res = beam_search(puzzle, tables, args.width, seed=seed, tie_window=args.tie_window,
                              temperature=args.temperature, dedup=args.dedup,
                              memory_budget=parse_size(args.memory_budget), tie=_tie_table(args, puzzle, tables))
            extra = {"width": args.width, "tie_window": args.tie_window, "temperature": args.temperature,
                     "dedup": args.dedup, "survivors": res.survivors}
            if args.tie_break != "lottery":  # only then: lottery runs keep their bytes
                extra["tie_break"] = args.tie_break
        else:
            if args.node_limit is None:
                raise InputError(f"{algo} needs --node-limit")
            deadline = None if args.timeout is None else time.perf_counter() + args.timeout
            if algo == "dfs":
                from .dfs import dfs

                res = dfs(tables, args.node_limit, args.tolerance, seed, deadline=deadline)
                extra = {"tolerance": args.tolerance, "budget": args.node_limit, "exhausted": res.exhausted}
            else:
                from .lds import lds

                res = lds(tables, args.node_limit, args.tolerance, args.max_discrepancy, seed, deadline=deadline)
                extra = {"tolerance": args.tolerance, "budget": args.node_limit,
                         "max_discrepancy": args.max_discrepancy, "iterations": res.iterations}
            if args.timeout is not None:  # only then: runs without a timeout keep their bytes
                extra.update(timeout=args.timeout, timed_out=res.timed_out)
    cpu = clock.since()[1]
    check = check_board(puzzle, res.board, hints)
    if not check.valid or check.score != res.score:
        raise RuntimeError(f"internal error: {algo} stated score {res.score}, recount {check.score}, "
                           f"problems {check.problems}")
    return {"algo": algo, "seed": seed, "order": args.order, "hints": args.hints, "score": res.score,
            "max_score": res.max_score, "depth": res.depth, "nodes": res.nodes, "valid": check.valid,
            "complete": check.complete, "time_s": res.time_s, "cpu_time_s": cpu,
            "nodes_per_s": res.nodes / cpu if cpu > 0 else None, **extra, "board": board_to_json(res.board)}


def _text(rec: dict) -> str:
    return (f"{rec['algo']} seed {rec['seed']}: score {rec['score']}/{rec['max_score']}, depth {rec['depth']}, "
            f"{rec['nodes']} nodes, {rec['time_s']:.2f} s")


def _single(args) -> int:
    from ...lab.results import emit

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    tables = _tables(args, puzzle, hints)
    rec = run_one(args, puzzle, hints, tables, args.algo, args.seed)
    rec["puzzle"] = puzzle.name
    emit(rec, as_json=args.json, out=args.out, timing=args.timing, text=_text(rec))
    return 0


def _sweep(args) -> int:
    from ...lab.progress import Progress
    from ...lab.results import emit

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    tables = _tables(args, puzzle, hints)
    runs = []
    with Progress(len(args.seeds), f"{args.algo} sweep", unit="seeds") as prog:
        for seed in args.seeds:
            rec = run_one(args, puzzle, hints, tables, args.algo, seed)
            runs.append(rec)
            prog.update(1, note=f"seed {seed}: {rec['score']}")
    result = {"puzzle": puzzle.name, "label": args.label, "algo": args.algo, "runs": runs}
    emit(result, as_json=args.json, out=args.out, timing=args.timing, text="\n".join(_text(r) for r in runs))
    return 0


def report(args) -> int:
    """`edgematch report` for a beam table."""
    from .report import run

    run(args.table, args.runs, args.timings, args.puzzles, args.csv, args.html, args.svg, args.boards,
        args.family_rows, args.scorecard)
    return 0

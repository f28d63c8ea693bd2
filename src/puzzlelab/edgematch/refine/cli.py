"""`puzzlelab edgematch refine`: polish a complete board by destroy-and-repair moves, and its report table.

The result (`--out`) is reproducible: score, start score, nodes, moves, the trajectory of
improvements by nodes, the per-shape move counts and the board, re-scored by the one scorer and
checked before it is written. The timing file holds wall-clock and CPU time, nodes per CPU second
and the CPU time at which each improvement was seen (to the nearest slice of the run).
"""

from __future__ import annotations

import argparse
import sys
import time

from ...lab.cli_support import add_node_limit_arg, add_output_args, add_seed_arg, add_timeout_arg, positive_int
from ...lab.errors import InputError
from ...lab.jit import WorkClock
from ..options import add_puzzle_args, open_hints, open_puzzle

REPORTS = {"beam_refine": "destroy-and-repair polishing of beam boards: score against nodes and CPU time"}


def register(sub) -> None:
    p = sub.add_parser("refine", help="polish a complete board by destroy-and-repair moves",
                       description="From a complete board, repeatedly lift a region (seeded shape and place) and "
                                   "re-place its pieces by branch and bound or an optimal assignment; the score "
                                   "never drops below the start, the best board seen is written.")
    add_puzzle_args(p)
    p.add_argument("--board", required=True, metavar="BOARD",
                   help="start board: board JSON, a search result, a sweep result (see --run), or a text layout")
    p.add_argument("--run", type=int, default=0, metavar="I",
                   help="with a sweep result: the I-th run's board (default: 0)")
    add_seed_arg(p, help="seed of the move lottery (default: 0)")
    add_node_limit_arg(p, required=True, help="stop at the first move boundary after N nodes (placements tried)")
    add_timeout_arg(p, help="safety stop after S wall-clock seconds (checked every 20 M nodes; the result is "
                            "then marked timed_out and is not reproducible)")
    p.add_argument("--time-limit", dest="timeout", type=float, help=argparse.SUPPRESS)
    p.add_argument("--min-cells", type=positive_int, default=6, help="smallest region (default: 6)")
    p.add_argument("--max-cells", type=positive_int, default=16,
                   help="largest region re-placed by branch and bound (default: 16)")
    p.add_argument("--assign-cells", type=positive_int, default=64,
                   help="largest set of non-touching cells re-placed by an optimal assignment (default: 64)")
    p.add_argument("--move-nodes", type=positive_int, default=20_000,
                   help="node cap of one branch-and-bound move (default: 20000)")
    p.add_argument("--shapes", default=None, metavar="LIST",
                   help="region shapes and weights, e.g. rect:3,mismatch:4,band,ring,assign "
                        "(default: rect:3,mismatch:4,band:1,ring:1,assign:1)")
    p.add_argument("--uphill", type=int, default=50, metavar="PERMILLE",
                   help="per mille of branch-and-bound moves allowed to lose one edge (default: 50; 0: never)")
    p.add_argument("--max-drop", type=int, default=3,
                   help="with --uphill: the walk stays within this many edges of the best board (default: 3)")
    p.add_argument("--quiet", action="store_true", help="no progress line per improvement")
    p.add_argument("--label", default="", help="free text stored in the result (e.g. the instance name)")
    add_output_args(p, out_help="write the result (canonical JSON with the best board) here")
    p.set_defaults(handler=_refine)


def load_start_board(path: str, run: int, n_pieces: int):
    """(board, what made it) from a board file, a search result, or run `run` of a sweep result; what made it
    is the search's algo, width and seed when the file says so."""
    import json

    from ...lab.textio import read_text
    from ..board import board_from_json, load_board

    text = read_text(path, what="board file")
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            obj = None  # load_board reports the JSON error with its line
        if isinstance(obj, dict) and isinstance(obj.get("runs"), list):
            runs = obj["runs"]
            if not 0 <= run < len(runs):
                raise InputError(f"--run {run}: the sweep result holds {len(runs)} runs", path, None)
            obj = runs[run]
        if isinstance(obj, dict) and "board" in obj:
            source = {k: obj[k] for k in ("algo", "width", "seed") if isinstance(obj.get(k), (int, str))}
            return board_from_json(obj, path, n_pieces), source
    if run != 0:
        raise InputError(f"--run {run} applies to a sweep result; this file holds one board", path, None)
    return load_board(path, n_pieces=n_pieces), {}


def _refine(args) -> int:
    from ...lab.results import emit
    from ..board import board_to_json
    from .polish import DEFAULT_SHAPES, SHAPES, parse_shapes, refine

    puzzle = open_puzzle(args)
    hints = open_hints(args, puzzle)
    board, source = load_start_board(args.board, args.run, puzzle.n_pieces)
    if args.uphill < 0 or args.uphill > 1000:
        raise InputError(f"--uphill is a per mille, 0..1000, not {args.uphill}")
    if args.max_drop < 0:
        raise InputError(f"--max-drop must be 0 or more, not {args.max_drop}")
    shapes = DEFAULT_SHAPES if args.shapes is None else parse_shapes(args.shapes)
    deadline = None if args.timeout is None else time.perf_counter() + args.timeout
    seen_cpu: list[float] = []
    clock = WorkClock()  # numba compiling or loading kernels is no part of the run's CPU

    def on_improve(nodes: int, score: int) -> None:
        seen_cpu.append(clock.since()[1])
        if not args.quiet:
            print(f"refine seed {args.seed}: {score}/{puzzle.max_score} at {nodes} nodes", file=sys.stderr)

    with clock:
        res = refine(puzzle, board, hints, args.seed, args.node_limit, move_nodes=args.move_nodes,
                     min_cells=args.min_cells, max_cells=args.max_cells, assign_cells=args.assign_cells,
                     shapes=shapes, uphill=args.uphill, max_drop=args.max_drop, deadline=deadline,
                     on_improve=on_improve)
    cpu = clock.since()[1]
    rec = {"puzzle": puzzle.name, "label": args.label, "hints": args.hints, "seed": args.seed,
           "node_limit": args.node_limit, "start": source, "beam_width": source.get("width"),
           "options": {"min_cells": args.min_cells, "max_cells": args.max_cells, "assign_cells": args.assign_cells,
                       "move_nodes": args.move_nodes, "uphill": args.uphill, "max_drop": args.max_drop,
                       "shapes": {s: int(shapes.get(s, 0)) for s in SHAPES}},
           "start_score": res.start_score, "score": res.score, "max_score": puzzle.max_score, "nodes": res.nodes,
           "moves": res.moves, "improvements": [[n, s] for n, s in res.improvements], "shape_stats": res.shape_stats,
           "valid": True, "complete": True, "time_s": res.time_s, "cpu_time_s": cpu,
           "nodes_per_s": res.nodes / cpu if cpu > 0 else None, "improvement_cpu_time_s": seen_cpu,
           "board": board_to_json(res.board)}
    if args.timeout is not None:  # only then: runs without a timeout keep their bytes
        rec.update(timeout=args.timeout, timed_out=res.timed_out)
    text = (f"refine seed {args.seed}: {res.start_score} -> {res.score}/{puzzle.max_score}, {res.nodes} nodes, "
            f"{res.moves} moves, {res.time_s:.1f} s")
    emit(rec, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def report(args) -> int:
    """`edgematch report beam_refine`."""
    from .report import run

    run(args.table, args.runs, args.timings, args.csv, args.html, args.svg, args.scorecard, args.nodes_svg)


def add_report_options(p: argparse.ArgumentParser) -> None:
    """The options of `edgematch report` for the refine table."""
    p.add_argument("--nodes-svg", metavar="FILE", help="beam_refine: score against nodes (deterministic figure)")
    return 0

"""`puzzlelab bfs ...`: layer counts and shortest paths with the compressed BFS, plus its experiments."""

from __future__ import annotations

import argparse
import re

from puzzlelab.lab.cli_support import (
    add_checkpoint_args,
    add_memory_budget_arg,
    add_output_args,
    add_report_command,
    non_negative_int,
    positive_int,
)

# bfs.codec.CODECS, without importing the codecs
CODEC_NAMES = ("rowfilter-zstd", "zstd", "delta-zstd", "raw", "rowfilter", "gap-zstd", "gap")
REPORT_TABLES = {  # bfs.report.TABLES; a name ending in -time holds measurements
    "layers": "layer counts of each search against the published ones",
    "layers-time": "time and memory of each search",
    "depths": "every depth of every search against the published count",
    "codecs": "bits per state of the visited sets and layers under every codec (--svg: the plot)",
    "codec-runs": "bits per state of the frontier runs under every codec",
    "dedup": "the same layers by every deduplication (visited set, frontier, hash set)",
    "dedup-time": "CPU time and memory of each deduplication",
    "budget": "one search under shrinking memory budgets",
    "budget-time": "peak memory and time under each budget (--svg: the plot)",
    "parents": "1-byte parent hashes against full parents",
    "parents-time": "CPU time of rebuilding paths",
    "deep": "a deep search layer by layer",
    "deep-time": "time and memory per depth of a deep search (--svg: the plot)",
}


def _domain_arg(p: argparse.ArgumentParser) -> None:
    from puzzlelab.domains import DOMAIN_HELP

    p.add_argument("domain", metavar="DOMAIN", help=DOMAIN_HELP)
    # a value such as `-1,2,...` after --from is a value, not an option (the domain's reader rejects it)
    p._negative_number_matcher = re.compile(r"^-(\d|[^\w-])")


def depth_limit(text: str) -> int | None:
    """An argparse type: a depth >= 0, or `all` (no limit: the whole space)."""
    if text.strip().lower() == "all":
        return None
    try:
        return non_negative_int(text)
    except argparse.ArgumentTypeError:
        from puzzlelab.lab.errors import quote

        raise argparse.ArgumentTypeError(f"expected a depth >= 0 or 'all', got {quote(text)}") from None


depth_limit.__name__ = "depth or 'all'"


def _search_args(p: argparse.ArgumentParser) -> None:
    _domain_arg(p)
    p.add_argument("--max-depth", type=depth_limit, metavar="D",
                   help="stop after depth D (default all: the whole space)")
    add_memory_budget_arg(p, help="data kept in memory before spilling to --workdir (e.g. 512M, 2G; default 4G)")
    p.add_argument("--workdir", metavar="DIR", help="folder for spill files (default: the system temp folder)")


def _engine_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--codec", default="auto", choices=("auto", *CODEC_NAMES),
                   help="block codec of the sorted runs (default auto: gap-zstd for ranked boards, else "
                        "rowfilter-zstd)")
    p.add_argument("--order", default="le", choices=["le", "be"], help="byte order of the sort key (default le)")
    p.add_argument("--chunk-states", type=positive_int, metavar="N",
                   help="states expanded per chunk (default: from the budget)")
    p.add_argument("--tags", default="auto", choices=["auto", "move", "parent-hash"],
                   help="each state's byte: the move that produced it or its parent's hash (default auto: moves "
                        "when the domain can undo them)")


def _dedup_arg(p: argparse.ArgumentParser, choices: tuple[str, ...]) -> None:
    p.add_argument("--dedup", default="auto", choices=choices,
                   help="frontier (sorted runs merged with the last layer or two: domains whose moves can be "
                        "undone), sortmerge (merged with the visited set), hash (in-memory hash-set baseline, "
                        "layers only); default auto: frontier when the domain allows it, else sortmerge")


def _frontier(args) -> bool | None:
    return {"auto": None, "frontier": True, "sortmerge": False}.get(args.dedup)


def register(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("layers", help="count the states at each depth (sort+merge BFS, or the hash-set baseline)",
                       description="Breadth-first search from the domain's start; prints the number of states at "
                                   "each exact depth and the sizes of the compressed sets.")
    _search_args(p)
    _engine_args(p)
    _dedup_arg(p, ("auto", "frontier", "sortmerge", "hash"))
    add_checkpoint_args(p)
    p.add_argument("--discard-layers", action="store_true",
                   help="drop each depth once expanded (no path rebuilding; less memory and disk)")
    p.add_argument("--warm-up", action="store_true",
                   help="first run the same search to depth 2, untimed, so that loading compiled kernels is not timed")
    add_output_args(p)
    p.set_defaults(handler=_layers)

    p = sub.add_parser("solve", help="shortest path from a state to the domain's start",
                       description="Searches from --from until the domain's start state appears, rebuilds the path "
                                   "through the states' tags (moves, or 1-byte parent hashes) and checks it by "
                                   "replaying it.")
    _search_args(p)
    _engine_args(p)
    _dedup_arg(p, ("auto", "frontier", "sortmerge"))
    add_checkpoint_args(p)
    p.add_argument("--from", dest="from_state", metavar="STATE",
                   help="the state to solve, e.g. '1,2,3,4,5,6,7,8,0' (tiles in reading order, 0 = blank), "
                        "'R U F2' for cube2, '3,1,2' for pancakes, 'AABD' for hanoi4; without --from, the "
                        "shortest path from the start to a goal state (domains with a goal test, e.g. hanoi4)")
    add_output_args(p)
    p.set_defaults(handler=_solve)

    p = sub.add_parser("codecs", help="bits per state of the visited sets and frontier runs under every codec",
                       description="Searches the domain, then re-encodes the visited set after each depth and the "
                                   "sorted chunk runs of the widest frontier with every codec and both key byte "
                                   "orders.")
    _search_args(p)
    p.add_argument("--codecs", default=",".join(CODEC_NAMES), help="comma-separated codecs (default: all)")
    p.add_argument("--zstd-level", type=int, default=3, choices=range(1, 23), metavar="L",
                   help="zstd level 1..22 (default 3)")
    p.add_argument("--chunk-states", type=positive_int, default=65536,
                   help="parents per chunk for the frontier runs (default 65536)")
    add_output_args(p)
    p.set_defaults(handler=_codecs)

    p = sub.add_parser("parents", help="1-byte parent hashes vs full parents; cost of rebuilding paths",
                       description="Searches the domain keeping every layer, then rebuilds paths to evenly spaced "
                                   "states of the deepest layer with and without the parent-hash filter.")
    _search_args(p)
    p.add_argument("--samples", type=positive_int, default=5, help="paths to rebuild (default 5)")
    add_output_args(p)
    p.set_defaults(handler=_parents)

    r = add_report_command(sub, REPORT_TABLES, _report, runs_help="result files (X.json, with X.timing.json beside)",
                           scorecard=("layers", "codecs", "dedup-time", "budget-time", "parents"))
    r.add_argument("--reference", metavar="FILE",
                   help="layers/depths: the reference_layer_counts.txt of the shared corpora, or `embedded` "
                        "(default: the OEIS rows embedded in the code)")
    r.add_argument("--link", metavar="PATH", help="the report item the scorecard rows point to (default: --html)")


def _make_domain(spec: str):
    from puzzlelab.domains import make_domain

    return make_domain(spec)


def _layers(args) -> int:
    from puzzlelab.lab.errors import InputError
    from puzzlelab.lab.results import emit

    domain = _make_domain(args.domain)
    _warm_cache(domain, args)
    if args.warm_up:
        _warm_up(domain, args)
    if args.dedup == "hash":
        from .hashset import search_hash

        if args.checkpoint is not None:
            raise InputError("--checkpoint needs the sort+merge or frontier search, not --dedup hash")
        result = search_hash(domain, max_depth=args.max_depth, progress=True)
        data = result.to_json()
    else:
        from .engine import search

        with search(domain, max_depth=args.max_depth, memory_budget=args.memory_budget, workdir=args.workdir,
                    codec=args.codec, order=args.order, chunk_states=args.chunk_states, frontier=_frontier(args),
                    tags=args.tags, keep_layers=not args.discard_layers, progress=True,
                    checkpoint=args.checkpoint, checkpoint_every_s=args.checkpoint_every,
                    fingerprint=args.domain) as result:
            data = result.to_json()
    emit(data, as_json=args.json, out=args.out, timing=args.timing, text=layers_text(data))
    return 0


def _warm_cache(domain, args) -> None:
    """A cold kernel cache is filled by a depth-2 run of the same search in a child process (see
    lab.jit.warm_in_child), so that this run's peak memory is the search's, not the compiler's."""
    import importlib
    import tempfile

    from puzzlelab.lab.jit import warm_in_child

    with tempfile.TemporaryDirectory(prefix="puzzlelab-warm-") as tmp:
        argv = ["bfs", "layers", args.domain, "--max-depth", "2", "--memory-budget", str(args.memory_budget),
                "--codec", args.codec, "--order", args.order, "--tags", args.tags, "--dedup", args.dedup,
                "--workdir", tmp, "--out", f"{tmp}/out.json"]
        home = importlib.import_module(type(domain).__module__)
        used = [m for m in vars(home).values() if getattr(m, "__name__", "").startswith("puzzlelab.")
                and type(m).__name__ == "module"]
        warm_in_child([home, *used, importlib.import_module("puzzlelab.bfs.expand")],
                      argv + ["--discard-layers"] * args.discard_layers)


def _warm_up(domain, args) -> None:
    """Run the search to depth 2 (not timed): every kernel it uses is loaded before the real run."""
    if args.dedup == "hash":
        from .hashset import search_hash

        search_hash(domain, max_depth=2, progress=False)
        return
    from .engine import search

    with search(domain, max_depth=2, memory_budget=args.memory_budget, workdir=args.workdir, codec=args.codec,
                order=args.order, frontier=_frontier(args), tags=args.tags, keep_layers=not args.discard_layers,
                progress=False):
        pass


def layers_text(data: dict) -> str:
    from puzzlelab.lab.sizes import format_size

    lines = [f"{data['domain']}: {data['states']:,} states, depths 0..{data['max_depth']}"
             + ("" if data.get("complete") else " (not exhausted)")]
    for d, n in enumerate(data["layers"]):
        lines.append(f"  {d:3d} {n:>14,}")
    kept = "every layer" if data.get("dedup") == "frontier" else "visited set"
    tags = {"move": "move tags", "hash": "", "parent-hash": "parent hashes"}.get(data.get("tags", ""), "")
    lines.append(f"{kept} {format_size(data['visited_bytes'])} ({data['bits_per_state']:.2f} bits/state)"
                 + (f", {tags} {format_size(data['parent_bytes'])}" if tags else "")
                 + f", peak RSS {format_size(data['peak_rss_bytes'])}, {data['time_s']:.2f} s")
    return "\n".join(lines)


def _solve(args) -> int:
    from puzzlelab.lab.errors import InputError
    from puzzlelab.lab.results import emit

    from .domain import Rooted
    from .engine import search
    from .parents import path_json

    domain = _make_domain(args.domain)
    if args.from_state is None:
        if getattr(domain, "is_goal", None) is None:
            raise InputError(f"{domain.name} has no goal test: give the state to solve with --from STATE")
        rooted, goal, state, target = domain, None, domain.start[0], "a goal state"
    else:
        state = domain.parse_state(args.from_state)
        rooted, goal, target = Rooted(domain, state), domain.start, "the start"
    with search(rooted, max_depth=args.max_depth, memory_budget=args.memory_budget, workdir=args.workdir,
                codec=args.codec, order=args.order, chunk_states=args.chunk_states, frontier=_frontier(args),
                tags=args.tags, goal=goal, stop_at_goal=True, progress=True, checkpoint=args.checkpoint,
                checkpoint_every_s=args.checkpoint_every,
                fingerprint=f"{args.domain} {args.from_state}") as result:
        found = result.path is not None
        data = {
            "domain": domain.name,
            "from": domain.format_state(state),
            "found": found,
            "to": domain.format_state(result.path.states[-1]) if found else None,
            "length": len(result.path) if found else None,
            "path": path_json(domain, result.path) if found else None,
            "searched_depth": result.max_depth,
            "complete": result.complete,
            "states_searched": result.states,
            "peak_rss_bytes": result.peak_rss_bytes,
            "time_s": result.time_s,
        }
    if found:
        moves = " ".join(data["path"]["moves"]) or "(already at the start)"
        plural = "" if data["length"] == 1 else "s"
        text = (f"{domain.name}: {data['length']} move{plural} from {data['from']} to {data['to']}\n{moves}\n"
                f"(verified by replay; {data['states_searched']:,} states searched)")
    elif result.complete:
        text = (f"{domain.name}: no path from {data['from']} to {target}: all {data['states_searched']:,} states "
                "reachable from it were searched")
    else:
        text = (f"{domain.name}: no path from {data['from']} to {target} within depth {data['searched_depth']} "
                f"({data['states_searched']:,} states searched; raise --max-depth)")
    emit(data, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _codecs(args) -> int:
    from puzzlelab.lab.errors import InputError, quote
    from puzzlelab.lab.results import emit

    from .experiments import measure_codecs

    codecs = [c.strip() for c in args.codecs.split(",") if c.strip()]
    if not codecs:
        raise InputError("--codecs names no codec: expected some of " + ", ".join(CODEC_NAMES))
    for c in codecs:
        if c not in CODEC_NAMES:
            raise InputError(f"unknown codec {quote(c)}: expected some of {', '.join(CODEC_NAMES)}")
    data = measure_codecs(_make_domain(args.domain), max_depth=args.max_depth, codecs=codecs,
                          zstd_level=args.zstd_level, chunk_states=args.chunk_states,
                          memory_budget=args.memory_budget, workdir=args.workdir)
    last = data["visited"][-1]
    text = "\n".join([f"{data['domain']}: visited set of {last['states']:,} states, bits per state:"]
                     + [f"  {k:22s} {v:8.3f}" for k, v in sorted(last["codecs"].items())]
                     + [f"  {'bound (key space)':22s} {last['bound_key_bits']:8.3f}",
                        f"  {'Elias-Fano':22s} {last['elias_fano_bits']:8.3f}"]
                     + ([f"  {'bound (reachable)':22s} {last['bound_space_bits']:8.3f}"]
                        if last["bound_space_bits"] is not None else []))
    emit(data, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _parents(args) -> int:
    from puzzlelab.lab.results import emit

    from .experiments import measure_parents

    data = measure_parents(_make_domain(args.domain), max_depth=args.max_depth, samples=args.samples,
                           memory_budget=args.memory_budget, workdir=args.workdir)
    text = (f"{data['domain']}: {data['states']:,} states; parent hashes {data['parent_hash_bytes']:,} B vs full "
            f"parents {data['full_parent_bytes']:,} B; {len(data['paths'])} paths of length {data['max_depth']} "
            "rebuilt")
    emit(data, as_json=args.json, out=args.out, timing=args.timing, text=text)
    return 0


def _report(args) -> int:
    from . import report

    reference = None if args.reference in (None, "embedded") else args.reference
    report.write(args.table, args.runs, csv=args.csv, html=args.html, svg=args.svg, reference=reference,
                 scorecard=args.scorecard, link=args.link)
    return 0

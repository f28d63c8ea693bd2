"""The experiments' commands: `puzzlelab balda bench-speed | bench-search | tournament | report ...`.

Each solve command writes a reproducible artifact (--out: counts, nodes, values, games) and a timing
file (--timing); the report commands join them into tables and plots.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ..lab.cli_support import add_output_args
from ..lab.errors import InputError

# name -> (alpha-beta, ordering, pruning, incremental, transposition table)
VARIANTS = {
    "minimax": (False, False, False, True, False),
    "alphabeta": (True, False, False, True, False),
    "ordered": (True, True, False, True, False),
    "pruned": (True, True, True, True, False),
    "pruned_tt": (True, True, True, True, True),
    "pruned_full_regen": (True, True, True, False, False),
}


def start_words(dictionary, size: int, count: int, seed: int) -> list[str]:
    """`count` dictionary words of `size` letters, drawn without replacement by `seed`."""
    words = [w for w in dictionary.words if len(w) == size]
    if len(words) < count:
        raise InputError(f"the dictionary has {len(words)} words of {size} letters; {count} start words wanted")
    order = np.random.default_rng(seed).permutation(len(words))
    return [words[i] for i in order[:count]]


def selfplay_position(engine, start: str, plies: int, seed: int):
    """The position after `plies` moves of greedy (depth 1) self-play from `start`."""
    from .board import from_start_word
    from .engine import SearchOptions
    from .game import apply_move

    board = from_start_word(start, engine.dictionary.alphabet)
    for ply in range(plies):
        r = engine.search(board, 1, SearchOptions(), seed=seed * 1_000_003 + ply)
        if r.move is None:
            break
        apply_move(board, r.move.cell, r.move.letter, engine.dictionary.words[r.move.word])
    return board


def register(sub) -> None:
    p = sub.add_parser("bench-speed", help="time forward-trie, separator-trie and incremental search on every "
                       "position of a seeded self-play game")
    p.add_argument("--dict", metavar="PATH", required=True)
    p.add_argument("--lang", choices=["ru", "en"])
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--seed", type=int, required=True, help="picks the start word and breaks ties")
    p.add_argument("--depth", type=int, default=1, help="search depth of the self-play (default 1)")
    p.add_argument("--reps", type=int, default=20, help="searches per timing (default 20)")
    p.add_argument("--rounds", type=int, default=3, help="timings per search, the fastest kept (default 3)")
    add_output_args(p)
    p.set_defaults(handler=_bench_speed)

    p = sub.add_parser("bench-search", help="nodes, value and time per depth of one search variant")
    p.add_argument("--dict", metavar="PATH", required=True)
    p.add_argument("--lang", choices=["ru", "en"])
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--seed", type=int, required=True, help="picks the start word")
    p.add_argument("--plies", type=int, default=0, help="greedy self-play plies before the searched position")
    p.add_argument("--variant", choices=sorted(VARIANTS), required=True)
    p.add_argument("--max-depth", type=int, required=True)
    p.add_argument("--slack", type=int, default=0)
    p.add_argument("--endgame", type=int, default=6)
    add_output_args(p)
    p.set_defaults(handler=_bench_search)

    p = sub.add_parser("tournament", help="deeper against shallower search: games from seeded start words, "
                       "each played twice with the colours swapped")
    p.add_argument("--dict", metavar="PATH", required=True)
    p.add_argument("--lang", choices=["ru", "en"])
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--words", type=int, required=True, help="number of start words")
    p.add_argument("--first", type=int, default=0, help="index of the first start word of this chunk")
    p.add_argument("--deep", type=int, required=True, help="depth of the deeper player")
    p.add_argument("--shallow", type=int, required=True, help="depth of the shallower player")
    p.add_argument("--prune", action="store_true")
    p.add_argument("--slack", type=int, default=0)
    p.add_argument("--endgame", type=int, default=6)
    add_output_args(p)
    p.set_defaults(handler=_tournament)

    p = sub.add_parser("report", help="tables and plots of the Balda experiments")
    p.add_argument("kind", choices=["dictionary", "speed", "alphabeta", "tournament"])
    p.add_argument("inputs", nargs="+", help="artifacts (their .timing.json files are read beside them)")
    p.add_argument("--csv", required=True)
    p.add_argument("--html", required=True)
    p.add_argument("--plot", help="SVG figure")
    p.add_argument("--summary-csv")
    p.add_argument("--summary-html")
    p.set_defaults(handler=_report)


def _engine(args):
    from .dictionary import load_dictionary
    from .engine import Engine

    dictionary = load_dictionary(args.dict, args.lang)
    return dictionary, Engine(dictionary)


def _bench_speed(args) -> int:
    from ..lab.progress import Progress
    from ..lab.results import emit
    from .bench import time_position
    from .board import from_start_word
    from .engine import SearchOptions
    from .game import play_game

    dictionary, engine = _engine(args)
    start = start_words(dictionary, args.size, 1, args.seed)[0]
    board = from_start_word(start, dictionary.alphabet)
    positions: list = []
    opts = SearchOptions()
    game = play_game(engine, board, (args.depth, args.depth), (opts, opts), seed=args.seed, positions=positions)
    rows = []
    with Progress(len(positions), f"timing {args.size}x{args.size} '{start}'", unit="positions") as p:
        for parent, move in positions:
            p.update(1)
            if move is None:
                continue
            r = time_position(engine, parent, move, reps=args.reps, rounds=args.rounds)
            if not r["moves_forward"] == r["moves_separator"] == r["moves_incremental"]:
                raise RuntimeError(f"move lists disagree at {r['filled']} filled cells: {r}")
            rows.append(r)
    result = {"size": args.size, "seed": args.seed, "start": start, "depth": args.depth,
              "score": game["score"], "positions": rows}
    emit(result, as_json=args.json, out=args.out, timing=args.timing,
         text=f"{len(rows)} positions timed from '{start}'")
    return 0


def _bench_search(args) -> int:
    from ..lab.progress import Progress
    from ..lab.results import emit
    from .engine import SearchOptions

    dictionary, engine = _engine(args)
    start = start_words(dictionary, args.size, 1, args.seed)[0]
    board = selfplay_position(engine, start, args.plies, args.seed)
    ab, order, prune, incremental, tt = VARIANTS[args.variant]
    opts = SearchOptions(alphabeta=ab, order=order, prune=prune, slack=args.slack, endgame=args.endgame,
                         incremental=incremental, tt=tt)
    engine.search(board, 1, opts)  # load the compiled kernels before anything is timed
    rows = []
    root_moves = 0
    with Progress(args.max_depth, f"{args.variant} on '{start}'+{args.plies}", unit="depths") as p:
        for depth in range(1, args.max_depth + 1):
            r = engine.search(board, depth, opts)
            root_moves = r.root_moves
            rows.append({"depth": depth, "value": r.value, "nodes": r.nodes, "generations": r.generations,
                         "move": None if r.move is None else dictionary.words[r.move.word], "time_s": r.time_s,
                         "cpu_time_s": r.cpu_time_s})
            p.update(1, note=f"depth {depth}: {r.nodes} nodes, {r.cpu_time_s:.2f} s CPU")
    result = {"variant": args.variant, "size": args.size, "seed": args.seed, "start": start, "plies": args.plies,
              "filled": board.filled, "root_moves": root_moves,
              "slack": args.slack if prune else None, "endgame": args.endgame if prune else None, "depths": rows}
    emit(result, as_json=args.json, out=args.out, timing=args.timing,
         text="\n".join(f"depth {r['depth']}: value {r['value']} nodes {r['nodes']}" for r in rows))
    return 0


def _tournament(args) -> int:
    from ..lab.progress import Progress
    from ..lab.results import emit
    from .board import from_start_word
    from .engine import SearchOptions
    from .game import play_game

    dictionary, engine = _engine(args)
    words = start_words(dictionary, args.size, args.first + args.words, args.seed)[args.first:]
    opts = SearchOptions(prune=args.prune, slack=args.slack, endgame=args.endgame, tt=True)
    games = []
    with Progress(2 * len(words), f"depth {args.deep} vs {args.shallow}", unit="games") as p:
        for i, word in enumerate(words):
            for deep_first in (True, False):
                depths = (args.deep, args.shallow) if deep_first else (args.shallow, args.deep)
                board = from_start_word(word, dictionary.alphabet)
                g = play_game(engine, board, depths, (opts, opts), seed=args.seed + args.first + i)
                deep = "a" if deep_first else "b"
                shallow = "b" if deep_first else "a"
                margin = g["score"][deep] - g["score"][shallow]
                games.append({"start": word, "deep_moves_first": deep_first, "deep_score": g["score"][deep],
                              "shallow_score": g["score"][shallow], "margin": margin,
                              "result": "win" if margin > 0 else "loss" if margin < 0 else "draw",
                              "plies": len(g["moves"]), "ended_by": g["ended_by"],
                              "words": [m.get("word", "-") for m in g["moves"]],
                              "time_s": sum(m["time_s"] for m in g["moves"]),
                              "cpu_time_s": sum(m["cpu_time_s"] for m in g["moves"])})
                p.update(1, note=f"{word}: {margin:+d}")
    result = {"size": args.size, "seed": args.seed, "deep": args.deep, "shallow": args.shallow,
              "prune": args.prune, "games": games}
    emit(result, as_json=args.json, out=args.out, timing=args.timing,
         text="\n".join(f"{g['start']} deep first={g['deep_moves_first']}: {g['margin']:+d}" for g in games))
    return 0


def _report(args) -> int:
    from . import report

    return report.build(args.kind, args.inputs, args)


# --- job lists for rules/balda.smk (name -> parameters) ---------------------------------------------

def speed_jobs(cfg: dict) -> dict[str, dict]:
    return {f"{size}x{size}_seed{cfg['seed'] + g}": {"size": size, "seed": cfg["seed"] + g}
            for size in cfg["sizes"] for g in range(cfg["games"])}


def alphabeta_jobs(cfg: dict) -> dict[str, dict]:
    return {f"s{seed}_p{plies}_{variant}": {"seed": seed, "plies": plies, "variant": variant, "max_depth": depth}
            for seed in cfg["seeds"] for plies in cfg["plies"]
            for variant, depth in sorted(cfg["max_depth"].items()) if depth > 0}


def tournament_jobs(cfg: dict) -> dict[str, dict]:
    jobs = {}
    for deep, shallow in cfg["pairs"]:
        for first in range(0, cfg["words"], cfg["chunk"]):
            count = min(cfg["chunk"], cfg["words"] - first)
            jobs[f"d{deep}v{shallow}_w{first:03d}"] = {"deep": deep, "shallow": shallow, "first": first,
                                                     "words": count}
    return jobs


def dictionary_compare(cfg: dict, have_corpora: bool, corpus_path) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(name -> path of the word lists compared with the built-in one, [(file, reason) of those missing])."""
    found, missing = {}, []
    for name in cfg.get("compare", []):
        path = corpus_path("balda", name)
        if have_corpora and path.exists():
            found[Path(name).stem] = str(path)
        else:
            missing.append((name, f"shared corpus file not found: {path}"))
    return found, missing


def prefix_args(cfg: dict) -> str:
    return " ".join(f"--prefix {p}" for p in cfg.get("prefixes", []))

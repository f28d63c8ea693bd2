"""Measurement drivers behind `puzzlelab balda bench-speed | bench-search | tournament`.

Word-search timing on one position (numba loops, so call overhead is not measured): for a position
reached by a move, the same move list is obtained three ways —
- forward: the baseline forward trie searched from every cell, duplicates removed by sorting;
- separator: the separator trie searched from every empty cell next to a letter;
- incremental: the parent's list (page 0) plus a new page of the words through the new letter,
  read back through the per-cell chains, skipping filled cells and played words.
Each driver returns a result dict: reproducible counts, nodes and games beside `*time_s` keys,
which `lab.results.emit` moves to the timing file.
"""

from __future__ import annotations

import time

import numpy as np

from ..lab.errors import InputError
from ..lab.jit import allocating_kernel, kernel
from ..lab.progress import Progress
from .board import Board, from_start_word
from .engine import Engine, Move
from .game import apply_move, play_game
from .movegen import generate_forward, generate_full
from .options import SearchOptions, check_depth
from .search import new_page, select_moves

MAX_REPS = 1_000_000  # searches per timing
MAX_ROUNDS = 1_000  # timings per position


def start_words(dictionary, size: int, count: int, seed: int) -> list[str]:
    """`count` dictionary words of `size` letters, drawn without replacement by `seed`."""
    words = [w for w in dictionary.words if len(w) == size]
    if len(words) < count:
        raise InputError(f"the dictionary has {len(words)} words of {size} letters; {count} start words wanted")
    order = np.random.default_rng(seed).permutation(len(words))
    return [words[i] for i in order[:count]]


def selfplay_position(engine: Engine, start: str, plies: int, seed: int) -> Board:
    """The position after `plies` moves of greedy (depth 1) self-play from `start`."""
    board = from_start_word(start, engine.dictionary.alphabet)
    for ply in range(plies):
        r = engine.search(board, 1, SearchOptions(), seed=seed * 1_000_003 + ply)
        if r.move is None:
            break
        apply_move(board, r.move.cell, r.move.letter, engine.dictionary.words[r.move.word])
    return board


# --- word-search timing -------------------------------------------------------------------------------

@kernel
def repeat_separator(reps, words, pos, finds):
    n = 0
    for _ in range(reps):
        n = generate_full(words, pos, finds, False)
    return n


@allocating_kernel
def repeat_forward(reps, words, pos, finds):
    n = 0
    for _ in range(reps):
        n = generate_forward(words, pos, finds)
    return n


@kernel
def repeat_incremental(reps, last_cell, top, words, pos, finds, stack, stats):
    """Page 1 built after the move to `last_cell` and the node's list read back, `reps` times."""
    k = 0
    for _ in range(reps):
        lo, t = new_page(1, last_cell, top, words, pos, finds, stack, True, stats)
        k = select_moves(lo, t, pos, stack, 0, 1, False, False, 0)
    return k


def _prepare_child(engine: Engine, parent: Board, move: Move):
    """Load the parent's moves as page 0, then make `move`; returns (the child's Position, top)."""
    played = engine.played_mask(parent.played)
    top = engine.load_root(parent, played)
    cells = parent.cells.copy()
    cells[move.cell] = move.letter
    played[move.word] = 1
    return engine.position(parent, played, cells), top


def incremental_moves(engine: Engine, parent: Board, move: Move) -> list[tuple[int, int, int]]:
    """The child's (cell, letter, word) list as the incremental search sees it (sorted)."""
    pos, top = _prepare_child(engine, parent, move)
    s = engine.stack(parent.size * parent.size)
    stats = np.zeros(4, dtype=np.int64)
    k = repeat_incremental(1, move.cell, top, engine.words, pos, engine.finds_no_path, s, stats)
    idx = s.order[:k]
    return sorted(zip(s.cell[idx].tolist(), s.letter[idx].tolist(), s.word[idx].tolist()))


def _best_of(fn, reps: int, rounds: int) -> float:
    """CPU seconds of this thread per call: `rounds` timings of `reps` calls each, the minimum kept.

    Thread CPU time rather than wall time: the machines that run the pipeline are shared, and waiting
    for a core is not the search's cost (cache contention from neighbours still shows)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.thread_time()
        fn(reps)
        best = min(best, (time.thread_time() - t0) / reps)
    return best


def time_position(engine: Engine, parent: Board, move: Move, reps: int = 20, rounds: int = 3) -> dict:
    """Counts (forward, separator, incremental — they must agree) and seconds per search."""
    child = parent.copy()
    child.cells[move.cell] = move.letter
    child.played.append(engine.dictionary.words[move.word])
    pos = engine.position(child)
    finds = engine.finds_no_path
    n_sep = repeat_separator(1, engine.words, pos, finds)
    sep_time = _best_of(lambda r: repeat_separator(r, engine.words, pos, finds), reps, rounds)
    forward = engine.forward
    n_fwd = repeat_forward(1, forward, pos, finds)
    fwd_time = _best_of(lambda r: repeat_forward(r, forward, pos, finds), reps, rounds)
    pos_inc, top = _prepare_child(engine, parent, move)
    s = engine.stack(parent.size * parent.size)
    stats = np.zeros(4, dtype=np.int64)
    n_inc = repeat_incremental(1, move.cell, top, engine.words, pos_inc, finds, s, stats)
    new_words = int(stats[2])
    inc_time = _best_of(lambda r: repeat_incremental(r, move.cell, top, engine.words, pos_inc, finds, s, stats),
                        reps, rounds)
    return {"filled": child.filled, "moves_forward": n_fwd, "moves_separator": n_sep, "moves_incremental": n_inc,
            "parent_moves": top, "new_finds": new_words,
            "forward_time_s": fwd_time, "separator_time_s": sep_time, "incremental_time_s": inc_time}


# --- the experiments' drivers ---------------------------------------------------------------------------

def speed_run(engine: Engine, size: int, seed: int, depth: int, reps: int, rounds: int) -> dict:
    """Word-search times at every position of a seeded self-play game (the three lists checked equal)."""
    check_depth(depth, "self-play depth")
    for name, value, most in (("--reps", reps, MAX_REPS), ("--rounds", rounds, MAX_ROUNDS)):
        if not 1 <= value <= most:
            raise InputError(f"{name} {value} is out of range: use 1..{most:,}")
    dictionary = engine.dictionary
    start = start_words(dictionary, size, 1, seed)[0]
    board = from_start_word(start, dictionary.alphabet)
    positions: list = []
    opts = SearchOptions()
    game = play_game(engine, board, (depth, depth), (opts, opts), seed=seed, positions=positions)
    rows = []
    with Progress(len(positions), f"timing {size}x{size} '{start}'", unit="positions") as p:
        for parent, move in positions:
            p.update(1)
            if move is None:
                continue
            r = time_position(engine, parent, move, reps=reps, rounds=rounds)
            if not r["moves_forward"] == r["moves_separator"] == r["moves_incremental"]:
                raise RuntimeError(f"move lists disagree at {r['filled']} filled cells: {r}")
            rows.append(r)
    return {"size": size, "seed": seed, "start": start, "depth": depth, "score": game["score"], "positions": rows}


def search_run(engine: Engine, size: int, seed: int, plies: int, variant: str, max_depth: int,
               options: SearchOptions, timeout: float | None = None) -> dict:
    """Nodes, value and time per depth 1..max_depth of one search variant on a seeded position.

    Deepening stops early at a depth whose search hit the node limit (that depth is not listed), or
    once `timeout` wall seconds have passed (the result then depends on the machine)."""
    check_depth(max_depth, "--max-depth")
    dictionary = engine.dictionary
    start = start_words(dictionary, size, 1, seed)[0]
    board = selfplay_position(engine, start, plies, seed)
    engine.search(board, 1, options)  # load the compiled kernels before anything is timed
    rows = []
    root_moves = 0
    stopped = None
    t0 = time.perf_counter()
    with Progress(max_depth, f"{variant} on '{start}'+{plies}", unit="depths") as p:
        for depth in range(1, max_depth + 1):
            r = engine.search(board, depth, options)
            root_moves = r.root_moves
            if not r.complete:
                stopped = {"depth": depth, "by": "node limit"}
                break
            rows.append({"depth": depth, "value": r.value, "nodes": r.nodes, "generations": r.generations,
                         "move": None if r.move is None else dictionary.words[r.move.word], "time_s": r.time_s,
                         "cpu_time_s": r.cpu_time_s})
            p.update(1, note=f"depth {depth}: {r.nodes} nodes, {r.cpu_time_s:.2f} s CPU")
            if timeout is not None and depth < max_depth and time.perf_counter() - t0 > timeout:
                stopped = {"depth": depth + 1, "by": "timeout"}
                break
    result = {"variant": variant, "size": size, "seed": seed, "start": start, "plies": plies,
              "filled": board.filled, "root_moves": root_moves,
              "slack": options.slack if options.prune else None,
              "endgame": options.endgame if options.prune else None, "depths": rows}
    if stopped is not None:
        result["stopped"] = stopped
    return result


def tournament_run(engine: Engine, size: int, seed: int, first: int, count: int, deep: int, shallow: int,
                   options: SearchOptions, timeout: float | None = None) -> dict:
    """Deeper against shallower search from `count` seeded start words (from index `first`), each
    word played twice with the colours swapped. No game starts once `timeout` wall seconds have
    passed (the result then depends on the machine and says so)."""
    check_depth(deep, "--deep")
    check_depth(shallow, "--shallow")
    dictionary = engine.dictionary
    words = start_words(dictionary, size, first + count, seed)[first:]
    games = []
    t0 = time.perf_counter()
    with Progress(2 * len(words), f"depth {deep} vs {shallow}", unit="games") as p:
        for i, word in enumerate(words):
            for deep_first in (True, False):
                if timeout is not None and time.perf_counter() - t0 > timeout:
                    break
                games.append(_tournament_game(engine, word, deep_first, deep, shallow, options, seed + first + i))
                p.update(1, note=f"{word}: {games[-1]['margin']:+d}")
    result = {"size": size, "seed": seed, "deep": deep, "shallow": shallow, "prune": options.prune, "games": games}
    if len(games) < 2 * len(words):
        result["stopped"] = {"by": "timeout", "games": len(games)}
    return result


def _tournament_game(engine: Engine, word: str, deep_first: bool, deep: int, shallow: int, options: SearchOptions,
                     seed: int) -> dict:
    """One game of the tournament, told from the deeper player's side."""
    depths = (deep, shallow) if deep_first else (shallow, deep)
    board = from_start_word(word, engine.dictionary.alphabet)
    g = play_game(engine, board, depths, (options, options), seed=seed)
    d = "a" if deep_first else "b"
    s = "b" if deep_first else "a"
    margin = g["score"][d] - g["score"][s]
    game = {"start": word, "deep_moves_first": deep_first, "deep_score": g["score"][d],
            "shallow_score": g["score"][s], "margin": margin,
            "result": "win" if margin > 0 else "loss" if margin < 0 else "draw",
            "plies": len(g["moves"]), "ended_by": g["ended_by"],
            "words": [m.get("word", "-") for m in g["moves"]],
            "time_s": sum(m["time_s"] for m in g["moves"]),
            "cpu_time_s": sum(m["cpu_time_s"] for m in g["moves"])}
    limited = sum(1 for m in g["moves"] if m.get("complete") is False)
    if limited:
        game["searches_stopped_by_node_limit"] = limited
    return game

"""Benchmark driver: solve every puzzle of some files/folders in one process and summarise, as in the article.

Kernels are compiled (or loaded from numba's cache) before the first timing, so per-puzzle times
count array setup and search only; the clues are turned into flat arrays while loading (the parser's
side of the line, as in pbnsolve, whose clock starts after its reader built its clue arrays). Rows
carry the reproducible outcome (status, line solvability, a hash of the solutions, the solver's work
counters) and the volatile times.
"""

from __future__ import annotations

import gc
import hashlib
import statistics
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..lab.cputime import REPEAT_BELOW_S, REPEATS, median_run
from ..lab.errors import InputError
from ..lab.progress import Progress
from .formats import FORMATS, load
from .model import Puzzle, satisfies
from .solver import Options, batchable, prepare, ready_caches, solve, solve_many, warm_up

# The reproducible outcome of each puzzle ...
RESULT_COLUMNS = ["corpus", "name", "size", "width", "height", "colors", "status", "line_solvable", "solutions",
                  "solution_sha", "valid", "error"]
# ... and what depends on the machine: times, and the work counters (a timeout stops at a moment that
# depends on the clock, so what it had found by then is kept here too).
TIMING_COLUMNS = ["corpus", "name", "time_s", "cpu_s", "found", "line_solves", "work", "probes", "branches"]
# What a repeated timed solve must give again: everything but the times.
ANSWER_COLUMNS = RESULT_COLUMNS + [c for c in TIMING_COLUMNS if c not in ("time_s", "cpu_s")]
COLUMNS = RESULT_COLUMNS[:-1] + TIMING_COLUMNS[2:] + ["error"]
BATCH = 256  # puzzles per kernel call of the batch path (progress is reported between calls)
EXTENSIONS = {ext for _, exts, _ in FORMATS.values() for ext in exts} | {".txt"}
SKIP_NAMES = ("readme", "license", "licence", "copying", "perf", "format", "changelog")


def expand(paths: list[str]) -> list[str]:
    """Files named, or puzzle files found (sorted) under the folders named."""
    out = []
    for spec in paths:
        p = Path(spec)
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in EXTENSIONS
                           and not f.name.lower().startswith(SKIP_NAMES))
            if not found:
                raise InputError("no puzzle files in this folder", spec)
            out += [str(f) for f in found]
        else:
            out.append(spec)
    return out


def solution_sha(solutions: list[np.ndarray]) -> str:
    h = hashlib.sha256()
    for s in solutions:
        h.update(np.ascontiguousarray(s, dtype=np.int8).tobytes())
        h.update(b"|")
    return h.hexdigest()[:16]


@dataclass
class Loaded:
    spec: str
    puzzle: Puzzle | None
    error: str = ""


def each_file(specs: list[str], fmt: str | None):
    """(spec, its puzzles, None) or (spec, None, the InputError) for every puzzle file of `specs`, in
    the order bench reads them: the one walk of bench, reference and the parse step."""
    for spec in expand(specs):
        try:
            yield spec, load(spec, fmt), None
        except InputError as err:
            yield spec, None, err


def load_all(specs: list[str], fmt: str | None, keep_going: bool) -> list[Loaded]:
    """Every puzzle of `specs`, prepared for the solver; an unreadable file is one entry with its error
    (or, without `keep_going`, the error)."""
    out = []
    for spec, puzzles, err in each_file(specs, fmt):
        if err is not None:
            if not keep_going:
                raise err
            out.append(Loaded(spec, None, str(err)))
        else:
            out += [Loaded(spec, prepare(p)) for p in puzzles]
    return out


def run(specs: list[str], opts: Options, corpus: str | None = None, fmt: str | None = None,
        keep_going: bool = True, progress: bool = True, batch: bool = True) -> list[dict]:
    """One row per puzzle; files that do not parse give a row with status `error` (or raise)."""
    return run_loaded(load_all(specs, fmt, keep_going), opts, corpus, progress, batch)


def run_loaded(items: list[Loaded], opts: Options, corpus: str | None = None, progress: bool = True,
               batch: bool = True, repeats: int = REPEATS, repeat_below: float = REPEAT_BELOW_S) -> list[dict]:
    """One row per item; a puzzle solved in under `repeat_below` CPU seconds is solved `repeats` times in
    all and keeps its median run's times (the answers are the same every time: checked)."""
    warm_up()
    ready_caches([it.puzzle for it in items if it.puzzle is not None], opts)
    # The loaded puzzles (hundreds of thousands of clue tuples on the big corpora) live until the end:
    # freeze them out of the garbage collector, whose full passes otherwise land inside timed solves
    # (no gc.collect() first: returning freed memory to the system makes the first solve page-fault).
    gc.freeze()
    try:
        rows = _run_loaded(items, opts, corpus, progress, batch)
        quick = [i for i, r in enumerate(rows) if r["status"] not in ("error", "timeout") and r["cpu_s"] < repeat_below]
        runs = {i: [rows[i]] for i in quick}
        for _ in range(repeats - 1):
            for i, again in zip(quick, _run_loaded([items[j] for j in quick], opts, corpus, False, batch)):
                runs[i].append(same_answer(rows[i], again))
        for i in quick:
            rows[i] = median_run(runs[i], key=lambda r: r["cpu_s"])
        return rows
    finally:
        gc.unfreeze()


def same_answer(row: dict, again: dict) -> dict:
    """`again`, a repeated timed run of the puzzle of `row`, after checking that it gave the same answer."""
    differ = [c for c in ANSWER_COLUMNS if row[c] != again[c]]
    if differ:
        raise RuntimeError(f"{row['corpus']}/{row['name']}: a repeated solve differs in {', '.join(differ)}")
    return again


def _batches(items: list[Loaded], opts: Options, size: int = BATCH):
    """Runs of up to `size` consecutive puzzles the batch path takes: index -> the run's indices."""
    runs, run = {}, []
    for i, it in enumerate(items):
        if it.puzzle is not None and batchable(it.puzzle, opts) and len(run) < size:
            run.append(i)
            continue
        if run:
            runs[run[0]] = run
        run = [i] if it.puzzle is not None and batchable(it.puzzle, opts) else []
    if run:
        runs[run[0]] = run
    return runs


def _run_loaded(items: list[Loaded], opts: Options, corpus: str | None, progress: bool, batch: bool) -> list[dict]:
    rows = []
    runs = _batches(items, opts) if batch else {}
    batched = {}  # index -> the batch path's results for the run it starts (an iterator, in order)
    with Progress(len(items), "solving", unit="puzzles", enabled=progress) as bar:
        for i, it in enumerate(items):
            name = it.puzzle.name if it.puzzle else Path(it.spec).stem
            row = {"corpus": corpus or Path(it.spec).parent.name, "name": name}
            if it.puzzle is None:
                row.update(size="", width=0, height=0, colors=0, status="error", line_solvable=False, solutions=0,
                           solution_sha="", valid="", found=0, line_solves=0, work=0, probes=0, branches=0,
                           time_s=float("nan"), cpu_s=float("nan"), error=it.error.replace("\n", " "))
                rows.append(row)
                bar.update(1, note=f"{name}: parse error")
                continue
            p = it.puzzle
            if i in runs:
                results = solve_many([items[j].puzzle for j in runs[i]], opts)
                batched.update(dict.fromkeys(runs[i], results))
            res = next(batched.pop(i)) if i in batched else solve(p, opts)
            valid = all(satisfies(p, s) for s in res.solutions)
            timed_out = res.status == "timeout"
            row.update(size=p.size(), width=p.width, height=p.height, colors=p.ncolors, status=res.status,
                       line_solvable=res.line_solvable, solutions="" if timed_out else len(res.solutions),
                       solution_sha="" if timed_out else solution_sha(res.solutions), valid=valid,
                       found=len(res.solutions),
                       line_solves=res.stats["line_solves"], work=res.stats["work"], probes=res.stats["probes"],
                       branches=res.stats["branches"], time_s=res.time_s, cpu_s=res.cpu_s, error="")
            rows.append(row)
            bar.update(1, note=f"{name}: {res.status} {res.time_s * 1000:.1f} ms")
    return rows


def summary(rows: list[dict], top: int = 10) -> dict:
    """Average, median and max time and the heaviest puzzles, over the puzzles that were solved."""
    timed = [r for r in rows if r["status"] != "error"]
    times = [r["time_s"] for r in timed]
    counts = {s: sum(1 for r in rows if r["status"] == s)
              for s in ("unique", "multiple", "solved", "contradiction", "timeout", "error")}
    heavy = sorted(timed, key=lambda r: (-r["time_s"], r["name"]))[:top]
    return {
        "count": len(rows),
        **counts,
        "line_solvable": sum(1 for r in timed if r["line_solvable"]),
        "average_time_s": statistics.fmean(times) if times else float("nan"),
        "median_time_s": statistics.median(times) if times else float("nan"),
        "max_time_s": max(times) if times else float("nan"),
        "total_time_s": sum(times),
        "heaviest": [{"name": r["name"], "corpus": r["corpus"], "time_s": r["time_s"], "status": r["status"]}
                     for r in heavy],
    }


def summary_text(s: dict) -> str:
    """The article's log lines: average, median, max, then the ten heaviest."""
    lines = [f"{s['count']} puzzles: {s['unique']} unique, {s['multiple']} multiple, {s['solved']} solved "
             f"(uniqueness not checked), {s['contradiction']} contradiction, {s['timeout']} timeout, "
             f"{s['error']} unreadable; {s['line_solvable']} line-solvable"]
    if s["error"] == s["count"]:  # every row unreadable: no times to summarise
        return "\n".join(lines + ["No puzzle was read, so there are no times."])
    lines += [f"Average time: {s['average_time_s']:.6g}, Median time: {s['median_time_s']:.6g}, "
              f"Max time: {s['max_time_s']:.6g}",
              f"Top {len(s['heaviest'])} heaviest nonograms:"]
    lines += [f"{h['time_s']:.6g} seconds, {h['corpus']}/{h['name']} ({h['status']})" for h in s["heaviest"]]
    return "\n".join(lines)

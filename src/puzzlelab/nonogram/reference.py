"""Time a peer solver on the same puzzles, for the side-by-side tables: Jan Wolter's pbnsolve
(`run`) and LalaFrogKK, the 25x25 tournament champion (`run_lalafrog`).

Each puzzle is written as webpbn XML (pbnsolve's native format, colour included) and solved with
`pbnsolve -b -u -t`: `-u` decides uniqueness like our `--max-solutions 2`, `-t` prints its own
solving time (CPU time, file reading excluded). Its CPU limit is watched from here
(`lab.cputime.run_cpu_limited`): a limit set on the process (its `-x`, or RLIMIT_CPU) makes
pbnsolve's clock read 0 on fast puzzles. The child's whole CPU time (start-up and reading included)
and wall time are recorded too.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from ..lab.cputime import REPEAT_BELOW_S, REPEATS, median_run, run_cpu_limited
from ..lab.errors import InputError, quote
from ..lab.progress import Progress
from .experiments import load_all
from .formats import pbnxml

WORDS = ("unique", "multiple", "contradiction", "timeout", "solvable", "stalled")


def find(executable: str) -> str | None:
    """Path of the reference solver, or None when it is not installed ('' disables it)."""
    if not executable:
        return None
    if os.sep in executable:
        return executable if os.access(executable, os.X_OK) else None
    return shutil.which(executable)


def parse_output(text: str) -> tuple[str, bool, float | None]:
    """(status, line-solvable, processing seconds) from pbnsolve's brief output."""
    words = set(re.findall(r"[a-z]+(?:-\d)?", text.lower()))
    status = next((w for w in WORDS if w in words), "unknown")
    if status == "solvable":
        status = "solved"
    m = re.search(r"Processing Time:\s*([0-9.]+)", text)
    return status, "logical" in words or "line" in words, float(m.group(1)) if m else None


def _solver_and_puzzles(executable: str, specs: list[str], fmt: str | None, chunk) -> tuple[str, list]:
    """The peer's executable (or an error saying it is missing) and the puzzles it is given."""
    exe = find(executable)
    if exe is None:
        raise InputError(f"reference solver {quote(executable)} not found (install it or put it on PATH)")
    items = load_all(specs, fmt, keep_going=True)
    return exe, chunk(items) if chunk is not None else items


WALL_FACTOR = 10  # the wall-clock stop of a peer's run, in multiples of its CPU limit (plus 10 s)


def _pbnsolve(exe: str, xml: Path, timeout: float) -> dict:
    """One pbnsolve process on one puzzle: status, line_solvable and its times."""
    done = run_cpu_limited([exe, "-b", "-u", "-t", str(xml)], timeout, WALL_FACTOR * timeout + 10)
    status, line, proc = parse_output(done.stdout + done.stderr)
    if done.stopped or (done.returncode != 0 and status == "unknown"):
        status, proc = "timeout", None
    return {"status": status, "line_solvable": line, "time_s": float("nan") if proc is None else proc,
            "cpu_s": done.cpu_s, "wall_s": done.wall_s}


def run(executable: str, specs: list[str], timeout: float, corpus: str | None = None, fmt: str | None = None,
        progress: bool = True, chunk=None, repeats: int = REPEATS, repeat_below: float = REPEAT_BELOW_S) -> list[dict]:
    """pbnsolve on every puzzle, one process each; `timeout` is CPU seconds per puzzle (status `timeout`),
    so that a loaded machine stops each puzzle where a quiet one does (a wall-clock stop at WALL_FACTOR x).
    A puzzle it solves in under `repeat_below` seconds is run `repeats` times and its median run kept, as ours is
    (runs that end in another status are dropped)."""
    exe, items = _solver_and_puzzles(executable, specs, fmt, chunk)
    rows = []
    with tempfile.TemporaryDirectory(prefix="pbnsolve-") as tmp, \
            Progress(len(items), f"{Path(exe).name}", unit="puzzles", enabled=progress) as bar:
        for k, it in enumerate(items):
            row = {"corpus": corpus or Path(it.spec).parent.name,
                   "name": it.puzzle.name if it.puzzle else Path(it.spec).stem}
            if it.puzzle is None:
                row.update(status="error", line_solvable=False, time_s=float("nan"), cpu_s=float("nan"),
                           wall_s=float("nan"))
                rows.append(row)
                bar.update(1)
                continue
            xml = Path(tmp) / f"p{k}.xml"
            xml.write_text(pbnxml.write(it.puzzle), encoding="utf-8")
            first = _pbnsolve(exe, xml, timeout)
            runs = [first]
            if first["time_s"] < repeat_below:  # a timeout's time is NaN: not repeated
                runs += [r for r in (_pbnsolve(exe, xml, timeout) for _ in range(repeats - 1))
                         if r["status"] == first["status"]]
            row.update(median_run(runs, key=lambda r: r["time_s"]))
            rows.append(row)
            bar.update(1, note=f"{row['name']}: {row['status']}")
    return rows


# LalaFrogKK (github.com/CGI-LAB/Nonogram) is built for the tournament: it reads exactly
# LALAFROG_BATCH puzzles of 25x25 from ./input.txt, writes ./solution.txt and ./log.txt ("#N<TAB>seconds"
# of its own clock per puzzle), and stops at the first solution (the tournament's task).
LALAFROG_BATCH = 1000
LALAFROG_SIDE = 25
_LALAFROG_PAD = "\n".join(["0"] * (2 * LALAFROG_SIDE))  # an empty puzzle: pads a short batch


def tournament_text(puzzle) -> str:
    """A black-and-white puzzle in the tournament format: column clues, then row clues; 0 = empty."""
    lines = [" ".join(str(n) for n, _ in clue) or "0" for clue in list(puzzle.cols) + list(puzzle.rows)]
    return "\n".join(lines)


def parse_lalafrog(log: str, solution: str) -> tuple[dict[int, float], dict[int, list[list[int]]]]:
    """({puzzle number: its seconds}, {puzzle number: its grid}) from LalaFrogKK's log and solution files."""
    times = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"^#(\d+)\s+([0-9.eE+-]+)\s*$", log, re.M)}
    grids: dict[int, list[list[int]]] = {}
    current = None
    for line in solution.splitlines():
        if line.startswith("$"):
            current = int(line[1:].strip() or 0)
            grids[current] = []
        elif current is not None and line.strip():
            grids[current].append([int(v) for v in line.split()])
    return times, grids


def run_lalafrog(executable: str, specs: list[str], timeout: float, corpus: str | None = None,
                 fmt: str | None = None, progress: bool = True, chunk=None) -> list[dict]:
    """LalaFrogKK on every 25x25 black-and-white puzzle, LALAFROG_BATCH per process; every grid it
    writes is checked against the clues here (status `solved`, or `wrong`)."""
    exe, items = _solver_and_puzzles(executable, specs, fmt, chunk)
    rows, batch = [], []
    for it in items:
        row = {"corpus": corpus or Path(it.spec).parent.name,
               "name": it.puzzle.name if it.puzzle else Path(it.spec).stem}
        p = it.puzzle
        if p is None or not p.is_bw or p.width != LALAFROG_SIDE or p.height != LALAFROG_SIDE:
            row.update(status="error" if p is None else "skipped", line_solvable=False, time_s=float("nan"),
                       cpu_s=float("nan"), wall_s=float("nan"))
        else:
            batch.append((row, p))
        rows.append(row)
    with Progress(len(batch), Path(exe).name, unit="puzzles", enabled=progress) as bar:
        for start in range(0, len(batch), LALAFROG_BATCH):
            part = batch[start:start + LALAFROG_BATCH]
            _lalafrog_batch(exe, part, timeout * len(part))
            bar.update(len(part), note=f"{sum(r['status'] == 'solved' for r, _ in part)} of {len(part)} solved")
    return rows


def _lalafrog_batch(exe: str, part: list, timeout: float) -> None:
    """One LalaFrogKK process on up to LALAFROG_BATCH (row, puzzle) pairs, stopped after `timeout` CPU
    seconds: fills in each row."""
    import numpy as np

    from .model import satisfies

    with tempfile.TemporaryDirectory(prefix="lalafrog-") as tmp:
        text = [f"${k + 1}\n{tournament_text(p)}" for k, (_, p) in enumerate(part)]
        text += [f"${k + 1}\n{_LALAFROG_PAD}" for k in range(len(part), LALAFROG_BATCH)]
        Path(tmp, "input.txt").write_text("\n".join(text) + "\n", encoding="utf-8")
        done = run_cpu_limited([exe], timeout, WALL_FACTOR * timeout + 10, cwd=tmp)
        killed, wall, cpu = done.stopped is not None, done.wall_s, done.cpu_s
        times, grids = parse_lalafrog(_read_if_any(Path(tmp, "log.txt")), _read_if_any(Path(tmp, "solution.txt")))
    for k, (row, p) in enumerate(part):
        t, grid = times.get(k + 1), grids.get(k + 1)
        if t is None or grid is None:
            status = "timeout" if killed else "unknown"
        else:
            status = "solved" if satisfies(p, np.array(grid, dtype=np.int64)) else "wrong"
        # its own clock per puzzle; the process's CPU and wall time shared out over the batch
        row.update(status=status, line_solvable=False, time_s=float("nan") if t is None else t,
                   cpu_s=cpu / len(part), wall_s=wall / len(part))


def _read_if_any(path: Path) -> str:
    """A file the peer may not have written (it was killed first): its text, or nothing."""
    return path.read_text(errors="replace") if path.is_file() else ""

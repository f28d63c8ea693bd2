"""Time a reference solver (Jan Wolter's pbnsolve) on the same puzzles, for the side-by-side table.

Each puzzle is written as webpbn XML (pbnsolve's native format, colour included) and solved with
`pbnsolve -b -u -t`: `-u` decides uniqueness like our `--max-solutions 2`, `-t` prints its own
solving time (CPU time, file reading excluded). The limit is wall-clock (the process is killed):
any CPU limit (its `-x`, or RLIMIT_CPU) makes pbnsolve's clock read 0. The child's whole CPU time
(start-up and reading included) and wall time are recorded too.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

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


def run(executable: str, specs: list[str], timeout: float, corpus: str | None = None, fmt: str | None = None,
        progress: bool = True, chunk=None) -> list[dict]:
    exe = find(executable)
    if exe is None:
        raise InputError(f"reference solver {quote(executable)} not found (install it or put it on PATH)")
    items = load_all(specs, fmt, keep_going=True)
    if chunk is not None:
        items = chunk(items)
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
            t0 = time.perf_counter()
            ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                done = subprocess.run([exe, "-b", "-u", "-t", str(xml)], capture_output=True, text=True,
                                      timeout=timeout)
                out = done.stdout + done.stderr
                status, line, proc = parse_output(out)
                if done.returncode < 0 or (done.returncode != 0 and status == "unknown"):
                    status = "timeout"  # killed by its CPU limit (SIGXCPU)
            except subprocess.TimeoutExpired:
                status, line, proc = "timeout", False, None
            wall = time.perf_counter() - t0
            ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
            if status == "timeout":
                proc = None
            row.update(status=status, line_solvable=line, time_s=proc if proc is not None else float("nan"),
                       cpu_s=cpu, wall_s=wall)
            rows.append(row)
            bar.update(1, note=f"{row['name']}: {status}")
    return rows

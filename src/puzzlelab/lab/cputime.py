"""CPU time of child processes (a peer solver run beside ours): what the kernel charged them, and a
CPU-time limit the parent enforces without touching the child's own clock."""

from __future__ import annotations

import os
import resource
import subprocess
import time
from typing import NamedTuple

_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")
# A measurement under REPEAT_BELOW_S seconds is taken REPEATS times in all and the median run kept (ours and
# a peer's alike): one run of a millisecond solve is at the mercy of a page fault or a scheduler tick, and a
# CPU clock read on a busy shared machine has been seen to come out 5x low for a whole batch, so the
# minimum would reward the glitch; the slow runs, which cost the time, are measured once.
REPEATS = 3
REPEAT_BELOW_S = 0.1
_MIN_WAIT_S = 0.05  # the shortest wait between two looks at a running child's CPU time


def median_run(runs: list, key):
    """The run whose `key` is the median of the runs' (the upper middle one of an even count)."""
    return sorted(runs, key=key)[len(runs) // 2]


def children_cpu_seconds() -> float:
    """User + system CPU seconds of this process's finished (reaped) children so far; the difference
    around one child's run is that child's CPU time."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a running process has used so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(b")") + 2:].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) * _TICK_S  # utime, stime (fields 14 and 15 of stat)


class LimitedRun(NamedTuple):
    """A finished child: exit code, output, its CPU and wall seconds, and why it was stopped (None,
    "cpu" or "wall")."""

    returncode: int
    stdout: str
    stderr: str
    cpu_s: float
    wall_s: float
    stopped: str | None


def run_cpu_limited(cmd: list[str], cpu_limit: float, wall_limit: float, **popen) -> LimitedRun:
    """Run `cmd` to its end, or stop it once it has used `cpu_limit` CPU seconds (or `wall_limit` wall
    seconds, the safety net on a machine too loaded to give it its CPU).

    The limit is watched from here, not set on the child (RLIMIT_CPU): a CPU limit switches the kernel
    to sampling the child's CPU clock at its timer tick, so a peer that reads its own clock (pbnsolve's
    `clock()`) reads 0 or whole ticks on a fast puzzle. A child cannot use more CPU than wall time on
    one thread, so the parent waits the remaining budget in wall time before it looks again: a child
    that finishes within its budget is never looked at.
    """
    t0, c0 = time.perf_counter(), children_cpu_seconds()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    stopped = None
    used = 0.0
    while True:
        left_wall = wall_limit - (time.perf_counter() - t0)
        wait = max(_MIN_WAIT_S, min(cpu_limit - used, left_wall))
        try:
            out, err = proc.communicate(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            used = process_cpu_seconds(proc.pid)
            if used >= cpu_limit or time.perf_counter() - t0 >= wall_limit:
                stopped = "cpu" if used >= cpu_limit else "wall"
                proc.kill()
                out, err = proc.communicate()
                break
    return LimitedRun(proc.returncode, out, err, children_cpu_seconds() - c0, time.perf_counter() - t0, stopped)

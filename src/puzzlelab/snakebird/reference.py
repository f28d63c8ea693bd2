"""Run the reference C++ Snakebird solver (jsnell/snakebird-solver, one executable per level) and
read its per-depth counts and answer, timing it and measuring its peak memory."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time

from ..lab.cputime import children_cpu_seconds, process_cpu_seconds
from ..lab.errors import InputError
from ..lab.sizes import child_peak_rss_bytes

_POLL_S = 0.02  # how often the child's peak memory is read ...
_BUSY_S = 0.5  # ... after its first half second, read without pause
_SAMPLED = 1 << 20  # a reading below this was taken before the C++ runtime was even loaded

_DEPTH = re.compile(r"^depth: (\d+)$")
_UNIQUE = re.compile(r"^\s+new unique: (\d+)$")
_MOVE = re.compile(r"^Move (\d+)$")


def parse_output(text: str) -> dict:
    """Answer and per-depth `new unique` counts from the solver's stdout."""
    layers = [1]
    moves = None
    for line in text.splitlines():
        m = _UNIQUE.match(line)
        if m:
            layers.append(int(m.group(1)))
            continue
        m = _MOVE.match(line)
        if m and moves is None:
            moves = int(m.group(1))  # the trace prints the last move first
    return {"moves": moves, "layers": layers}


def run_reference(executable: str, level_name: str, timeout_s: float | None = None,
                  cpu_limit_s: float | None = None) -> dict:
    """Run one level's executable in a scratch folder (it may spill files to its working directory).

    Past `cpu_limit_s` seconds of its CPU time the solver is stopped and the record says so
    (`stopped`, moves None, the depths it finished); past `timeout_s` wall seconds it is an error."""
    t0 = time.perf_counter()
    stopped = None
    cpu0 = children_cpu_seconds()
    with tempfile.TemporaryDirectory(prefix="snakebird-ref-") as scratch:
        out_path, err_path = os.path.join(scratch, ".stdout"), os.path.join(scratch, ".stderr")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            try:
                proc = subprocess.Popen([executable], cwd=scratch, stdout=out, stderr=err)
            except FileNotFoundError:
                raise InputError(f"reference solver not found: {executable}") from None
            peak = 0
            # poll the child's own high-water mark (rusage would include ours, see lab.sizes): without
            # pause at first, since most levels take milliseconds, then every _POLL_S
            while proc.poll() is None:
                peak = max(peak, child_peak_rss_bytes(proc.pid))
                elapsed = time.perf_counter() - t0
                if cpu_limit_s is not None and elapsed > _BUSY_S and process_cpu_seconds(proc.pid) > cpu_limit_s:
                    proc.kill()
                    proc.wait()
                    stopped = f"CPU limit of {cpu_limit_s:g} s reached"
                    break
                if timeout_s is not None and elapsed > timeout_s:
                    proc.kill()
                    proc.wait()
                    raise InputError(f"reference solver {executable} did not finish within {timeout_s} s") from None
                time.sleep(0 if elapsed < _BUSY_S else _POLL_S)
        wall = time.perf_counter() - t0
        cpu = children_cpu_seconds() - cpu0
        with open(out_path) as fh:
            stdout = fh.read()
        with open(err_path) as fh:
            stderr = fh.read()
    if stopped is not None:
        layers = parse_output(stdout)["layers"]
        return {"level": level_name, "solver": "jsnell/snakebird-solver (C++)",
                "executable": os.path.basename(executable), "moves": None, "stopped": stopped,
                "layers_finished": layers, "states_reported": sum(layers), "time_s": wall, "cpu_s": cpu,
                "peak_rss_bytes": peak if peak >= _SAMPLED else None}
    if proc.returncode != 0:
        raise InputError(f"reference solver {executable} exited with {proc.returncode}: {stderr.strip()[-300:]}")
    parsed = parse_output(stdout)
    layers = parsed["layers"]
    # all depths but the last are deterministic (docs/snakebird.md §9): the last one stops early per parent
    return {
        "level": level_name,
        "solver": "jsnell/snakebird-solver (C++)",
        "executable": os.path.basename(executable),
        "moves": parsed["moves"],
        "layers_before_last": layers[:-1],
        "states_reported": sum(layers),
        "time_s": wall,
        "cpu_s": cpu,
        # a solver that ends within a millisecond or two is gone before its memory could be read
        "peak_rss_bytes": peak if peak >= _SAMPLED else None,
    }

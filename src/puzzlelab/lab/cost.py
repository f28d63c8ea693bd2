"""What a run costs: the job list of a dry run, each job's cost from a committed table, a schedule.

`plan` speaks before a run: jobs, CPU-hours, wall time on N cores, peak memory and disk per
experiment, estimated from `reference/*/costs.csv` — one row per job measured here (Snakemake's
`benchmark:` file of the job, and the size of its outputs). A job whose command line was measured
is priced at its measured cost (whatever config ran it; at another thread count its wall time by
Amdahl's law); another job of a measured rule from the rule's measurement nearest in size (the
size flags of its command line: seeds, widths, puzzles, repetitions, and the node or work limit
of a rule that declares `resources: runs_to_limit=1`), its work scaled linearly above the rule's
start-up cost; anything else at `DEFAULT_CPU_S`.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import math
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .errors import InputError

DEFAULT_CPU_S = 60.0
# A job's fixed cost (interpreter, imports, loading cached kernels) is at most this; the rest of a
# measured job's time is work that grows with its size.
START_UP_S = 2.0
DEFAULT_RSS_MB = 300.0
# A job measured at one thread count and planned at another: its wall time follows Amdahl's law with
# this parallel fraction (its CPU time is kept), from the one scaling measured here: level19's BFS
# search took 1.6x less wall time at 2 threads than at 1 (quiet machine, same result).
PARALLEL_FRACTION = 0.75
COST_COLUMNS = ["label", "rule", "experiment", "job", "command", "threads", "scale", "cpu_s", "wall_s",
                "max_rss_mb", "disk_mb"]
# Flags whose values multiply a job's work roughly linearly (puzzles, seeds, widths, repetitions).
# A value `A-B` counts B-A+1 items (a seed range), `A,B,C` counts its items. Node and work limits
# are bounds most jobs never reach: they do not scale a price (a job that runs to its limit is
# priced by its own measurement once it has run here).
SIZE_FLAGS = ("--count", "--limit", "--seeds", "--width", "--repeats", "--reps", "--games", "--samples")
# ... except for a rule whose jobs spend their whole limit (a polish run, a DFS speed run): its rule
# says so with `resources: runs_to_limit=1`, and these flags then scale its price too.
LIMIT_FLAGS = ("--node-limit", "--work-limit")
LIMIT_RESOURCE = "runs_to_limit"
_FLAG_VALUE = r"[ =](\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*)(?![\w.-])"


@dataclass
class Job:
    rule: str
    outputs: list[str] = field(default_factory=list)
    benchmark: str | None = None
    threads: int = 1
    shell: str = ""
    runs_to_limit: bool = False

    @property
    def key(self) -> str:
        """What identifies the job across runs: its benchmark file (else its first output)."""
        return self.benchmark or (self.outputs[0] if self.outputs else f"({self.rule})")

    @property
    def experiment(self) -> str:
        for path in ([self.benchmark] if self.benchmark else []) + self.outputs:
            parts = Path(path).parts
            if len(parts) > 2 and parts[0] == "results" and parts[1] in ("benchmarks", "logs"):
                return parts[2]
            if len(parts) > 1 and parts[0] == "results":
                return parts[1]
        return "(workflow)"

    @property
    def scale(self) -> float:
        return size_scale(self.shell, self.runs_to_limit)

    @property
    def command(self) -> str:
        """What identifies the job's work: a digest of its command line."""
        return command_digest(self.shell)


def command_digest(shell: str) -> str:
    return hashlib.sha256(shell.strip().encode()).hexdigest()[:16] if shell.strip() else ""


def _flag_size(value: str) -> int:
    """A flag value's size: a number, or the count of items of a list of numbers and ranges A-B."""
    if "," not in value and "-" not in value:
        return max(1, int(value))
    total = 0
    for part in value.split(","):
        lo, _, hi = part.partition("-")
        total += int(hi) - int(lo) + 1 if hi else 1
    return max(1, total)


def size_scale(shell: str, runs_to_limit: bool = False) -> float:
    """Product of the sizes of the size flags on a command line (1 when there are none); with
    `runs_to_limit`, of its limit flags too."""
    scale = 1.0
    for flag in SIZE_FLAGS + (LIMIT_FLAGS if runs_to_limit else ()):
        for m in re.finditer(re.escape(flag) + _FLAG_VALUE, shell):
            scale *= _flag_size(m.group(1))
    return scale


_RULE = re.compile(r"^(?:local)?rule (\S+):$")


def parse_dry_run(text: str) -> list[Job]:
    """The jobs of `snakemake --dry-run --printshellcmds --nocolor` output."""
    jobs: list[Job] = []
    job: Job | None = None
    for line in text.splitlines():
        m = _RULE.match(line)
        if m:
            job = Job(m.group(1))
            jobs.append(job)
            continue
        if job is None:
            continue
        stripped = line.strip()
        if stripped.startswith("output: "):
            job.outputs = [p.strip() for p in stripped[len("output: "):].split(",")]
        elif stripped.startswith("benchmark: "):
            job.benchmark = stripped[len("benchmark: "):].strip()
        elif stripped.startswith("threads: "):
            job.threads = int(stripped.split()[1])
        elif stripped.startswith("resources: "):
            given = stripped[len("resources: "):]
            job.runs_to_limit = re.search(rf"(?:^|[ ,]){LIMIT_RESOURCE}=1(?:,|$)", given) is not None
        elif line.startswith("Shell command: "):
            job.shell = line[len("Shell command: "):]
        elif not line.strip():
            job = None
    return jobs


def snakemake_dry(args: list[str], configfile: str | None, env: dict | None = None) -> str:
    """A Snakemake dry run's output (stdout, then stderr); a failed one is an InputError with its last line."""
    cmd = [sys.executable, "-m", "snakemake", *args, "--dry-run"]
    if configfile:
        cmd += ["--configfile", configfile]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        tail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["(no output)"]
        raise InputError(f"the dry run failed: {tail[0]}", configfile or "Snakefile")
    return done.stdout + "\n" + done.stderr


def dry_run(targets: list[str], configfile: str | None, forceall: bool, cores: int = 8) -> list[Job]:
    """Ask Snakemake which jobs a run would execute (targets come first: see the README)."""
    args = [*targets, "--printshellcmds", "--nocolor", "--cores", str(cores)] + (["--forceall"] if forceall else [])
    return parse_dry_run(snakemake_dry(args, configfile))


def read_benchmark(path: str | Path) -> dict | None:
    """Snakemake's benchmark TSV (the last repetition): seconds, CPU seconds, peak RSS in MB."""
    p = Path(path)
    if not p.is_file():
        return None
    try:
        df = pd.read_csv(p, sep="\t")
    except (ValueError, OSError):
        return None
    if df.empty:
        return None
    row = df.iloc[-1]

    def num(key):
        try:
            value = float(row.get(key, float("nan")))
        except (TypeError, ValueError):
            return float("nan")
        return value if math.isfinite(value) else float("nan")

    return {"wall_s": num("s"), "cpu_s": num("cpu_time"), "max_rss_mb": num("max_rss")}


def disk_mb(paths: list[str]) -> float:
    total = 0
    for p in paths:
        path = Path(p)
        if path.is_file():
            total += path.stat().st_size
        elif path.is_dir():
            total += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    return total / 1e6


def resumed_work(job: Job) -> tuple[float, float] | None:
    """(wall, CPU) seconds of the whole search of a job that resumed a checkpoint, from its timing file
    (the runs before the last one included), or None: the benchmark file sees only the last run."""
    for out in job.outputs:
        if not out.endswith(".timing.json") or not Path(out).is_file():
            continue
        try:
            timing = json.loads(Path(out).read_text())
        except (OSError, ValueError):
            return None
        if isinstance(timing, dict) and timing.get("resumed_from_depth") is not None:
            try:
                return float(timing["time_s"]), float(timing["cpu_s"])
            except (KeyError, TypeError, ValueError):
                return None
    return None


def charged(wall_s: float, cpu_s: float, whole: tuple[float, float] | None) -> tuple[float, float]:
    """(wall, CPU) seconds a job is charged: its benchmark's, or at least its whole search's when it
    resumed a checkpoint (`whole`, from `resumed_work`: the benchmark file sees only the last run)."""
    return (wall_s, cpu_s) if whole is None else (max(wall_s, whole[0]), max(cpu_s, whole[1]))


def resumed_benchmarks(jobs: list[Job]) -> dict[str, tuple[float, float]]:
    """Benchmark path -> (wall, CPU) seconds of the whole search, for the jobs that resumed a checkpoint."""
    out = {}
    for job in jobs:
        whole = resumed_work(job) if job.benchmark else None
        if whole is not None:
            out[job.benchmark] = whole
    return out


def measure(jobs: list[Job], label: str) -> pd.DataFrame:
    """One row per job with a benchmark file on disk: what it cost in this run (for a job that resumed
    a checkpoint, at least its whole search's time: see `resumed_work`)."""
    rows = []
    for job in jobs:
        bench = read_benchmark(job.benchmark) if job.benchmark else None
        if bench is None:
            continue
        cpu = bench["cpu_s"] if not math.isnan(bench["cpu_s"]) else bench["wall_s"]
        wall, cpu = charged(bench["wall_s"], cpu, resumed_work(job))
        rows.append([label, job.rule, job.experiment, job.key, job.command, job.threads, job.scale, round(cpu, 2),
                     round(wall, 2), round(bench["max_rss_mb"], 1), round(disk_mb(job.outputs), 3)])
    return pd.DataFrame(rows, columns=COST_COLUMNS)


def load_table(path: str | Path) -> pd.DataFrame:
    p = Path(path)
    if not p.is_file():
        return pd.DataFrame(columns=COST_COLUMNS)
    table = pd.read_csv(p, keep_default_na=False, dtype={"command": str})
    for column in COST_COLUMNS:
        if column not in table:
            table[column] = ""
    return table[COST_COLUMNS]


def rescale(table: pd.DataFrame, jobs: list[Job], label: str) -> pd.DataFrame:
    """The `scale` of this label's rows recomputed from the jobs of a dry run (matched by rule and
    job), so that a change of the size model never leaves stale sizes in a committed table."""
    scales = {(j.rule, j.key): j.scale for j in jobs}
    out = table.copy()
    for i, r in enumerate(out.itertuples(index=False)):
        if str(r.label) == label and (r.rule, r.job) in scales:
            out.iat[i, out.columns.get_loc("scale")] = scales[(r.rule, r.job)]
    return out


def merge_tables(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """Rows of `new` replace those of `old` with the same label, rule and job."""
    key = ["label", "rule", "job"]
    if new.empty:
        out = old
    elif old.empty:
        out = new
    else:
        keep = old.merge(new[key], on=key, how="left", indicator=True)
        out = pd.concat([old[(keep["_merge"] == "left_only").to_numpy()], new], ignore_index=True)
    return out.sort_values(key, kind="stable").reset_index(drop=True)[COST_COLUMNS]


@dataclass
class Estimate:
    cpu_s: float
    wall_s: float
    max_rss_mb: float
    disk_mb: float
    source: str  # "measured", "rule" or "default"


class Pricer:
    """Prices jobs from a cost table (see the module docstring for the order of preference)."""

    def __init__(self, table: pd.DataFrame, label: str):
        self.label = label
        self.exact: dict[tuple, tuple] = {}
        self.by_command: dict[tuple, tuple] = {}
        self.by_rule: dict[str, list] = {}
        for r in table.itertuples(index=False):
            entry = (float(r.cpu_s), float(r.wall_s), float(r.max_rss_mb), float(r.disk_mb), float(r.scale or 1),
                     int(r.threads or 1))
            if str(r.label) == label:
                self.exact[(r.rule, r.job)] = entry
            if str(r.command):
                self.by_command[(r.rule, str(r.command))] = entry
            self.by_rule.setdefault(r.rule, []).append(entry)

    def price(self, job: Job) -> Estimate:
        hit = self.by_command.get((job.rule, job.command)) or self.exact.get((job.rule, job.key))
        if hit:
            cpu, wall, rss, disk, _, measured_threads = hit
            wall *= speedup(measured_threads) / speedup(job.threads)
            return Estimate(cpu, wall, rss, disk, "measured")
        seen = self.by_rule.get(job.rule)
        if seen:
            return Estimate(*scaled(seen, job.scale), "rule")
        return Estimate(DEFAULT_CPU_S, DEFAULT_CPU_S, DEFAULT_RSS_MB, 0.0, "default")


def speedup(threads: int) -> float:
    """Wall-time speed-up of a job at `threads` threads over one thread (Amdahl, PARALLEL_FRACTION)."""
    return 1.0 / ((1.0 - PARALLEL_FRACTION) + PARALLEL_FRACTION / max(1, int(threads)))


def scaled(seen: list[tuple], scale: float) -> tuple[float, float, float, float]:
    """A job of size `scale` priced from the rule's measurements nearest in size: the work above
    the rule's start-up (its cheapest job, at most START_UP_S) grows linearly with the size."""
    start_up = min(START_UP_S, min(e[0] for e in seen))
    distance = {e[4]: abs(math.log(max(scale, 1e-9) / max(e[4], 1e-9))) for e in seen}
    nearest = min(distance.values())
    near = [e for e in seen if distance[e[4]] == nearest]
    ratio = scale / near[0][4]
    cpu = start_up + statistics.median(max(0.0, e[0] - start_up) for e in near) * ratio
    wall_ratio = statistics.median(e[1] / e[0] if e[0] > 0 else 1.0 for e in near)
    return cpu, cpu * wall_ratio, max(e[2] for e in near), statistics.median(e[3] for e in near) * ratio


def makespan(jobs: list[tuple[float, int]], cores: int) -> float:
    """Wall time of (seconds, threads) jobs on `cores` cores, longest first (dependencies ignored)."""
    free = [0.0] * max(1, cores)
    heapq.heapify(free)
    for seconds, threads in sorted(jobs, key=lambda j: -j[0]):
        k = min(max(1, threads), cores)
        starts = [heapq.heappop(free) for _ in range(k)]
        end = max(starts) + seconds
        for _ in range(k):
            heapq.heappush(free, end)
    return max(free) if free else 0.0


def plan_table(jobs: list[Job], pricer: Pricer, cores: int) -> pd.DataFrame:
    """Per experiment: jobs, CPU-hours, wall hours on `cores` cores, peak RSS, disk; and a total row."""
    rows = []
    by_exp: dict[str, list[tuple[Job, Estimate]]] = {}
    for job in jobs:
        by_exp.setdefault(job.experiment, []).append((job, pricer.price(job)))
    everything = []
    for exp in sorted(by_exp):
        priced = by_exp[exp]
        everything += priced
        rows.append(_row(exp, priced, cores))
    rows.append(_row("total", everything, cores))
    return pd.DataFrame(rows, columns=["experiment", "jobs", "cpu_hours", f"wall_hours_{cores}_cores",
                                       "peak_rss_gb", "disk_gb", "priced_from_measurements"])


def _row(name: str, priced: list, cores: int) -> list:
    cpu = sum(e.cpu_s for _, e in priced)
    wall = makespan([(e.wall_s, j.threads) for j, e in priced], cores)
    measured = sum(1 for _, e in priced if e.source == "measured")
    return [name, len(priced), round(cpu / 3600, 2), round(wall / 3600, 2),
            round(max((e.max_rss_mb for _, e in priced), default=0) / 1000, 2),
            round(sum(e.disk_mb for _, e in priced) / 1000, 2), f"{measured}/{len(priced)}"]


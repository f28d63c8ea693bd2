"""The compressed, disk-friendly breadth-first search: sort+merge dedup, compressed runs, 1-byte parents.

For each depth D the frontier F_D is expanded in chunks; each chunk's children are sorted on
their packed keys, deduplicated (keeping the smallest parent hash of a state's copies),
encoded and kept as a run. One streaming k-way merge of the runs with the visited set V_D then
writes V_{D+1}, the next frontier F_{D+1} and, aligned with it, the 1-byte hash of each new
state's parent. Nothing ever looks a state up at random. Stores stay in memory until the
`memory_budget` is reached and are then moved to files under the work directory.

``search(domain, ...)`` keywords:

- ``max_depth``: stop after this depth (None: until the frontier is empty).
- ``memory_budget``: bytes or a size such as ``"512M"``, ``"2G"`` (default 4G): data the engine keeps
  in memory (the interpreter and compiled kernels, ~150-200 MB, come on top).
- ``workdir``: folder for spill files (a private subfolder is made and removed; default: the
  system's temporary folder).
- ``codec``: ``auto`` (default: the domain's ``codec`` attribute, else ``rowfilter-zstd``),
  ``rowfilter-zstd``, ``zstd``, ``delta-zstd``, ``raw``, ``rowfilter``, ``gap-zstd`` or ``gap``.
- ``tags``: what each state's byte records: ``move`` (the move that produced it: paths are rebuilt
  by undoing moves, and no state is expanded back into its parent; reversible domains with
  ``expand_moves``), ``parent-hash`` (the article's 1-byte hash of its parent) or ``auto``
  (default: ``move`` when the domain offers it).
- ``frontier``: keep only the layers a new layer can meet (the last one, and for a graph that is
  not bipartite the one before) instead of the visited set; default: when ``domain.reversible``.
- ``order``: key byte order, ``"le"`` (default) or ``"be"`` (see :mod:`puzzlelab.bfs.keys`).
- ``stop_at_goal``: stop at the first depth holding a goal state (``domain.is_goal``, or ``goal``
  rows when given) and rebuild a verified shortest path into ``result.path``.
- ``goal``: ``uint8 (g, width)`` target states (used by ``bfs solve``); implies a goal test.
- ``keep_layers``: keep every depth's states and parent hashes (needed to rebuild paths; default
  True). With False each frontier is dropped once expanded.
- ``chunk_states``: parents expanded per chunk (default: from the budget, at most 2^22).
- ``progress``: a progress line per depth on stderr.
- ``threads``: threads that encode and decode blocks beside the merge (default: numba's thread
  count, i.e. ``NUMBA_NUM_THREADS``; 1 = none). Outputs do not depend on it.
- ``checkpoint``: a folder where the search saves itself between depths (every
  ``checkpoint_every_s`` seconds, default 600); a search given the folder of an interrupted run of
  the same search (``fingerprint``: what else must agree, e.g. the level file's hash) resumes from
  its last save and produces the same result. The folder's saves are removed when the search ends.

The result (:class:`SearchResult`) has ``layers``, ``states``, ``max_depth``, ``complete``,
``visited_bytes``, ``bits_per_state``, ``parent_bytes``, ``run_bytes``, ``spilled_bytes``,
``peak_rss_bytes``, ``time_s``, per-depth ``depths`` records, ``goal_depth``/``goal_row`` and
``path``; ``to_json()`` gives the CLI object. Close it (or use ``with``) to delete spill files.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import math
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from puzzlelab.lab.cli_support import DEFAULT_MEMORY_BUDGET
from puzzlelab.lab.errors import InputError, quote
from puzzlelab.lab.jit import WorkClock
from puzzlelab.lab.progress import Progress
from puzzlelab.lab.sizes import current_rss_bytes, format_size, parse_size, peak_rss_bytes

from .checkpoint import Checkpointer
from .checkpoint import fingerprint as checkpoint_key
from .codec import DEFAULT_CODEC, Codec, block_records
from .domain import NO_MOVE, uses_move_tags
from .expand import RowChunk, chunk_class
from .fused import COMPLETE, GOAL, HANDOVER, FusedRun
from .fused import room as fused_room
from .fused import usable as fused_usable
from .keys import ORDERS, nwords, rows_to_keys, sort_unique
from .merge import ArraySource, KeySource, KeyWriter, merge, merge_bytes
from .parents import SolutionPath, path_json, rebuild_path, rebuild_path_by_moves
from .storage import BudgetError, MemoryBudget, RecordStore

TAG_KINDS = ("auto", "move", "parent-hash")
MAX_CHUNK = 1 << 24
MIN_CHUNK = 1024
RUN_DIR_PREFIX = "puzzlelab-bfs-"


@dataclass
class SearchResult:
    domain: object
    codec: str
    order: str
    memory_budget: int
    chunk_states: int
    frontier: bool = False
    move_tags: bool = False
    layers: list[int] = field(default_factory=list)
    depths: list[dict] = field(default_factory=list)
    complete: bool = False
    visited_bytes: int = 0
    parent_bytes: int = 0
    run_bytes: int = 0
    runs: int = 0
    children: int = 0
    spilled_bytes: int = 0
    spill_files: int = 0
    accounted_peak_bytes: int = 0
    peak_rss_bytes: int = 0
    time_s: float = 0.0
    cpu_s: float = 0.0
    compile_s: float = 0.0  # numba compiling inside the search, left out of time_s and cpu_s
    goal_depth: int | None = None
    goal_row: np.ndarray | None = None
    goal_tag: int = 0
    path: SolutionPath | None = None
    path_time_s: float = 0.0
    resumed_from_depth: int | None = None  # the checkpoint's depth when this search resumed one
    layer_stores: list = field(default_factory=list, repr=False)
    run_dir: Path | None = None

    @property
    def states(self) -> int:
        return int(sum(self.layers))

    @property
    def max_depth(self) -> int:
        return len(self.layers) - 1

    @property
    def bits_per_state(self) -> float:
        return 8.0 * self.visited_bytes / self.states if self.states else 0.0

    def to_json(self) -> dict:
        d = self.domain
        out = {
            "domain": d.name,
            "layers": list(self.layers),
            "states": self.states,
            "max_depth": self.max_depth,
            "complete": self.complete,
            "codec": self.codec,
            "order": self.order,
            "dedup": "frontier" if self.frontier else "sortmerge",
            "tags": "move" if self.move_tags else "parent-hash",
            "width": int(d.width),
            "space_size": getattr(d, "space_size", None),
            "memory_budget_bytes": self.memory_budget,
            "chunk_states": self.chunk_states,
            "visited_bytes": self.visited_bytes,
            "bits_per_state": self.bits_per_state,
            "parent_bytes": self.parent_bytes,
            "run_bytes": self.run_bytes,
            "runs": self.runs,
            "children": self.children,
            "spilled_bytes": self.spilled_bytes,
            "spill_files": self.spill_files,
            "accounted_peak_bytes": self.accounted_peak_bytes,
            "depths": self.depths,
            "peak_rss_bytes": self.peak_rss_bytes,
            "time_s": self.time_s,
            "cpu_s": self.cpu_s,
        }
        if self.resumed_from_depth is not None:
            out["resumed_from_depth"] = self.resumed_from_depth
        if self.goal_depth is not None:
            out["goal_depth"] = self.goal_depth
            out["goal"] = d.format_state(self.goal_row)
        if self.path is not None:
            out["path"] = path_json(d, self.path)
            out["path_time_s"] = self.path_time_s
        return out

    def close(self) -> None:
        for s in self.layer_stores:
            s.close()
        self.layer_stores = []
        if self.run_dir is not None:
            shutil.rmtree(self.run_dir, ignore_errors=True)
            self.run_dir = None

    def __enter__(self) -> SearchResult:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --- work directory and memory ------------------------------------------------------------------
def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def make_run_dir(workdir: str | os.PathLike | None) -> Path:
    """A private spill folder inside workdir; leftovers of dead runs there are removed first."""
    base = Path(workdir) if workdir is not None else Path(tempfile.gettempdir())
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"cannot use --workdir: {err.strerror}", base) from None
    except ValueError:  # a NUL byte in the name
        raise InputError(f"cannot use --workdir {quote(str(workdir))}: not a valid folder name") from None
    if not base.is_dir() or not os.access(base, os.W_OK):
        raise InputError("cannot use --workdir: not a writable folder", base)
    for old in base.glob(RUN_DIR_PREFIX + "*"):
        m = re.match(re.escape(RUN_DIR_PREFIX) + r"(\d+)-", old.name)
        if m and old.is_dir() and not _pid_alive(int(m.group(1))):
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"{RUN_DIR_PREFIX}{os.getpid()}-", dir=base))


def limit_heap_growth() -> None:
    """Make glibc return big freed blocks to the system at once (keeps RSS close to what is in use)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 17)  # M_MMAP_THRESHOLD: blocks >= 128 KiB get their own mapping
        libc.mallopt(-1, 1 << 20)  # M_TRIM_THRESHOLD


def plan_chunk(domain, budget: int, chunk_states: int | None, per_parent: int) -> tuple[int, int]:
    """(parents per chunk, bytes reserved for one chunk's expansion): a third of the budget by default."""
    if chunk_states is None:
        chunk_states = max(MIN_CHUNK, min(MAX_CHUNK, (budget // 3) // per_parent))
    chunk_states = int(chunk_states)
    if chunk_states < 1:
        raise InputError(f"chunk size must be >= 1, got {chunk_states}")
    return chunk_states, chunk_states * per_parent


# --- the search ---------------------------------------------------------------------------------
class _GoalWatch:
    """Called on every block of the new frontier: remembers the first goal state (in sorted order)."""

    def __init__(self, domain, goal_rows: np.ndarray | None):
        self.domain = domain
        self.goal_keys = None if goal_rows is None else {bytes(r) for r in goal_rows}
        self.found = None  # (row, tag)

    def __call__(self, rows: np.ndarray, tags: np.ndarray, offset: int) -> None:
        if self.found is not None or rows.shape[0] == 0:
            return
        if self.goal_keys is not None:
            for i in range(rows.shape[0]):
                if bytes(rows[i]) in self.goal_keys:
                    self.found = (rows[i].copy(), int(tags[i]))
                    return
            return
        hits = np.flatnonzero(np.asarray(self.domain.is_goal(rows)))
        if hits.size:
            self.found = (rows[hits[0]].copy(), int(tags[hits[0]]))


@dataclass(frozen=True)
class _Plan:
    """The sizes and modes one search works with, fixed before it starts."""

    width: int  # bytes per state
    nwords: int  # uint64 words per sort key
    le: bool  # key byte order
    block: int  # records per encoded block
    chunk: int  # parents expanded per chunk
    chunk_bytes: int  # bytes reserved for one chunk's expansion
    writer_bytes: int  # bytes of one KeyWriter
    prefetch: bool  # merges account a decoded block ahead per input (whether or not a pool decodes it)
    chunk_kind: type = RowChunk  # how a chunk of parents is expanded (expand.py)
    tail_in_memory: bool = False  # a depth's last chunk goes to the merge without being encoded
    frontier: bool = False  # merge new states with the last layer(s) only (reversible domains)
    bipartite: bool = False  # frontier search: a child is never in its parent's layer
    move_tags: bool = False  # tags are the moves that produced the states (else their parents' hashes)

    @property
    def ahead(self) -> int:
        """Blocks a writer holds before appending them; the same with or without a codec pool, so spilling is too."""
        return 2 if self.prefetch else 0

    @property
    def old_layers(self) -> int:
        """Stores a new layer is compared with: the visited set, or the frontier layers."""
        return (1 if self.bipartite else 2) if self.frontier else 1

    @property
    def merge_writers(self) -> int:
        return 1 if self.frontier else 2

    def merge_need(self, inputs: int, writers: int, old: int = 1) -> int:
        """Bytes of a merge of `inputs` inputs (`old` of them already known) writing to `writers` stores."""
        return merge_bytes(inputs, self.block, self.nwords, self.width, old=old,
                           prefetch=self.prefetch) + writers * self.writer_bytes


def _plan(domain, budget: int, order: str, chunk_states: int | None, frontier: bool, move_tags: bool) -> _Plan:
    """The plan for this budget: with the codec threads' look-ahead when it fits, without it otherwise."""
    width = int(domain.width)
    k = nwords(width)
    block = block_records(width)
    kind = chunk_class(domain, move_tags, order == "le")
    per_parent = kind.bytes_per_parent(width, int(domain.max_children))
    chunk, chunk_bytes = plan_chunk(domain, budget, chunk_states, per_parent)
    modes = {"frontier": frontier, "bipartite": frontier and bool(getattr(domain, "bipartite", False)),
             "move_tags": move_tags, "chunk_kind": kind}
    plan = None
    # The buffers of codec threads are accounted whether or not threads run, so the memory account
    # (and with it what spills, and the artifact) does not depend on the thread count; only a budget
    # too small for them turns them off.
    for prefetch in (True, False):
        writer = KeyWriter.bytes_needed(block, k, width, 2 if prefetch else 0)
        plan = _Plan(width, k, order == "le", block, chunk, chunk_bytes, writer, prefetch, **modes)
        if budget >= plan_need(plan):
            # the last chunk waits for the merge in memory when the budget holds both
            tail = budget >= chunk_bytes + plan.merge_need(plan.old_layers + 2, plan.merge_writers,
                                                           old=plan.old_layers)
            return dataclasses.replace(plan, tail_in_memory=tail)
    need = plan_need(plan)
    raise BudgetError(f"memory budget {format_size(budget)} is too small for {domain.name} (width {width} "
                      f"bytes): a chunk of {chunk:,} states and the merge buffers need at least {format_size(need)}")


def plan_need(plan: _Plan) -> int:
    """The largest working set the plan must be able to reserve: one chunk, the smallest merge of a
    depth (one run with the known stores), or a cascade step (two runs)."""
    merge = plan.merge_need(plan.old_layers + 1, plan.merge_writers, old=plan.old_layers)
    cascade = plan.merge_need(2, 1, old=0)
    return max(plan.chunk_bytes + plan.writer_bytes + plan.block * plan.width, merge, cascade)


def search(domain, *, max_depth: int | None = None, memory_budget: int | str = DEFAULT_MEMORY_BUDGET,
           workdir: str | os.PathLike | None = None, codec: str = "auto", stop_at_goal: bool = False,
           progress: bool = True, order: str = "le", goal: np.ndarray | None = None, keep_layers: bool = True,
           chunk_states: int | None = None, zstd_level: int = 3, threads: int | None = None,
           frontier: bool | None = None, tags: str = "auto", checkpoint: str | os.PathLike | None = None,
           checkpoint_every_s: float = 600.0, fingerprint: str | None = None, fused: bool = False) -> SearchResult:
    """Layered BFS from domain.start with sort+merge dedup and compressed, spillable stores.

    With `fused`, a domain that offers a one-kernel search (`bfs.fused`) starts with it: a small
    search ends there, a larger one is handed to the engine with the same stores; the result is the
    same but for the per-depth byte figures of the depths searched fused (`depths[d]["fused"]`).

    The time numba spends compiling or loading kernels during the search is left out of `time_s`
    and `cpu_s` (`compile_s` says how much: about a minute on a cold kernel cache)."""
    if order not in ORDERS:
        raise InputError(f"unknown key byte order {quote(order)}: expected le or be")
    if max_depth is not None and max_depth < 0:
        raise InputError(f"--max-depth must be >= 0, got {max_depth}")
    try:
        budget_bytes = parse_size(memory_budget)
    except (OverflowError, ValueError):  # a number past float's range
        raise InputError(f"cannot read size {quote(memory_budget)}: the number is too large") from None
    reversible = bool(getattr(domain, "reversible", False))
    if frontier is None:
        frontier = reversible
    elif frontier and not reversible:
        raise InputError(f"{domain.name}: frontier search needs a domain whose moves can all be undone")
    if codec == "auto":
        codec = getattr(domain, "codec", None) or DEFAULT_CODEC
    codec_obj = Codec(codec, zstd_level, le=order == "le")
    codec_obj.check_width(int(domain.width))
    if goal is not None:
        stop_at_goal = True
        goal = np.ascontiguousarray(np.atleast_2d(goal), dtype=np.uint8)
    if stop_at_goal and goal is None and getattr(domain, "is_goal", None) is None:
        raise InputError(f"domain {domain.name} has no goal test")
    if tags not in TAG_KINDS:
        raise InputError(f"unknown tag kind {quote(tags)}: expected one of {', '.join(TAG_KINDS)}")
    if tags == "move" and not uses_move_tags(domain):
        raise InputError(f"{domain.name}: move tags need a reversible domain with expand_moves and inverse_moves")
    plan = _plan(domain, budget_bytes, order, chunk_states, frontier,
                 move_tags=tags == "move" or (tags == "auto" and uses_move_tags(domain)))
    ckpt = None
    if checkpoint is not None:
        key = checkpoint_key(domain, plan, codec, zstd_level, order, budget_bytes, keep_layers, fingerprint)
        say = (lambda text: print(f"bfs {domain.name}: {text}", file=sys.stderr, flush=True)) if progress else None
        ckpt = Checkpointer(checkpoint, key, checkpoint_every_s, say)
    if threads is None:
        import numba

        threads = numba.get_num_threads()
    if not plan.prefetch:
        threads = 1
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bfs-codec") if threads > 1 else None
    limit_heap_growth()
    run_dir = make_run_dir(workdir)
    mem = MemoryBudget(budget_bytes, run_dir)
    result = SearchResult(domain=domain, codec=codec, order=order, memory_budget=budget_bytes,
                          chunk_states=plan.chunk, frontier=plan.frontier, move_tags=plan.move_tags, run_dir=run_dir)
    # the goal is watched even when not stopping at it: layer counts then also report its depth
    watch = _GoalWatch(domain, goal) if (stop_at_goal or getattr(domain, "is_goal", None) is not None) else None
    saved = ckpt.latest() if ckpt is not None else None  # a checkpoint to resume from (read once)
    fused = fused and fused_usable(domain, plan, goal, keep_layers) and saved is None
    if getattr(domain, "load_kernels", None) is not None:
        domain.load_kernels(fused)  # a kernel's first call (cache load, argument types) is not the search's
    clock = WorkClock().__enter__()  # numba compiling or loading kernels is no part of the times
    try:
        layered = _Layered(domain, result, mem, codec_obj, plan, pool, watch, ckpt, clock)
        run = None
        if fused:
            run = domain.search_fused(fused_room(plan, budget_bytes), max_depth, stop_at_goal)
        if run is not None and run.status != HANDOVER:
            layered.finish_fused(run)
        else:
            layered.run(max_depth, stop_at_goal, keep_layers, progress, saved=saved, handover=run)
        if result.goal_row is not None and keep_layers and stop_at_goal:
            t1 = time.perf_counter()
            if run is not None and run.status == GOAL:
                result.path = run.path(domain)
            elif plan.move_tags:
                result.path = rebuild_path_by_moves(domain, result.layer_stores, result.goal_depth, result.goal_row,
                                                    result.goal_tag, plan.le)
            else:
                result.path = rebuild_path(domain, result.layer_stores, result.goal_depth, result.goal_row,
                                           result.goal_tag)
            result.path_time_s = time.perf_counter() - t1
    except BaseException:
        result.close()
        raise
    finally:
        clock.__exit__(None, None, None)
        if pool is not None:
            pool.shutdown()
    result.compile_s = clock.compiling.seconds
    result.time_s, result.cpu_s = clock.since()
    result.time_s += layered.prior_time_s  # the interrupted run's share, when this one resumed it
    result.cpu_s += layered.prior_cpu_s
    if ckpt is not None:
        ckpt.remove()
    result.spilled_bytes = mem.spilled_bytes
    result.spill_files = mem.spill_files
    result.accounted_peak_bytes = mem.peak
    result.peak_rss_bytes = peak_rss_bytes()
    return result


class _Layered:
    """One search, depth by depth: expand the frontier into sorted runs, merge them with what is known.

    What is known is the visited set (`visited`), or with a frontier search the last layer(s):
    `prev` (depth D-1) and `layer` (depth D)."""

    def __init__(self, domain, result: SearchResult, mem: MemoryBudget, codec: Codec, plan: _Plan, pool, watch,
                 ckpt: Checkpointer | None, clock: WorkClock):
        self.ckpt = ckpt
        self.clock = clock
        self.prior_time_s = self.prior_cpu_s = 0.0  # time spent by the run a checkpoint came from
        self.domain = domain
        self.result = result
        self.mem = mem
        self.codec = codec
        self.plan = plan
        self.pool = pool
        self.watch = watch
        self.found_bytes = 0  # frontier search: record bytes of every layer so far (the "visited" size)
        self.cpu_mark = time.process_time()  # CPU time at the start of the depth being searched

    def store(self, name: str, tagged: bool) -> RecordStore:
        return RecordStore(self.mem, name, self.plan.width, self.codec, tagged=tagged,
                           pack_tags=tagged and self.plan.move_tags)

    def writer(self, store: RecordStore, on_block=None, pool=None) -> KeyWriter:
        p = self.plan
        return KeyWriter(store, p.le, p.block, p.nwords, on_block=on_block, pool=pool, ahead=p.ahead)

    def source(self, store: RecordStore, consume: bool = True) -> KeySource:
        return KeySource(store, self.plan.le, consume=consume, pool=self.pool)

    def run(self, max_depth: int | None, stop_at_goal: bool, keep_layers: bool, progress: bool,
            saved=None, handover: FusedRun | None = None) -> None:
        """Search depth after depth from `saved` (the checkpoint's `latest()`), the fused search's
        `handover`, or the start."""
        result, mem, plan, watch = self.result, self.mem, self.plan, self.watch
        if saved is not None:
            visited, prev, layer, depth = self.resume(*saved)
        elif handover is not None:
            visited, layer, depth = self.take_over(handover)
            prev = None
        else:
            visited, layer = self.depth_zero()
            prev, depth = None, 0
        bar = Progress(None if max_depth is None else max_depth + 1, f"bfs {self.domain.name}", unit="depth",
                       interval_s=math.inf, enabled=progress)
        if saved is None and handover is None:
            self.record_depth(bar, depth, layer, visited, time.perf_counter())
            if keep_layers:
                result.layer_stores.append(layer)
        else:
            bar.count = depth + 1
            how = "the checkpoint" if saved is not None else "the in-memory search"
            bar.line(f"resumed from {how} at depth {depth} ({sum(result.layers):,} states)")
        try:
            while True:
                if watch is not None and watch.found is not None and result.goal_depth is None:
                    result.goal_depth = depth
                    result.goal_row, result.goal_tag = watch.found
                    if stop_at_goal:
                        break
                if layer.count == 0:
                    result.complete = True
                    result.layers.pop()  # the empty depth is not a layer
                    result.depths.pop()
                    if keep_layers:
                        result.layer_stores.pop().close()
                    break
                if max_depth is not None and depth >= max_depth:
                    break
                t_depth = time.perf_counter()
                # a frontier layer is read again as an old input of the next merge(s)
                runs, tail, children = self.expand_layer(layer, depth,
                                                         consume=not keep_layers and not plan.frontier)
                t_merge = time.perf_counter()
                run_bytes = sum(r.stored_bytes for r in runs)
                result.runs += len(runs) + (tail is not None)
                result.children += children
                result.run_bytes += run_bytes
                depth += 1
                try:
                    if plan.frontier:
                        old = [s for s in ([prev] if plan.bipartite else [prev, layer]) if s is not None]
                        runs = self.cascade(runs, depth - 1, len(old), 1, tail is not None)
                        new_layer = self.merge_frontier(old, runs, tail, depth)
                        if prev is not None and not keep_layers:
                            prev.close()
                        prev, layer = layer, new_layer
                        self.found_bytes += layer.rows_bytes
                    else:
                        if not keep_layers:
                            layer.close()
                        runs = self.cascade(runs, depth - 1, 1, 2, tail is not None)
                        visited, layer = self.merge_visited(visited, runs, tail, depth)
                finally:
                    if tail is not None:  # the last chunk's buffers, held since the expansion
                        mem.release(plan.chunk_bytes)
                result.layers.append(layer.count)
                if keep_layers:
                    result.layer_stores.append(layer)
                self.record_depth(bar, depth, layer, visited, t_depth, children=children, runs=len(runs),
                                  run_bytes=run_bytes, expand_s=t_merge - t_depth,
                                  merge_s=time.perf_counter() - t_merge)
                if (self.ckpt is not None and self.ckpt.due() and layer.count
                        and (watch is None or watch.found is None or not stop_at_goal)):
                    self.save(depth, visited, prev, layer)
        finally:
            bar.close()
        result.visited_bytes = self.found_bytes if plan.frontier else visited.stored_bytes
        result.parent_bytes = sum(d["parent_bytes"] for d in result.depths)
        if visited is not None:
            visited.close()
        if not keep_layers:
            layer.close()
            if prev is not None:
                prev.close()

    def depth_zero(self) -> tuple[RecordStore | None, RecordStore]:
        """The stores of depth 0: (visited set or None for a frontier search, layer 0)."""
        result, mem, plan, watch = self.result, self.mem, self.plan, self.watch
        start = np.ascontiguousarray(self.domain.start, dtype=np.uint8)
        start_tag = NO_MOVE if plan.move_tags else 0
        skeys, stags = sort_unique(rows_to_keys(start, plan.le), np.full(start.shape[0], start_tag, dtype=np.uint8),
                                   plan.width)
        visited = None if plan.frontier else self.store("visited-0", tagged=False)
        layer = self.store("layer-0", tagged=True)
        writers = 1 if plan.frontier else 2
        mem.reserve(writers * plan.writer_bytes, "the depth-0 writers")
        vw = self.writer(visited) if visited is not None else None
        lw = self.writer(layer, on_block=watch)
        for w in (vw, lw):
            if w is not None:
                w.append(skeys, stags if w is lw else None)
        for w in (vw, lw):
            if w is not None:
                w.flush()
        mem.release(writers * plan.writer_bytes)
        result.layers.append(layer.count)
        self.found_bytes = layer.rows_bytes
        return visited, layer

    def fused_depths(self, run: FusedRun, parent_bytes: list[int]) -> None:
        """The depth records of a fused search's layers (counts; byte figures but the parents' left out)."""
        seen = 0
        for d, n in enumerate(run.layers):
            seen += n
            self.result.depths.append({"depth": d, "new": n, "visited": seen, "parent_bytes": parent_bytes[d],
                                       "fused": True})
        self.result.layers = run.layers
        self.result.children = run.children

    def finish_fused(self, run: FusedRun) -> None:
        """The result of a search the fused kernel finished: its visited bytes are those of the engine's
        visited store (the same sorted states in the same blocks)."""
        r, plan = self.result, self.plan
        self.fused_depths(run, [0] + run.layers[1:])  # parent-hash tags are stored raw, a byte each
        r.complete = run.status == COMPLETE
        found = run.goal(plan.width)
        if found is not None:
            r.goal_depth = run.goal_depth
            r.goal_row, r.goal_tag = found
        r.visited_bytes = sum(len(self.codec.encode_keys(run.visited[i:i + plan.block].reshape(-1, 1), True,
                                                         plan.width))
                              for i in range(0, run.visited.shape[0], plan.block))
        r.parent_bytes = sum(d["parent_bytes"] for d in r.depths)

    def take_over(self, run: FusedRun):
        """The engine's stores after a fused search handed over (layers, visited set, made in the
        order the engine makes them): (visited, layer, depth)."""
        r, plan, depth = self.result, self.plan, run.depth
        self.mem.reserve(plan.writer_bytes, "writing the in-memory search's layers")

        def write(name: str, keys: np.ndarray, tags: np.ndarray | None) -> RecordStore:
            store = self.store(name, tagged=tags is not None)
            w = self.writer(store, pool=self.pool)
            w.append(keys, tags)
            w.flush()
            return store

        stores = [write(f"layer-{d}", *run.layer(d)) for d in range(depth)]
        visited = write(f"visited-{depth}", run.visited.reshape(-1, 1), None)
        stores.append(write(f"layer-{depth}", *run.layer(depth)))
        self.mem.release(plan.writer_bytes)
        self.fused_depths(run, [s.tag_bytes if d else 0 for d, s in enumerate(stores)])
        r.layer_stores = stores
        found = run.goal(plan.width)
        if found is not None and self.watch is not None:
            self.watch.found = found
            r.goal_depth = run.goal_depth
            r.goal_row, r.goal_tag = found
        return visited, stores[-1], depth

    def save(self, depth: int, visited, prev, layer) -> None:
        """Checkpoint the search after `depth` (between depths nothing is reserved and no run is open)."""
        r, name = self.result, (lambda s: None if s is None else s.name)
        found = None if self.watch is None or self.watch.found is None else \
            [self.watch.found[0].tobytes().hex(), self.watch.found[1]]
        time_s, cpu_s = self.clock.since()
        self.ckpt.save(self.mem, {
            "depth": depth, "layers": r.layers, "depths": r.depths, "runs": r.runs, "children": r.children,
            "run_bytes": r.run_bytes, "found_bytes": self.found_bytes, "goal_depth": r.goal_depth,
            "goal_row": None if r.goal_row is None else r.goal_row.tobytes().hex(), "goal_tag": r.goal_tag,
            "watch": found, "visited": name(visited), "prev": name(prev), "layer": name(layer),
            "layer_stores": [s.name for s in r.layer_stores],
            "time_s": time_s + self.prior_time_s, "cpu_s": cpu_s + self.prior_cpu_s})

    def resume(self, folder, index: dict):
        """Rebuild the search saved in checkpoint `folder`: (visited, prev, layer, depth)."""
        r = self.result
        stores = self.ckpt.load_stores(folder, index, self.mem, self.plan.width, self.codec)
        get = (lambda n: None if n is None else stores[n])
        r.layers, r.depths = list(index["layers"]), list(index["depths"])
        r.runs, r.children, r.run_bytes = index["runs"], index["children"], index["run_bytes"]
        r.goal_depth, r.goal_tag = index["goal_depth"], index["goal_tag"]
        if index["goal_row"] is not None:
            r.goal_row = np.frombuffer(bytes.fromhex(index["goal_row"]), dtype=np.uint8).copy()
        if index["watch"] is not None and self.watch is not None:
            self.watch.found = (np.frombuffer(bytes.fromhex(index["watch"][0]), dtype=np.uint8).copy(),
                                int(index["watch"][1]))
        r.layer_stores = [stores[n] for n in index["layer_stores"]]
        r.resumed_from_depth = int(index["depth"])
        self.found_bytes = index["found_bytes"]
        self.prior_time_s, self.prior_cpu_s = float(index["time_s"]), float(index["cpu_s"])
        return get(index["visited"]), get(index["prev"]), get(index["layer"]), int(index["depth"])

    def new_sources(self, runs: list[RecordStore], tail) -> list:
        """Merge inputs of the new states: the stored runs, and the last chunk still in memory."""
        sources = [self.source(r) for r in runs]
        if tail is not None:
            sources.append(ArraySource(tail[0], tail[1], self.plan.block))
        return sources

    def merge_visited(self, visited: RecordStore, runs: list[RecordStore], tail, depth: int):
        """One streaming merge of the runs with the visited set: (new visited set, new layer)."""
        new_visited = self.store(f"visited-{depth}", tagged=False)
        new_layer = self.store(f"layer-{depth}", tagged=True)
        sources = [self.source(visited)] + self.new_sources(runs, tail)
        need = self.plan.merge_need(len(sources), 2)
        self.mem.reserve(need, f"merging {len(sources)} sorted runs")
        merge(sources, [True] + [False] * (len(sources) - 1), self.plan.block, self.plan.nwords,
              self.writer(new_visited, pool=self.pool), self.writer(new_layer, on_block=self.watch, pool=self.pool))
        self.mem.release(need)
        visited.close()
        for r in runs:
            r.close()
        return new_visited, new_layer

    def merge_frontier(self, old: list[RecordStore], runs: list[RecordStore], tail, depth: int) -> RecordStore:
        """One streaming merge of the runs with the last layer(s): the new layer (states in none of them)."""
        new_layer = self.store(f"layer-{depth}", tagged=True)
        sources = [self.source(s, consume=False) for s in old] + self.new_sources(runs, tail)
        need = self.plan.merge_need(len(sources), 1, old=len(old))
        self.mem.reserve(need, f"merging {len(sources)} sorted runs")
        merge(sources, [True] * len(old) + [False] * (len(sources) - len(old)), self.plan.block, self.plan.nwords,
              None,
              self.writer(new_layer, on_block=self.watch, pool=self.pool))
        self.mem.release(need)
        for r in runs:
            r.close()
        return new_layer

    def record_depth(self, bar, depth: int, layer: RecordStore, visited: RecordStore | None, t_depth: float,
                     children: int = 0, runs: int = 0, run_bytes: int = 0, expand_s: float = 0.0,
                     merge_s: float = 0.0) -> None:
        mem = self.mem
        seen = visited.count if visited is not None else sum(self.result.layers)
        seen_bytes = visited.stored_bytes if visited is not None else self.found_bytes
        rec = {
            "depth": depth,
            "new": layer.count,
            "visited": seen,
            "children": children,
            "runs": runs,
            "run_bytes": run_bytes,
            "layer_bytes": layer.rows_bytes,
            "parent_bytes": layer.tag_bytes if depth > 0 else 0,
            "visited_bytes": seen_bytes,
            "spilled_bytes": mem.spilled_bytes,
            "time_s": time.perf_counter() - t_depth,
            "cpu_s": time.process_time() - self.cpu_mark,
            "expand_time_s": expand_s,
            "merge_time_s": merge_s,
            "peak_rss_bytes": peak_rss_bytes(),
        }
        self.result.depths.append(rec)
        bits = 8 * seen_bytes / max(1, seen)
        note = (f"depth {depth}: {layer.count:,} new, {seen:,} visited ({bits:.2f} bits/state), "
                f"spilled {format_size(mem.spilled_bytes)}, rss {format_size(current_rss_bytes())}")
        self.cpu_mark = time.process_time()
        bar.update(1, note=note)  # writes the line itself at the last depth
        if bar.total is None or bar.count < bar.total:
            bar.line(note)

    def expand_layer(self, layer: RecordStore, depth: int, consume: bool):
        """Expand every state of `layer` chunk by chunk: (sorted deduplicated runs, the last chunk's
        (keys, tags) when it stays in memory for the merge, children generated).

        A last chunk kept in memory keeps the chunk's reservation; the caller releases it."""
        plan, mem = self.plan, self.mem
        runs: list[RecordStore] = []
        children_total = 0
        extra = plan.writer_bytes + plan.block * plan.width
        mem.reserve(plan.chunk_bytes + extra, f"one chunk of {plan.chunk:,} states")
        held = False
        try:
            chunk = plan.chunk_kind(self.domain, plan, min(plan.chunk, max(1, layer.count)))

            def flush(last: bool):
                nonlocal children_total
                keys, tags, m = chunk.children()
                children_total += m
                if m == 0:
                    return None
                if last and plan.tail_in_memory:
                    return keys, tags
                run = self.store(f"run-{depth}-{len(runs)}", tagged=True)
                w = self.writer(run, pool=self.pool)
                w.append(keys, tags)
                w.flush()
                runs.append(run)
                return None

            tail = None
            nblocks = len(layer.blocks)
            for i in range(nblocks):
                items, tags = chunk.read(layer, i)
                if consume:
                    layer.drop(i)
                off = 0
                while off < items.shape[0]:
                    take = min(items.shape[0] - off, chunk.capacity - chunk.filled)
                    chunk.add(items, tags, off, take)
                    off += take
                    if chunk.filled == chunk.capacity:
                        tail = flush(i == nblocks - 1 and off == items.shape[0])
            if chunk.filled:
                tail = flush(True)
            held = tail is not None
        finally:
            mem.release(extra if held else plan.chunk_bytes + extra)
        return runs, tail, children_total

    def cascade(self, runs: list[RecordStore], depth: int, old: int, writers: int, tail: bool) -> list[RecordStore]:
        """Merge runs in groups until one merge with the `old` known stores (and the in-memory last
        chunk, `tail`) fits in what the budget has left."""
        plan, mem = self.plan, self.mem
        room = mem.capacity - (plan.chunk_bytes if tail else 0)
        fan_in = 1  # the largest number of runs that merge with the known stores inside the budget
        while fan_in < len(runs) and plan.merge_need(fan_in + 1 + old + tail, writers, old=old) <= room:
            fan_in += 1
        size = max(2, fan_in)  # runs merged together per group in a cascade level
        level = 0
        while len(runs) > fan_in:
            level += 1
            grouped = []
            for g in range(0, len(runs), size):
                group = runs[g:g + size]
                if len(group) == 1:
                    grouped.append(group[0])
                    continue
                out = self.store(f"run-{depth}-l{level}-{len(grouped)}", tagged=True)
                need = plan.merge_need(len(group), 1, old=0)
                mem.reserve(need, f"merging {len(group)} runs")
                merge([self.source(r) for r in group], [False] * len(group), plan.block, plan.nwords, None,
                      self.writer(out, pool=self.pool))
                mem.release(need)
                for r in group:
                    r.close()
                grouped.append(out)
            runs = grouped
        return runs

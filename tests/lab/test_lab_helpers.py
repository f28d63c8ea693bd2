"""The shared pipeline helpers: atomic writes, canonical JSON, volatile split, tables, plots."""

from __future__ import annotations

import json

import numpy as np
import pytest

from puzzlelab.lab import canonical, plots
from puzzlelab.lab.atomic import atomic_open, atomic_write
from puzzlelab.lab.errors import InputError
from puzzlelab.lab.hashing import sha256_file
from puzzlelab.lab.results import split_volatile
from puzzlelab.lab.sizes import child_peak_rss_bytes, parse_size, peak_rss_bytes
from puzzlelab.lab.snakemake_support import evenly_spaced, resource_for
from puzzlelab.snakebird.pipeline import level_resource


def test_atomic_write_replaces_and_leaves_no_temp(tmp_path):
    target = tmp_path / "a" / "b.txt"
    atomic_write(target, "one")
    atomic_write(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["b.txt"]


def test_atomic_open_keeps_old_file_when_interrupted(tmp_path):
    target = tmp_path / "x.txt"
    atomic_write(target, "old")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as fh:
            fh.write("half")
            raise RuntimeError("killed")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.txt"]


def test_canonical_json_is_sorted_and_fixed():
    import numpy as np

    a = canonical.dumps({"b": 1.0 / 3.0, "a": [np.int64(3), (1, 2)], "c": float("nan")})
    b = canonical.dumps({"c": float("nan"), "a": [3, [1, 2]], "b": 0.33333333333333331})
    assert a == b
    assert a == '{"a":[3,[1,2]],"b":0.3333333333,"c":null}\n'


def test_split_volatile_moves_timings_out():
    stable, volatile = split_volatile(
        {"score": 3, "time_s": 1.5, "rounds": [{"joins": 2, "time_s": 0.1}, {"joins": 4}], "peak_rss_bytes": 9}
    )
    assert stable == {"score": 3, "rounds": [{"joins": 2}, {"joins": 4}]}
    assert volatile == {"time_s": 1.5, "peak_rss_bytes": 9, "rounds": [{"time_s": 0.1}, {}]}


def test_split_volatile_drops_nested_lists_without_timings():
    """A board of nested lists (rows of cells) with no timing in it does not reach the timing file."""
    stable, volatile = split_volatile({"cpu_time_s": 2.0, "board": {"cells": [[{"p": 1}, {"p": 2}], [{"p": 3}]]}})
    assert stable == {"board": {"cells": [[{"p": 1}, {"p": 2}], [{"p": 3}]]}}
    assert volatile == {"cpu_time_s": 2.0}


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_peak_rss_is_the_programs_own_not_its_parents():
    """A child started by a big parent reports its own peak; a running child's peak is readable."""
    import subprocess
    import sys

    import numpy as np

    ballast = np.ones(400 << 20, np.uint8)  # 400 MiB resident in this process
    assert peak_rss_bytes() > 400 << 20
    code = "from puzzlelab.lab.sizes import peak_rss_bytes; print(peak_rss_bytes())"
    own = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert 0 < own < 200 << 20
    grow = "import numpy, sys; a = numpy.ones(300 << 20, numpy.uint8); print(1, flush=True); sys.stdin.read()"
    child = subprocess.Popen([sys.executable, "-c", grow], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "1"
        assert 300 << 20 < child_peak_rss_bytes(child.pid) < 650 << 20
    finally:
        child.communicate("")
    assert child_peak_rss_bytes(child.pid) == 0  # gone: unknown
    del ballast


def test_parse_size():
    assert parse_size("512M") == 512 << 20
    assert parse_size("2G") == 2 << 30
    assert parse_size("1.5K") == 1536
    assert parse_size("100") == 100
    with pytest.raises(InputError, match="cannot read size"):
        parse_size("lots")


def test_evenly_spaced_and_resources():
    assert evenly_spaced(list(range(10)), 3) == [0, 4, 9]  # round(4.5) == 4 (banker's rounding)
    assert evenly_spaced([1, 2], 5) == [1, 2]
    assert evenly_spaced([1, 2], 0) == []
    cfg = {"resources": {"default": {"threads": 1, "mem_mb": 100}, "x": {"threads": 4}}}
    assert resource_for(cfg, "x", "threads") == 4
    assert resource_for(cfg, "x", "mem_mb") == 100
    assert resource_for(cfg, "y", "threads") == 1
    cfg["resources"]["snakebird_solve"] = {"threads": 1, "mem_mb": 6000}
    cfg["snakebird_levels"] = {"level_resources": {"levelstar6": {"threads": 4}}}
    assert level_resource(cfg, "levelstar6", "threads") == 4
    assert level_resource(cfg, "levelstar6", "mem_mb") == 6000
    assert level_resource(cfg, "level00", "threads") == 1


def test_plots_are_byte_stable(tmp_path):
    def draw(path):
        fig, ax = plots.figure()
        ax.plot([1, 2, 3], [3, 1, 2], label="x")
        ax.set_yscale("log")
        ax.legend()
        plots.save(fig, path)
        return sha256_file(path)

    for suffix in ("svg", "png"):
        assert draw(tmp_path / f"a.{suffix}") == draw(tmp_path / f"b.{suffix}")
    assert b"<dc:date>" not in (tmp_path / "a.svg").read_bytes()


def _loglog_svg(path):
    fig, ax = plots.figure()
    xs = [1.37**k for k in range(60)]
    ax.plot(xs, [x**0.5 + 0.1 for x in xs], marker="o")
    ax.set_xscale("log")
    ax.set_yscale("log", base=2)
    plots.save(fig, path)
    return path.read_bytes()


def test_log_axes_do_not_depend_on_numpy_log(tmp_path, monkeypatch):
    """The SVG of a log-log figure is the same when numpy's log and power are off in the 9th digit (CPUs differ
    in the last ulp; one ulp moved a coordinate's sixth decimal between two machines)."""
    exact = _loglog_svg(tmp_path / "exact.svg")
    for name in ("log10", "log2", "log", "power"):
        fn = getattr(np, name)
        monkeypatch.setattr(np, name, lambda *a, _fn=fn, **k: _fn(*a, **k) * (1 + 1e-9))
    assert _loglog_svg(tmp_path / "perturbed.svg") == exact


def test_exact_log_is_exact_at_powers():
    assert plots.exact_log(1000.0, 10) == 3.0
    assert plots.exact_log(np.nextafter(1000.0, 2000.0), 10) == 3.0
    assert plots.exact_log(2.0**-20, 2) == -20.0
    assert plots.exact_power(-3.0, 10) == 0.001
    assert plots.exact_power(plots.exact_log(12345.678, 10), 10) == pytest.approx(12345.678, rel=1e-14)


def test_input_error_location():
    assert str(InputError("bad", "f.txt", 3)) == "f.txt:3: bad"
    assert str(InputError("bad", "f.txt")) == "f.txt: bad"


def test_lab_cli_rejects_bad_json(run_cli, tmp_path):
    code, _, err = run_cli("lab", "rows-table", "--columns", "a", "--rows", "[[1", "--csv", tmp_path / "a.csv",
                           "--html", tmp_path / "a.html")
    assert code == 2
    assert "not JSON" in err
    assert "Traceback" not in err


def test_config_table_flattens(run_cli, tmp_path):
    code, _, _ = run_cli("lab", "config-table", "--config", json.dumps({"label": "t", "a": {"b": [1]}}),
                         "--csv", tmp_path / "c.csv", "--html", tmp_path / "c.html")
    assert code == 0
    assert (tmp_path / "c.csv").read_text() == 'key,value\na.b,[1]\nlabel,"""t"""\n'


def _fresh_kernel_module(tmp_path, monkeypatch, module: str, name: str, factor: int):
    """A new source file with one cached kernel `name(x) = factor * x`, imported: in no cache yet."""
    import importlib
    import sys

    (tmp_path / f"{module}.py").write_text(
        f"from numba import njit\n\n@njit(cache=True)\ndef {name}(x):\n    return {factor} * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(module, None)
    return importlib.import_module(module)


def test_compile_time_is_measured_and_the_kernel_cache_is_seen(tmp_path, monkeypatch):
    # A fresh kernel compiles inside the timer; a module whose only standalone kernel is not in the
    # cache is cold, and once that kernel ran (cache=True) it is warm. (tmp_path: a new source file,
    # so its kernel is in no cache yet.)
    import importlib
    import sys

    from puzzlelab.lab import jit

    mod = _fresh_kernel_module(tmp_path, monkeypatch, "fresh_kernels", "twice", 2)
    assert not jit.kernels_cached(mod)
    with jit.CompileTimer() as timer:
        assert mod.twice(21) == 42
    assert timer.seconds > 0 and 0 < timer.cpu_seconds < timer.seconds + 0.05
    assert jit.kernels_cached(mod)
    sys.modules.pop("fresh_kernels")  # a new process's view: the kernel is loaded from the cache
    again = importlib.import_module("fresh_kernels")
    with jit.CompileTimer() as loading:
        assert again.twice(4) == 8
    assert loading.seconds > 0
    monkeypatch.setenv(jit.WARMING, "1")
    jit.warm_in_child([mod], ["--version"])  # the child's own runs never start another child


def test_work_clock_leaves_compiling_out(tmp_path, monkeypatch):
    # Compiling a fresh kernel inside the block is not work; a mark taken after it counts only
    # what follows (here a 50 ms sleep, wall time, no CPU).
    import time

    from puzzlelab.lab import jit

    mod = _fresh_kernel_module(tmp_path, monkeypatch, "clocked_kernels", "thrice", 3)
    t0 = time.perf_counter()
    with jit.WorkClock() as clock:
        assert mod.thrice(14) == 42
        compiled = clock.compiling.seconds
        mark = clock.mark()
        time.sleep(0.05)
        wall, cpu = clock.since()
        after_mark, _ = clock.since(mark)
    raw = time.perf_counter() - t0
    assert compiled > 0
    assert 0.05 <= wall <= raw - compiled + 1e-6
    assert 0.05 <= after_mark <= wall + 1e-6
    assert 0 <= cpu < 0.05 + 0.02


@pytest.fixture
def warming_jit(monkeypatch, tmp_path):
    """`puzzlelab.lab.jit` with numba's cache folder in tmp_path, in a process that is no warm-up child."""
    from numba.core import config

    from puzzlelab.lab import jit

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(jit.WARMING, raising=False)
    return jit


def test_jobs_started_together_fill_the_kernel_cache_once(warming_jit, monkeypatch, tmp_path):
    # Two jobs find the cache cold at the same moment: one runs the warm-up child, the other waits
    # for it and then finds the cache filled (without the lock both would see it cold, or one would
    # see it half-filled and compile in-process).
    import threading
    import time

    jit = warming_jit
    filled = []
    children = []

    def fake_run(cmd, **kw):
        children.append(cmd)
        time.sleep(0.2)
        filled.append(True)

    monkeypatch.setattr(jit, "kernels_cached", lambda module: bool(filled))
    monkeypatch.setattr(jit.subprocess, "run", fake_run)
    jobs = [threading.Thread(target=jit.warm_in_child, args=([jit], ["--version"])) for _ in range(2)]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join()
    assert len(children) == 1
    assert (tmp_path / ".puzzlelab-warming.lock").exists()


def test_a_job_that_starts_during_a_warm_up_waits_for_all_of_it(warming_jit, monkeypatch):
    # The warm-up child saves kernels one by one, so the cache looks warm before it is full: a job
    # that starts meanwhile must wait for the child (it compiled the rest in-process and peaked at
    # 1.3 GB on a 60 k-state Snakebird level when it did not).
    import threading
    import time

    jit = warming_jit
    saved = []
    events = []

    def fake_run(cmd, **kw):
        saved.append("first kernel")  # from here on the cache looks warm
        time.sleep(0.3)
        events.append("warm-up done")

    monkeypatch.setattr(jit, "kernels_cached", lambda module: bool(saved))
    monkeypatch.setattr(jit.subprocess, "run", fake_run)

    def job():
        jit.warm_in_child([jit], ["--version"])
        events.append("job goes on")

    first = threading.Thread(target=job)
    first.start()
    while not saved:
        time.sleep(0.01)
    second = threading.Thread(target=job)
    second.start()
    first.join()
    second.join()
    assert events == ["warm-up done", "job goes on", "job goes on"]

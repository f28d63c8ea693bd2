"""lab.cputime: a peer's CPU limit, watched by the parent, and the child's own clock left exact."""

from __future__ import annotations

import sys

from puzzlelab.lab.cputime import process_cpu_seconds, run_cpu_limited

PY = sys.executable


def test_a_child_within_its_limit_runs_to_its_end():
    done = run_cpu_limited([PY, "-c", "print('ok'); import sys; sys.exit(3)"], 5.0, 20.0)
    assert done.stopped is None and done.returncode == 3 and done.stdout.strip() == "ok"
    assert 0 < done.cpu_s < 5 and done.wall_s >= done.cpu_s * 0.5


def test_a_spinning_child_is_stopped_by_its_cpu_limit():
    done = run_cpu_limited([PY, "-c", "while True: pass"], 0.5, 30.0)
    assert done.stopped == "cpu" and done.returncode != 0
    assert 0.5 <= done.cpu_s < 5


def test_a_sleeping_child_is_stopped_by_the_wall_clock():
    done = run_cpu_limited([PY, "-c", "import time; time.sleep(60)"], 30.0, 0.5)
    assert done.stopped == "wall" and done.cpu_s < 5 and done.wall_s < 20


def test_the_childs_own_cpu_clock_is_not_sampled_at_the_tick():
    # A CPU limit set on the child (RLIMIT_CPU) makes its process clock advance in whole timer ticks,
    # so a short piece of work read 0 s: pbnsolve's own times of small puzzles were 0.
    work = ("import time\nt = time.process_time()\nx = sum(range(20000))\n"
            "print(time.process_time() - t)\n")
    reads = [float(run_cpu_limited([PY, "-c", work], 10.0, 60.0).stdout) for _ in range(5)]
    assert all(r > 0 for r in reads)


def test_cpu_of_a_process_that_is_gone_is_zero():
    assert process_cpu_seconds(2 ** 22 + 12345) == 0.0

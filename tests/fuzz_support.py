"""Fuzzing a parser through the real CLI: mutate real input files, run `puzzlelab ...`, judge the outcome.

Each case runs in a forked child of the test process (kernels compiled once, in the parent, by a
warm-up run), so a segfault, a hang or an uncaught exception is seen as what it is instead of
taking the test process down. The outcome must be exit 0, or exit 2 with one located line
(`PATH[:LINE]: reason`) under 1 KB on stderr.

Profiles: `make test` runs a fixed-seed profile (`PUZZLELAB_FUZZ_EXAMPLES`, default 200 cases per
family); `make test-all` sets `PUZZLELAB_FUZZ=slow` for 10,000 cases per family.
"""

from __future__ import annotations

import os
import re
import select
import signal
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

SLOW = os.environ.get("PUZZLELAB_FUZZ") == "slow"
EXAMPLES = 10_000 if SLOW else int(os.environ.get("PUZZLELAB_FUZZ_EXAMPLES", "200"))
CASE_SECONDS = float(os.environ.get("PUZZLELAB_FUZZ_CASE_SECONDS", "10"))
MAX_STDERR = 1024


def fuzz_settings(examples: int = EXAMPLES):
    """Hypothesis settings of a fuzz family: fixed seed (derandomized) unless the slow profile runs."""
    return settings(max_examples=examples, derandomize=not SLOW, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


# Numbers that once broke readers: past int64, past uint32, negative, huge floats, zero.
HOSTILE_NUMBERS = ["0", "-1", "-9223372036854775809", "9223372036854775807", "18446744073709551616",
                   "4294967296", "1000000000000000000", "1e23", "nan", "65536", "300", "20000"]
_NUMBER = re.compile(rb"\d+")


@st.composite
def mutated(draw, seeds: list[bytes]) -> bytes:
    """A real file, then one to three mutations of the kinds that found bugs before."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["truncate", "flip", "number", "number", "delete_line", "dup_line",
                                     "utf8", "nul", "long_line", "splice", "empty_line"]))
        n = len(data)
        if kind == "truncate" and n:
            del data[draw(st.integers(0, n - 1)):]
        elif kind == "flip" and n:
            i = draw(st.integers(0, n - 1))
            data[i] = draw(st.integers(0, 255))
        elif kind == "number":
            spots = list(_NUMBER.finditer(bytes(data)))
            if spots:
                m = draw(st.sampled_from(spots))
                data[m.start():m.end()] = draw(st.sampled_from(HOSTILE_NUMBERS)).encode()
        elif kind in ("delete_line", "dup_line", "empty_line"):
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "delete_line":
                del lines[i]
            elif kind == "dup_line":
                lines.insert(i, lines[i])
            else:
                lines.insert(i, b"")
            data = bytearray(b"\n".join(lines))
        elif kind == "utf8":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"]))
        elif kind == "nul":
            i = draw(st.integers(0, n))
            data[i:i] = b"\x00"
        elif kind == "long_line":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.sampled_from([b"9", b"x", b"1 ", b"#"])) * draw(st.sampled_from([10_000, 1_000_000]))
        elif kind == "splice" and n:
            a = draw(st.integers(0, n - 1))
            b = draw(st.integers(a, min(n, a + 200)))
            i = draw(st.integers(0, n))
            data[i:i] = data[a:b]
    return bytes(data)


@dataclass
class Outcome:
    code: int | None  # exit status, None when killed by a signal or the time limit
    signal: int | None
    timed_out: bool
    stdout: bytes
    stderr: bytes
    seconds: float


_WARM = False


def _warm_up() -> None:
    """Import every engine's command line once in this process, so forked children start warm."""
    global _WARM
    if not _WARM:
        from puzzlelab.cli import build_parser

        build_parser()
        _WARM = True


def run_forked(argv: list[str], timeout: float = CASE_SECONDS) -> Outcome:
    """Run `puzzlelab ARGV` in a forked child; capture its exit, signal, output and time."""
    from puzzlelab.cli import main

    _warm_up()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # child
        code = 98
        try:
            os.close(out_r)
            os.close(err_r)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            import sys

            sys.stdout = os.fdopen(1, "w", closefd=False)
            sys.stderr = os.fdopen(2, "w", closefd=False)
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException:
                traceback.print_exc()
                code = 99
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 98)
    os.close(out_w)
    os.close(err_w)
    chunks = {out_r: [], err_r: []}
    open_fds = [out_r, err_r]
    timed_out = False
    while open_fds:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        ready, _, _ = select.select(open_fds, [], [], left)
        for fd in ready:
            block = os.read(fd, 65536)
            if block:
                if sum(map(len, chunks[fd])) < (1 << 20):
                    chunks[fd].append(block)
            else:
                open_fds.remove(fd)
    _, status = os.waitpid(pid, 0)
    for fd in (out_r, err_r):
        os.close(fd)
    seconds = time.monotonic() - start
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) and not timed_out else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    return Outcome(code, sig, timed_out, b"".join(chunks[out_r]), b"".join(chunks[err_r]), seconds)


LOCATED = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+))?: (?P<reason>\S.*)$")


def assert_clean(outcome: Outcome, path: str | os.PathLike | None = None, data: bytes | None = None) -> str:
    """Exit 0, or exit 2 with one `PATH[:LINE]: reason` line; never a traceback, signal or hang.

    Returns "ok" or "error" (for statistics). `path`, when given, must begin the message.
    """
    shown = f"\ninput ({len(data)} bytes): {data[:300]!r}" if data is not None else ""
    err = outcome.stderr.decode("utf-8", "replace")
    assert not outcome.timed_out, f"no answer within {CASE_SECONDS} s{shown}"
    assert outcome.signal is None, f"killed by signal {outcome.signal}{shown}\n{err[-2000:]}"
    assert "Traceback" not in err, f"traceback on stderr{shown}\n{err[-3000:]}"
    assert len(outcome.stderr) <= MAX_STDERR, f"stderr is {len(outcome.stderr)} bytes{shown}\n{err[:500]}"
    if outcome.code == 0:
        return "ok"
    assert outcome.code == 2, f"exit {outcome.code}{shown}\n{err[-2000:]}"
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0], f"expected one message line, got {len(lines)}{shown}\n{err}"
    m = LOCATED.match(lines[0])
    assert m, f"not a located message: {lines[0]!r}{shown}"
    if path is not None:
        assert lines[0].startswith(str(path)), f"message does not name {path}: {lines[0]!r}{shown}"
    return "error"


class Scratch:
    """A temporary folder reused across the cases of one test (cases write one file each)."""

    def __init__(self):
        self._dir = tempfile.TemporaryDirectory(prefix="puzzlelab-fuzz-")
        self.root = Path(self._dir.name)

    def write(self, name: str, data: bytes) -> Path:
        p = self.root / name
        p.write_bytes(data)
        return p

    def close(self):
        self._dir.cleanup()


def seed_files(*patterns: str, root: Path | None = None, limit: int = 40) -> list[bytes]:
    """Contents of the repository's own files matching the glob patterns (relative to the repo)."""
    from conftest import REPO

    base = root or REPO
    files = sorted({p for pat in patterns for p in base.glob(pat) if p.is_file()})[:limit]
    assert files, f"no seed files for {patterns} under {base}"
    return [p.read_bytes() for p in files]

"""Memory sizes: parse `512M`/`2G` style budgets and read the process's peak resident memory."""

from __future__ import annotations

import os
import re
import resource
import sys

from .errors import InputError, quote

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*$", re.IGNORECASE)


def parse_size(text: str | int) -> int:
    """'2G' -> 2147483648; plain integers are bytes. Units are binary (K = 1024)."""
    if isinstance(text, int):
        return text
    m = _SIZE.match(str(text))
    if not m:
        raise InputError(f"cannot read size {quote(str(text))}: expected a number with an optional unit "
                         "K, M, G or T (e.g. 512M, 2G)")
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


def format_size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def _vm_hwm(pid: int | str) -> int | None:
    """VmHWM of /proc/PID/status in bytes: the high-water mark of that program's own memory (Linux).
    One raw read (searches read it every depth: a line-by-line text read cost 0.12 ms)."""
    try:
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY)
        try:
            data = os.read(fd, 1 << 16)
        finally:
            os.close(fd)
        i = data.index(b"VmHWM:")
        return int(data[i + 6:data.index(b"kB", i)]) * 1024
    except (OSError, ValueError):
        return None


def peak_rss_bytes() -> int:
    """Peak resident set size of this process so far.

    Linux: VmHWM, not getrusage's ru_maxrss, which survives fork + exec: a CLI started by a big
    parent (pytest, Snakemake) would report the parent's size. Elsewhere ru_maxrss (KiB, macOS bytes)."""
    hwm = _vm_hwm("self")
    if hwm is not None:
        return hwm
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def child_peak_rss_bytes(pid: int) -> int:
    """Peak resident memory of a running child so far (0 when unknown); poll it until the child exits."""
    return _vm_hwm(pid) or 0


def current_rss_bytes() -> int:
    """Resident set size now (for progress lines and budget checks)."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        import os

        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return peak_rss_bytes()

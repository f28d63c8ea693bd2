"""CPU time of child processes (a peer solver run beside ours): what the kernel charged them."""

from __future__ import annotations

import resource


def children_cpu_seconds() -> float:
    """User + system CPU seconds of this process's finished (reaped) children so far; the difference
    around one child's run is that child's CPU time."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime

"""Progress for long commands: a tqdm bar on a terminal, plain throttled lines otherwise.

Pipeline rules redirect stderr to their `log:` file, so the plain lines end up there.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


class Progress:
    """`with Progress(total, "solving") as p: p.update(1, note="...")`."""

    def __init__(self, total: int | None, desc: str, unit: str = "it", stream=None, interval_s: float = 5.0,
                 enabled: bool = True):
        self.total = total
        self.desc = desc
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.interval_s = interval_s
        self.enabled = enabled
        self.count = 0
        self._bar = None
        self._last = 0.0
        self._start = time.perf_counter()
        if enabled and getattr(self.stream, "isatty", lambda: False)():
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=unit, file=self.stream, dynamic_ncols=True, leave=False)

    def update(self, n: int = 1, note: str | None = None) -> None:
        self.count += n
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(n)
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            return
        now = time.perf_counter()
        if now - self._last >= self.interval_s or (self.total is not None and self.count >= self.total):
            self._last = now
            self.line(note)

    def line(self, note: str | None = None) -> None:
        """Write one plain progress line now (also used for per-depth reports)."""
        if not self.enabled:
            return
        if self._bar is not None:
            if note:
                self._bar.write(f"{self.desc}: {note}", file=self.stream)
            return
        done = f"{self.count}/{self.total}" if self.total is not None else str(self.count)
        elapsed = time.perf_counter() - self._start
        text = f"[{time.strftime('%H:%M:%S')}] {self.desc}: {done} {self.unit} ({elapsed:.1f} s)"
        if note:
            text += f" {note}"
        print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def track(items: Iterable[T], desc: str, total: int | None = None, unit: str = "it") -> Iterator[T]:
    """Iterate with progress reporting."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(total, desc, unit=unit) as p:
        for item in items:
            yield item
            p.update(1)

"""`make test-timed`: run pytest, then record how long it took and how many tests passed."""

from __future__ import annotations

import os
import sys
import time

from . import canonical
from .readme import machine


def main(argv: list[str]) -> int:
    import pytest

    out, args = argv[0], argv[2:] if argv[1:2] == ["--"] else argv[1:]
    counts = {"passed": 0}

    class Count:
        def pytest_runtest_logreport(self, report):
            if report.when == "call" and report.passed:
                counts["passed"] += 1

    start, load = time.monotonic(), os.getloadavg()[0]
    code = pytest.main(args, plugins=[Count()])
    if code == 0:
        # the load average at the start and the end: what else the machine was doing meanwhile
        canonical.write_json(out, {"tests": counts["passed"], "minutes": round((time.monotonic() - start) / 60, 1),
                                   "machine": machine(), "load": [round(load, 1), round(os.getloadavg()[0], 1)]})
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

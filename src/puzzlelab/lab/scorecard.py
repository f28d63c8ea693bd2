"""Scorecard rows: for each headline figure of a seed article, the article's value beside ours.

Every experiment's report step writes its rows with `write_rows` (CSV, fixed column order); the
report's Scorecard table is their concatenation, generated from results and never typed by hand.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from .tables import write_table

# The five seed articles (../shared/seeds/NNN_*.txt), by the id used in the `seed` column.
SEEDS = {
    "000": "compressed BFS for Snakebird (sort+merge dedup, row filter + zstd, 1-byte parents)",
    "001": "beam search on Eternity II",
    "002": "nonogram solving at the speed of light (line DP, colour bit masks)",
    "003": "Balda: separator trie, alpha-beta, incremental word search",
    "004": "BANDSAW: meet-in-the-middle band proofs on Eternity II",
}
VERDICTS = ("reproduced", "beaten", "missed", "not run here")
COLUMNS = ["seed", "figure", "article", "ours", "peer", "verdict", "link"]


@dataclass(frozen=True)
class Row:
    """One headline figure. Values are short display strings with units (e.g. "89 moves", "4.6 s")."""

    seed: str
    figure: str
    article: str
    ours: str
    peer: str = ""
    verdict: str = "not run here"
    link: str = ""  # the report item (table or figure) the value comes from

    def __post_init__(self):
        if self.seed not in SEEDS:
            raise ValueError(f"unknown seed {self.seed!r}; expected one of {sorted(SEEDS)}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {VERDICTS}")


def verdict(ours: float | None, article: float | None, *, better: str = "higher", rel_tol: float = 0.0,
            abs_tol: float = 0.0) -> str:
    """`reproduced` within the tolerance, `beaten`/`missed` beyond it in the direction of `better`.

    `better` is "higher", "lower" or "equal" (an exact figure such as a count: any difference is a
    miss). A missing or non-finite value of ours is `not run here`.
    """
    if ours is None or (isinstance(ours, float) and not math.isfinite(ours)):
        return "not run here"
    if article is None:
        return "reproduced"
    if math.isclose(ours, article, rel_tol=rel_tol, abs_tol=abs_tol):
        return "reproduced"
    if better == "equal":
        return "missed"
    ahead = ours > article if better == "higher" else ours < article
    return "beaten" if ahead else "missed"


def write_rows(rows: list[Row], csv_path: str | Path) -> None:
    """Write an experiment's scorecard rows (CSV, the columns of COLUMNS in that order)."""
    df = pd.DataFrame([asdict(r) for r in rows], columns=COLUMNS)
    write_table(df, csv_path)

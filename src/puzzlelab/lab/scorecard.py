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


def read_rows(paths: list[str | Path]) -> pd.DataFrame:
    """All experiments' rows, in seed order (each experiment's own order kept)."""
    frames = []
    for p in paths:
        df = pd.read_csv(p, keep_default_na=False, dtype=str)
        missing = [c for c in COLUMNS if c not in df.columns]
        if missing:
            raise ValueError(f"{p}: scorecard rows lack columns {missing}")
        frames.append(df[COLUMNS])
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    return df.sort_values("seed", kind="stable").reset_index(drop=True)


def to_html(df: pd.DataFrame, fragment: bool = False) -> str:
    """The Scorecard page (or, with `fragment`, just its table for the report's landing page)."""
    import html

    from .tables import STYLE

    def link(path: str) -> str:
        if not path:
            return ""
        from urllib.parse import quote as urlquote

        name = html.escape(Path(path).parent.name + " › " + Path(path).stem.replace("_", " "))
        return f"<a href=\"javascript:app.showResultInfo('{urlquote(path, safe='')}')\">{name}</a>"

    head = "".join(f"<th>{html.escape(c)}</th>" for c in ["seed", "figure", "article", "ours", "peer beside us",
                                                           "verdict", "from"])
    body = []
    for r in df.itertuples(index=False):
        cls = html.escape(r.verdict.replace(" ", "-"))
        cells = [f"{html.escape(r.seed)} — {html.escape(SEEDS.get(r.seed, ''))}", html.escape(r.figure),
                 html.escape(r.article), html.escape(r.ours), html.escape(r.peer),
                 f"<span class=\"{cls}\">{html.escape(r.verdict)}</span>", link(r.link)]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    counts = df["verdict"].value_counts()
    summary = ", ".join(f"{int(counts.get(v, 0))} {v}" for v in VERDICTS)
    table = f"<table><thead><tr>{head}</tr></thead><tbody>" + "".join(body) + "</tbody></table>"
    if fragment:
        return f"<p>{len(df)} headline figures: {summary}.</p>\n{table}\n"
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Scorecard</title>" + STYLE +
            "<style>.reproduced{color:#1a7f37}.beaten{color:#0550ae;font-weight:600}.missed{color:#cf222e}"
            ".not-run-here{color:#6e7781}</style></head><body><h3>Scorecard</h3>"
            f"<p class=\"note\">Every headline figure of the five seed articles, the article's value beside ours "
            f"(generated from this run's results): {summary}.</p>"
            f"<div class=\"wrap\"><table><thead><tr>{head}</tr></thead><tbody>" + "".join(body) +
            "</tbody></table></div></body></html>\n")

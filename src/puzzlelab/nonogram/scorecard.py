"""Scorecard rows of seed 002 (the German article on colour nonograms) from the benchmark's CSVs.

The article's figures (its benchmark on nonograms.ru puzzles, on a 1.4 GHz AMD E1 of 2013) are
the constants below; ours come from this run's bench and reference CSVs, so nothing is typed by hand.
"""

from __future__ import annotations

import pandas as pd

from ..lab.scorecard import Row, verdict, write_rows
from .report import DECIDED, FOUND, TOURNAMENT_LIMIT_S, load_reference, load_runs, load_tournament

SEED = "002"
# Times within this fraction of the article's count as reproduced (another machine, another decade).
TIME_TOL = 0.25
# The peer's CPU time within this fraction of ours counts as on par ("reproduced").
PEER_TOL = 0.05
# Izaron's own colour puzzles against the article's colour benchmark (4,683 nonograms.ru puzzles).
COLOUR_CORPUS = "izaron"
COLOUR_MEDIAN_MS = 3.02781
COLOUR_MAX_MS = 215.925
# Puzzles of the article's top 10 heaviest black-and-white ones that the nonograms_org corpus holds.
BW_CORPUS = "nonograms_org"
BW_HEAVIEST_MS = {19510: 458.932, 5114: 452.245, 17403: 161.675, 12771: 153.693}
# Jan Wolter's survey (the webpbn puzzles it times), as the corpora of the benchmark hold it.
SURVEY_CORPORA = ("webpbn", "keen", "webpbn_xml")


def _ms(seconds: float) -> str:
    return f"{1000.0 * seconds:.3g} ms"


def _seconds(seconds: float) -> str:
    return f"{seconds:.3g} s" if seconds >= 1.0 else _ms(seconds)


def _times(df: pd.DataFrame) -> pd.Series:
    """Per-puzzle CPU seconds (wall seconds where a row has no CPU time)."""
    cpu = df["cpu_s"] if "cpu_s" in df else pd.Series(float("nan"), index=df.index)
    return cpu.fillna(df["time_s"])


def _absent(figure: str, article: str, what: str, link: str) -> Row:
    return Row(SEED, figure, article, f"— ({what})", verdict="not run here", link=link)


def colour_rows(ours: pd.DataFrame, link: str) -> list[Row]:
    """Median and heaviest time of Izaron's colour puzzles beside the article's colour benchmark."""
    every = ours[ours["corpus"] == COLOUR_CORPUS]
    g = every[every["status"].isin(DECIDED)]
    undecided = len(every) - len(g)
    figures = [("colour puzzles: median time per puzzle (ours: Izaron's own colour puzzles)", COLOUR_MEDIAN_MS,
                "median"),
               ("colour puzzles: heaviest puzzle (ours: Izaron's own colour puzzles)", COLOUR_MAX_MS, "max")]
    rows = []
    for figure, article_ms, how in figures:
        article = f"{article_ms:.3g} ms"
        if every.empty:
            rows.append(_absent(figure, article, f"corpus {COLOUR_CORPUS} not in this run", link))
            continue
        if g.empty:
            rows.append(Row(SEED, figure, article, f"none of {len(every)} decided", verdict="missed", link=link))
            continue
        t = _times(g)
        value = float(t.median() if how == "median" else t.max())
        shown = f"{_seconds(value)} ({len(g)} puzzles)"
        if how == "max":
            shown = f"{_seconds(value)} ({g.loc[t.idxmax(), 'name']})"
        score = verdict(1000.0 * value, article_ms, better="lower", rel_tol=TIME_TOL)
        if undecided:  # a puzzle we did not decide is heavier than any we did
            shown, score = f"{shown}; {undecided} not decided", "missed"
        rows.append(Row(SEED, figure, article, shown, verdict=score, link=link))
    return rows


def named_puzzle_rows(ours: pd.DataFrame, link: str) -> list[Row]:
    """The article's heaviest black-and-white puzzles, puzzle by puzzle."""
    g = ours[ours["corpus"] == BW_CORPUS]
    rows = []
    for number, article_ms in BW_HEAVIEST_MS.items():
        figure = f"b/w nonograms.org #{number}: time (one of the article's 10 heaviest)"
        article = f"{article_ms:.3g} ms"
        hit = g[g["name"].str.contains(rf"(?:^|\D)0*{number}(?:\D|$)", regex=True)]
        if hit.empty:
            rows.append(_absent(figure, article, f"puzzle not in this run's {BW_CORPUS} corpus", link))
            continue
        r = hit.iloc[0]
        if r["status"] not in DECIDED:
            rows.append(Row(SEED, figure, article, f"{r['status']}", verdict="missed", link=link))
            continue
        value = float(_times(hit).iloc[0])
        rows.append(Row(SEED, figure, article, f"{_seconds(value)} ({r['status']})",
                        verdict=verdict(1000.0 * value, article_ms, better="lower", rel_tol=TIME_TOL), link=link))
    return rows


def survey_row(ours: pd.DataFrame, ref: pd.DataFrame | None, solver: str, link: str) -> Row:
    """How many puzzles of Wolter's survey we decide (the peer's count beside ours)."""
    figure = "Wolter's survey: puzzles decided (unique / multiple / contradiction)"
    g = ours[ours["corpus"].isin(SURVEY_CORPORA)]
    if g.empty:
        return _absent(figure, "", "survey corpora not in this run", link)
    decided = int(g["status"].isin(DECIDED).sum())
    peer = ""
    if ref is not None:
        r = ref[ref["corpus"].isin(SURVEY_CORPORA)]
        if len(r):
            peer = f"{solver}: {int(r['status'].isin(DECIDED).sum())} of {len(r)}"
    return Row(SEED, figure, "", f"{decided} of {len(g)}", peer,
               verdict(decided, len(g), better="higher"), link)


def peer_rows(ours: pd.DataFrame, ref: pd.DataFrame | None, solver: str, unavailable: str, link: str) -> list[Row]:
    """Statuses equal to the peer's, and CPU time beside it per corpus (puzzles both decided)."""
    if ref is None:
        why = unavailable or f"{solver} did not run"
        return [Row(SEED, f"statuses equal to {solver}'s", "", "—", f"not run: {why}", "not run here", link),
                Row(SEED, f"CPU time beside {solver}", "", "—", f"not run: {why}", "not run here", link)]
    def by_key(df: pd.DataFrame, col: pd.Series) -> dict:
        return dict(zip(zip(df["corpus"], df["name"]), col))  # a duplicate name keeps its last row

    my_status, my_time = by_key(ours, ours["status"]), by_key(ours, _times(ours))
    their_status, their_time = by_key(ref, ref["status"]), by_key(ref, ref["t"])
    both = [k for k in their_status if my_status.get(k) in DECIDED and their_status[k] in DECIDED]
    differ = sorted(f"{c}/{n}" for c, n in both if my_status[(c, n)] != their_status[(c, n)])
    shown = f"{len(differ)} different in {len(both)} decided by both"
    if differ:
        shown += " (" + ", ".join(differ[:3]) + (", …" if len(differ) > 3 else "") + ")"
    rows = [Row(SEED, f"statuses equal to {solver}'s", "", shown, f"{solver} beside us",
                verdict(len(differ), 0, better="lower") if both else "not run here", link)]
    for corpus in sorted(ref["corpus"].unique()):
        keys = [k for k in both if k[0] == corpus]
        figure = f"CPU time beside {solver}: {corpus} ({len(keys)} puzzles both decided)"
        o = float(sum(my_time[k] for k in keys))
        t = float(sum(their_time[k] for k in keys))
        if not keys or not o > 0:
            rows.append(Row(SEED, figure, "", "—", f"{solver}: {_seconds(t)}", "not run here", link))
            continue
        ratio = t / o
        rows.append(Row(SEED, figure, "", f"{_seconds(o)} ({solver} / ours {ratio:.2f})", f"{solver}: {_seconds(t)}",
                        verdict(ratio, 1.0, better="higher", rel_tol=PEER_TOL), link))
    return rows


def bench_scorecard(results: list[str], references: list[str], solver: str, unavailable: str,
                    links: dict[str, str], csv: str) -> None:
    """Write seed 002's rows: Izaron's colour puzzles, the article's heaviest b/w ones, the survey, the peer."""
    ours = load_runs(results)
    ref = load_reference(references) if references else None
    rows = (colour_rows(ours, links["summary"]) + named_puzzle_rows(ours, links["heaviest"])
            + [survey_row(ours, ref, solver, links["summary"])]
            + peer_rows(ours, ref, solver, unavailable, links["reference"]))
    write_rows(rows, csv)



def tournament_scorecard(first_runs: list[str], decided_runs: list[str], references: list[str], solver: str,
                         unavailable: str, link: str, csv: str) -> None:
    """Seed 002's tournament rows: every 25x25 puzzle solved and decided within the tournament's limit,
    and the CPU time beside the champion (first solution, the tournament's task)."""
    first, decided, ref = load_tournament(first_runs, decided_runs, references)
    limit = f"{TOURNAMENT_LIMIT_S:g} s"
    rows = []
    for mode, df, ok in (("solved (first solution)", first, FOUND), ("decided (uniqueness)", decided, DECIDED)):
        figure = f"25x25 tournament: every puzzle {mode} within {limit} of CPU"
        if df.empty:
            rows.append(_absent(figure, "", "no tournament corpus in this run", link))
            continue
        good = df["status"].isin(ok) & (df["cpu_s"] <= TOURNAMENT_LIMIT_S)
        slowest, stopped = float(df["cpu_s"].max()), int((df["status"] == "timeout").sum())
        more = f"; {stopped} stopped at the run's work limit" if stopped else ""
        rows.append(Row(SEED, figure, "", f"{int(good.sum())} of {len(df)} (slowest {_seconds(slowest)}{more})",
                        verdict="reproduced" if bool(good.all()) else "missed", link=link))
    figure = f"25x25 tournament: CPU time beside {solver}, the champion (first solution)"
    if first.empty or ref is None:
        why = "no tournament corpus in this run" if first.empty else (unavailable or f"{solver} did not run")
        rows.append(Row(SEED, figure, "", "—", f"not run: {why}", "not run here", link))
    else:
        keys = set(zip(ref["corpus"], ref["name"]))
        mine = first[[k in keys for k in zip(first["corpus"], first["name"])]]
        o, t = float(mine["cpu_s"].sum()), float(ref["t"].dropna().sum())
        ratio = t / o if o > 0 else float("nan")
        rows.append(Row(SEED, figure, "", f"{_seconds(o)} for {len(mine)} puzzles ({solver} / ours {ratio:.2f})",
                        f"{solver}: {_seconds(t)}, {int((ref['status'] == 'solved').sum())} solved",
                        verdict(ratio, 1.0, better="higher", rel_tol=PEER_TOL), link))
    write_rows(rows, csv)

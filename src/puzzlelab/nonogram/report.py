"""Tables, plots and pictures of the nonogram experiments (run by the pipeline's aggregation rules)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..lab import plots
from ..lab.errors import InputError, quote
from ..lab.results import timing_path
from ..lab.tables import read_table, write_table

DECIDED = ("unique", "multiple", "contradiction")


def load_runs(results: list[str]) -> pd.DataFrame:
    """Bench artifact CSVs joined row by row with the timing CSV beside each one (`X.timing.csv`)."""
    frames = []
    for res in results:
        if not str(res).endswith(".csv"):
            raise InputError(f"a bench result must be a .csv file, got {quote(str(res))}")
        tim = timing_path(res)
        if not Path(tim).is_file():
            raise InputError(f"no timing file {quote(Path(tim).name)} beside this bench result", res)
        a, b = read_table(res, ("corpus", "name", "status", "line_solvable")), read_table(tim, ("name",))
        if len(a) != len(b) or list(a["name"].astype(str)) != list(b["name"].astype(str)):
            raise InputError(f"timing file {tim} does not match {res} row by row")
        a = a.copy()
        for col in ("time_s", "cpu_s", "found", "line_solves", "work", "probes", "branches"):
            if col in b:
                a[col] = pd.to_numeric(b[col], errors="coerce")
        frames.append(a)
    if not frames:
        return pd.DataFrame(columns=["corpus", "name", "status", "line_solvable", "time_s", "cpu_s"])
    df = pd.concat(frames, ignore_index=True)
    df["line_solvable"] = df["line_solvable"].astype(str).str.lower() == "true"
    df["corpus"] = df["corpus"].astype(str)
    df["name"] = df["name"].astype(str)
    return df


def _ms(x: float) -> float:
    return float("nan") if x is None or (isinstance(x, float) and math.isnan(x)) else 1000.0 * x


def corpus_summary(df: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for corpus, g in df.groupby("corpus", sort=True):
        ok = g[g["status"] != "error"]
        t = ok["time_s"].dropna()
        solved = int(ok["status"].isin(("unique", "multiple", "solved")).sum())
        rows.append({
            "corpus": corpus,
            "puzzles": len(g),
            "solved": solved,
            "unique": int((g["status"] == "unique").sum()),
            "multiple": int((g["status"] == "multiple").sum()),
            "contradiction": int((g["status"] == "contradiction").sum()),
            "timeout": int((g["status"] == "timeout").sum()),
            "unreadable": int((g["status"] == "error").sum()),
            "line-solvable %": 100.0 * ok["line_solvable"].sum() / len(ok) if len(ok) else float("nan"),
            "invalid solutions": int((ok["valid"].astype(str).str.lower() == "false").sum()) if "valid" in ok else 0,
            "average ms": _ms(t.mean()) if len(t) else float("nan"),
            "median ms": _ms(t.median()) if len(t) else float("nan"),
            "max ms": _ms(t.max()) if len(t) else float("nan"),
            "total s": float(t.sum()),
            "total CPU s": float(ok["cpu_s"].dropna().sum()),
        })
    return pd.DataFrame(rows)


def heaviest(df: pd.DataFrame, top: int = 10) -> pd.DataFrame:
    rows = []
    for corpus, g in df[df["status"] != "error"].groupby("corpus", sort=True):
        g = g.sort_values(["time_s", "name"], ascending=[False, True]).head(top)
        for rank, (_, r) in enumerate(g.iterrows(), 1):
            rows.append({"corpus": corpus, "rank": rank, "name": r["name"], "size": r["size"],
                         "colours": int(r["colors"]), "status": r["status"],
                         "line-solvable": "yes" if r["line_solvable"] else "no", "time ms": _ms(r["time_s"])})
    return pd.DataFrame(rows, columns=["corpus", "rank", "name", "size", "colours", "status", "line-solvable",
                                       "time ms"])


def summary_table(results: list[str], csv: str, html: str, svg: str | None = None) -> None:
    """Per corpus: puzzles, statuses and solve times; with `svg`, the time distribution per corpus."""
    df = load_runs(results)
    note = (f"{len(df)} puzzles in {plural(df['corpus'].nunique(), 'corpus', 'corpora')}. Times are wall-clock per "
            "puzzle inside one process per corpus (array setup + search; parsing and numba compilation excluded). "
            "solved = unique + multiple (+ solved without a uniqueness check).")
    write_table(corpus_summary(df), csv, html, title="Nonogram benchmark per corpus", note=note)
    if svg:
        time_plot(df, svg)


def heaviest_table(results: list[str], csv: str, html: str) -> None:
    write_table(heaviest(load_runs(results)), csv, html, title="The 10 heaviest puzzles of each corpus")


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def time_plot(df: pd.DataFrame, path: str) -> None:
    """Per-corpus distribution of solve times (log scale): box plot with every puzzle as a dot."""
    corpora = sorted(df["corpus"].unique())
    fig, ax = plots.figure(width=8.0, height=max(2.5, 0.45 * len(corpora) + 1.2))
    rng = np.random.Generator(np.random.PCG64(0))
    data = []
    labelled = False
    for i, c in enumerate(corpora):
        g = df[(df["corpus"] == c) & (df["status"] != "error")]
        t = np.maximum(g["time_s"].to_numpy(dtype=float) * 1000.0, 1e-3)
        out = g["status"].to_numpy() == "timeout"
        ok = ~np.isnan(t)
        data.append(t[ok] if ok.any() else np.array([np.nan]))
        y = i + 1 + rng.uniform(-0.18, 0.18, size=len(t))
        ax.scatter(t[ok & ~out], y[ok & ~out], s=6, alpha=0.45, color="tab:blue", linewidths=0)
        if (ok & out).any():
            ax.scatter(t[ok & out], y[ok & out], s=28, marker="x", color="tab:red",
                       label=None if labelled else "timeout")
            labelled = True
    ax.boxplot(data, orientation="horizontal", widths=0.5, showfliers=False)
    ax.set_yticks(range(1, len(corpora) + 1))
    ax.set_yticklabels(corpora)
    ax.set_xscale("log")
    ax.set_xlabel("solve time per puzzle (ms, log scale)")
    ax.axvline(2.0, color="tab:green", linestyle="--", linewidth=1)
    ax.text(2.0, len(corpora) + 0.6, " 2 ms", color="tab:green", fontsize=8, va="bottom")
    ax.set_title("Nonogram solve times per corpus")
    if labelled:
        ax.legend(loc="lower right", fontsize=8)
    plots.save(fig, path)


def load_reference(references: list[str]) -> pd.DataFrame:
    """The reference solver's rows; `t` = its own clock when it finished, the killed child's CPU time otherwise."""
    ref = pd.concat([read_table(r, ("corpus", "name", "time_s")) for r in references], ignore_index=True)
    ref["corpus"] = ref["corpus"].astype(str)
    ref["name"] = ref["name"].astype(str)
    ref["t"] = pd.to_numeric(ref["time_s"], errors="coerce")
    if "cpu_s" in ref:
        ref["t"] = ref["t"].fillna(pd.to_numeric(ref["cpu_s"], errors="coerce"))
    return ref


def reference_table(results: list[str], references: list[str], solver: str, unavailable: str, csv: str,
                    html: str) -> None:
    cols = ["corpus", "puzzles", "ours decided", f"{solver} decided", "ours total CPU s", f"{solver} total CPU s",
            f"{solver} / ours (total)", "both decided", f"{solver} / ours (both decided)", "ours median ms",
            f"{solver} median ms", "ours wall s", f"{solver} wall s"]
    if not references:
        reason = unavailable or f"{solver} was not available"
        write_table(pd.DataFrame([{"corpus": "—", "note": f"not available: {reason}"}]), csv, html,
                    title=f"Reference solver {solver}: not available", note=reason)
        return
    ours = load_runs(results)
    ref = load_reference(references)
    rows = []
    for corpus, r in ref.groupby("corpus", sort=True):
        o = ours[ours["corpus"] == corpus]
        o_dec = o[o["status"].isin(DECIDED)]
        r_dec = r[r["status"].isin(DECIDED)]
        both = sorted(set(o_dec["name"]) & set(r_dec["name"]))
        o_both = float(o.set_index("name").loc[both, "cpu_s"].sum()) if both else 0.0
        r_both = float(r.set_index("name").loc[both, "t"].sum()) if both else 0.0
        o_cpu = float(o["cpu_s"].dropna().sum())
        r_cpu = float(r["t"].dropna().sum())
        rows.append({
            "corpus": corpus, "puzzles": len(r), "ours decided": len(o_dec), f"{solver} decided": len(r_dec),
            "ours total CPU s": o_cpu, f"{solver} total CPU s": r_cpu,
            f"{solver} / ours (total)": r_cpu / o_cpu if o_cpu > 0 else float("nan"),
            "both decided": len(both),
            f"{solver} / ours (both decided)": r_both / o_both if o_both > 0 else float("nan"),
            "ours median ms": _ms(o["cpu_s"].median()) if len(o) else float("nan"),
            f"{solver} median ms": _ms(r["t"].median()),
            "ours wall s": float(o["time_s"].dropna().sum()),
            f"{solver} wall s": float(pd.to_numeric(r["wall_s"], errors="coerce").dropna().sum()),
        })
    note = (f"CPU seconds of solving on the same puzzles: ours = cpu_s of the benchmark run (array setup and search; "
            f"the flat clue arrays are built while loading, as {solver} builds its own before its clock starts), "
            f"{solver} = its own 'Processing Time' (-t, file reading excluded) with -u (uniqueness), or the killed "
            f"process's CPU time when it hit the limit. Timeouts count with the time spent, under each solver's own "
            f"limit, so the 'both decided' ratio is the like-for-like one. A ratio above 1 means {solver} needed more "
            f"time than we did. Wall times include process start-up for {solver} (one process per puzzle) but not for "
            f"us (one process per corpus); on a shared machine CPU times are the stable measure.")
    write_table(pd.DataFrame(rows, columns=cols), csv, html, title=f"Our solver beside {solver}", note=note)


# The tournament's limit per puzzle (TAAI/ICGA/TCGA nonogram tournaments) and its task: one solution.
TOURNAMENT_LIMIT_S = 60.0
FOUND = ("unique", "multiple", "solved")


def tournament_rows(first: pd.DataFrame, decided: pd.DataFrame, ref: pd.DataFrame | None, solver: str) -> list[dict]:
    """Per corpus: the first solution (the tournament's task) and the decided status (uniqueness)
    in our CPU time, with the champion's first-solution time beside them."""
    rows = []
    for corpus, f in first.groupby("corpus", sort=True):
        d = decided[decided["corpus"] == corpus]
        row = {"corpus": corpus, "puzzles": len(f),
               "ours solved (first solution)": int(f["status"].isin(FOUND).sum()),
               "ours CPU s (first solution)": float(f["cpu_s"].dropna().sum()),
               "ours max s (first solution)": float(f["cpu_s"].max()) if len(f) else float("nan"),
               f"ours over {TOURNAMENT_LIMIT_S:g} s (first solution)": int((f["cpu_s"] > TOURNAMENT_LIMIT_S).sum()),
               "ours decided (uniqueness)": int(d["status"].isin(DECIDED).sum()),
               "ours CPU s (uniqueness)": float(d["cpu_s"].dropna().sum()),
               "ours max s (uniqueness)": float(d["cpu_s"].max()) if len(d) else float("nan")}
        r = ref[ref["corpus"] == corpus] if ref is not None else None
        if r is not None and len(r):
            ok = r[r["status"] == "solved"]
            their = float(r["t"].dropna().sum())
            row.update({f"{solver} solved": len(ok), f"{solver} CPU s": their,
                        f"{solver} max s": float(r["t"].max()),
                        f"{solver} wrong": int((r["status"] == "wrong").sum()),
                        f"{solver} / ours (first solution)": their / row["ours CPU s (first solution)"]
                        if row["ours CPU s (first solution)"] > 0 else float("nan")})
        rows.append(row)
    return rows


def load_tournament(first_runs: list[str], decided_runs: list[str], references: list[str]):
    """(first-solution runs, uniqueness runs, the champion's rows or None) of the tournament table."""
    first = load_runs(first_runs)
    decided = load_runs(decided_runs) if decided_runs else first.iloc[0:0]
    return first, decided, load_reference(references) if references else None


def tournament_table(first_runs: list[str], decided_runs: list[str], references: list[str], solver: str,
                     unavailable: str, csv: str, html: str) -> None:
    """The 25x25 tournament sets in both modes (first solution; uniqueness decided), the champion beside us."""
    first, decided, ref = load_tournament(first_runs, decided_runs, references)
    df = pd.DataFrame(tournament_rows(first, decided, ref, solver))
    peer = (f"{solver} = its own clock per puzzle (CPU), first solution, every grid it wrote checked against the clues "
            f"here" if ref is not None else f"{solver} did not run: {unavailable or 'not available'}")
    note = (f"CPU seconds per puzzle, one process per corpus. First solution = `--max-solutions 1`, the tournament's "
            f"task (the tournament allows {TOURNAMENT_LIMIT_S:g} s per puzzle); uniqueness = `--max-solutions 2` "
            f"(the benchmark's runs of the same puzzles). {peer}. A ratio above 1 means {solver} needed more time.")
    write_table(df, csv, html, title=f"25x25 tournament sets: both modes, beside {solver}", note=note)


COMPARISONS = [
    ("naive", "prefix sums + difference arrays (vs O(n) segment checks)"),
    ("sweep", "dirty-line queue (vs full row/column sweeps)"),
    ("no-probing", "probing (vs plain backtracking)"),
    ("no-cache", "line-solver cache (vs none)"),
]


def ablation_tables(results: list[str], csv: str, html: str, svg: str | None = None) -> None:
    """Speed-up of each optimisation: RUNS are bench CSVs of the variants, each in a folder named after its
    variant (`base`, `naive`, `sweep`, `no-probing`, `no-cache`)."""
    files: dict[str, list[str]] = {}
    for res in results:
        files.setdefault(Path(res).parent.name, []).append(res)
    data = {v: load_runs(f) for v, f in files.items()}
    if "base" not in data:
        raise InputError("the ablation needs a `base` variant")
    base = data["base"]
    rows = []
    for variant, label in COMPARISONS:
        if variant not in data:
            continue
        other = data[variant]
        for corpus in sorted(base["corpus"].unique()):
            b = base[base["corpus"] == corpus].set_index("name")
            o = other[other["corpus"] == corpus].set_index("name")
            names = [n for n in b.index if n in o.index]
            if not names:
                continue
            bt, ot = b.loc[names, "cpu_s"], o.loc[names, "cpu_s"]
            b_to = int((b.loc[names, "status"] == "timeout").sum())
            o_to = int((o.loc[names, "status"] == "timeout").sum())
            ratio = float(ot.sum() / bt.sum()) if bt.sum() > 0 else float("nan")
            per = (ot / bt.clip(lower=1e-6)).replace([np.inf, -np.inf], np.nan).dropna()
            rows.append({
                "optimisation": label, "puzzles": corpus, "n": len(names),
                "with it: total CPU s": float(bt.sum()), "without it: total CPU s": float(ot.sum()),
                "speed-up (total)": ratio,
                "speed-up (median per puzzle)": float(per.median()) if len(per) else float("nan"),
                "timeouts with": b_to, "timeouts without": o_to,
                "note": "lower bound (timeouts count at the limit)" if o_to > b_to else "",
            })
    df = pd.DataFrame(rows, columns=["optimisation", "puzzles", "n", "with it: total CPU s", "without it: total CPU s",
                                     "speed-up (total)", "speed-up (median per puzzle)", "timeouts with",
                                     "timeouts without", "note"])
    write_table(df, csv, html, title="Ablation: what each optimisation buys",
                note="speed-up = CPU time without the optimisation / with it, on the same puzzles, in one process per "
                     "(variant, puzzle set). Everything else is the full solver.")
    if svg:
        ablation_plot(df, svg)


def ablation_plot(df: pd.DataFrame, svg: str) -> None:
    fig, ax = plots.figure(width=8.0, height=4.2)
    if len(df):
        labels = [f"{r['optimisation'].split(' (')[0]}\n{r['puzzles']}" for _, r in df.iterrows()]
        ax.barh(range(len(df)), df["speed-up (total)"].to_numpy(), color="tab:blue")
        ax.set_yticks(range(len(df)))
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_xscale("log")
        ax.axvline(1.0, color="black", linewidth=0.8)
        for i, v in enumerate(df["speed-up (total)"].to_numpy()):
            if np.isfinite(v):
                ax.text(v, i, f" {v:.3g}x", va="center", fontsize=7)
    ax.set_xlabel("speed-up (CPU time without / with, log scale)")
    ax.set_title("Nonogram ablation")
    plots.save(fig, svg)


def gallery(results: list[str], paths: list[str], count: int, title: str, out: str) -> None:
    """Draw up to `count` solved puzzles of a corpus's bench CSVs (its chunks, in any order)."""
    from . import render
    from .experiments import load_all
    from .solver import Options, solve

    df = pd.concat([read_table(r, ("name", "status", "width", "height")) for r in results], ignore_index=True)
    df["name"] = df["name"].astype(str)
    solved = df[df["status"].isin(("unique", "multiple", "solved"))]
    # Prefer unique puzzles, then the larger ones, evenly spread over the corpus.
    solved = solved.assign(cells=solved["width"] * solved["height"])
    pick = solved.sort_values(["status", "cells", "name"], ascending=[False, False, True])
    chosen = list(pick.head(count)["name"])
    wanted = set(chosen)
    puzzles = {it.puzzle.name: it.puzzle for it in load_all(paths, None, keep_going=True)
               if it.puzzle is not None and it.puzzle.name in wanted}
    items = []
    for name in chosen:
        p = puzzles.get(name)
        if p is None:
            continue
        res = solve(p, Options(max_solutions=1, timeout=30))
        if res.solutions:
            items.append((name, p, res.solutions[0]))
    render.gallery(items, out, title=title)

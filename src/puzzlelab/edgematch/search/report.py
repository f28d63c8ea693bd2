"""Tables and figures of the beam-search experiments, from the sweep results of the pipeline.

Each run file is a `puzzlelab edgematch sweep --out` JSON (boards included); its timing file holds
the wall/CPU seconds. Everything written here is deterministic except the time columns, which are
measurements (the tables are report outputs, not hashed artifacts).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ...lab import canonical, plots
from ...lab.errors import InputError
from ...lab.tables import write_table
from ..board import board_from_json
from ..score import mismatch_cells

# The article's figures (Spanish seed 001), row order, matched edges out of 480, one core.
ARTICLE_WIDTH = {
    2048: "about 449; 1.8 s", 4096: "450 to 453; 2.3 s (32 seeds elsewhere: 446/450/452)",
    8192: "452 to 453; 4.8 s", 16384: "452 to 455; 10.4 s (32 seeds: 451/453/455)",
    32768: "451/453/455 (32 seeds)", 65536: "454/454.5/455 (4 runs)",
}

# Headline figures of the article for the scorecard (official set, matched edges out of 480).
# Beam width: the median matched edges per width (32 seeds at 4096 and 16384, the table elsewhere).
SCORE_WIDTH = {2048: ("about 449", 449.0), 4096: ("446 / 450 / 452 (32 seeds)", 450.0),
               8192: ("452 to 453", 452.5), 16384: ("451 / 453 / 455 (32 seeds)", 453.0)}
WIDTH_CEILING = 455  # no width of the article's grid gave a raw board above 455
# Equal node budget (20 to 25 M nodes): depth reached (cells) and matched edges, per hints and algo.
VERSUS = {("none", "dfs"): (213, 368), ("none", "lds"): (203, 349), ("none", "beam"): (256, 455),
          ("all", "dfs"): (190, 322), ("all", "beam"): (256, 450)}
VERSUS_NODES = 20_000_000
# Board factory: 160 seeds, 19 boards at 455 and none at 456; the 94 boards >= 453 pairwise distinct in
# their first 13 rows; about 1160 boards per hour on four cores.
FACTORY_WIDTH, FACTORY_BEST, FACTORY_TOP, FACTORY_SHARE, FACTORY_PER_HOUR = 16384, 455, 453, 94 / 160, 1160.0
# Visiting orders: row order ahead of spiral and border-first by 4 to 6 matched edges (medians), W >= 2048.
ORDER_MARGIN, ORDER_WIDTH = (4, 6), 2048
# Gumbel noise: the range of raw boards per temperature (three seeds each), judged at the full setting's width.
TEMPERATURES, TIES_WIDTH = {0.1: (446, 453), 0.5: (438, 441), 2.0: (240, 252)}, 4096
DEDUP_WIDTH = 16384  # the article's dedup sweep went to wide beams; narrower sweeps are shown, not judged
# Backtracker speed on the official set, placements per second on one core: this engine's goal, and the
# published figures of the peers (Verhaard's solver, a Rust port of Blackwood's, McGavin's generated C).
SPEED_GOAL = 50e6
SPEED_PEERS = "24 / 68 / 109 M/s (Verhaard / Blackwood, Rust port / McGavin, generated C)"


def load_runs(run_files: list[str], timing_files: list[str]) -> pd.DataFrame:
    """One row per (run file, seed) with the search parameters, score, depth, nodes and times.

    `timing_files[k]` (the sweep's --timing file) belongs to `run_files[k]`; its runs are in the
    same order as the run file's.
    """
    if timing_files and len(timing_files) != len(run_files):
        raise InputError(f"{len(run_files)} result files but {len(timing_files)} timing files")
    rows = []
    for k, f in enumerate(run_files):
        obj = canonical.read_json(f)
        if not isinstance(obj, dict) or "runs" not in obj:
            raise InputError("not a result of `puzzlelab edgematch sweep`", f, None)
        tim = canonical.read_json(timing_files[k]).get("runs", []) if timing_files else []
        for j, r in enumerate(obj["runs"]):
            row = {key: v for key, v in r.items() if key != "board"}
            row["instance"] = obj.get("label") or obj["puzzle"]
            row["puzzle"] = obj["puzzle"]
            row["file"] = f
            row["board"] = r["board"]
            t = tim[j] if j < len(tim) else {}
            row["time_s"] = t.get("time_s", np.nan)
            row["cpu_time_s"] = t.get("cpu_time_s", np.nan)
            rows.append(row)
    return pd.DataFrame(rows)


def _stats(g: pd.DataFrame) -> pd.Series:
    return pd.Series({
        "seeds": len(g), "min": int(g["score"].min()), "median": float(g["score"].median()),
        "max": int(g["score"].max()), "max_score": int(g["max_score"].iloc[0]),
        "median time per board (s, wall)": float(g["time_s"].median()),
        "median time per board (s, CPU)": float(g["cpu_time_s"].median()),
        "median nodes": float(g["nodes"].median()),
    })


def _key(board: dict, rows: int | None = None) -> bytes:
    cells = board["cells"] if rows is None else board["cells"][: rows * board["cols"]]
    return json.dumps(cells).encode()


def best_boards(df: pd.DataFrame, puzzles: dict, path: str | None) -> None:
    """One picture with the best board (first best seed) of every instance."""
    if not path:
        return
    from ..draw import draw_boards

    items = []
    for inst, g in df.groupby("instance", sort=True):
        g = g.sort_values(["score", "seed"], ascending=[False, True], kind="mergesort")
        best = g.iloc[0]
        what = {k: best[k] for k in ("algo", "width", "order", "dedup", "seed") if k in best and pd.notna(best[k])}
        title = f"{inst}: {best['score']}/{best['max_score']}\n" + ", ".join(f"{k} {v}" for k, v in what.items())
        items.append((puzzles[best["puzzle"]], board_from_json(best["board"]), title))
    draw_boards(items, path)


def width_report(df: pd.DataFrame, csv: str, html: str, svg: str) -> None:
    tab = df.groupby(["instance", "width"], sort=True).apply(_stats, include_groups=False).reset_index()
    tab["article (official set)"] = [ARTICLE_WIDTH.get(int(w), "") if "official" in i else ""
                                     for i, w in zip(tab["instance"], tab["width"], strict=False)]
    write_table(tab, csv, html, title="Beam width: score and time per board",
                note="Row order; seeded lottery among exactly equal scores; matched inner edges. Time per board is "
                     "the median over seeds (wall clock and CPU seconds of the process, one thread).")
    fig, (ax1, ax2) = plots.figure(10, 4, ncols=2)
    for inst, g in tab.groupby("instance"):
        ax1.errorbar(g["width"], g["median"], yerr=[g["median"] - g["min"], g["max"] - g["median"]], marker="o",
                     capsize=3, label=inst)
        ax2.plot(g["width"], g["median time per board (s, CPU)"], marker="o", label=inst)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("beam width W")
        ax.legend()
    ax1.set_ylabel("matched edges (median, min-max)")
    ax2.set_ylabel("CPU seconds per board")
    ax2.set_yscale("log")
    plots.save(fig, svg)


def orders_report(df: pd.DataFrame, puzzles: dict, csv: str, html: str, svg: str) -> None:
    tab = df.groupby(["instance", "order", "width"], sort=True).apply(_stats, include_groups=False).reset_index()
    insts = sorted(df["instance"].unique())
    orders = [o for o in ("row", "spiral", "border", "comb") if o in set(df["order"])]
    fig, axes = plots.figure(3.2 * len(orders), 3.2 * len(insts), nrows=len(insts), ncols=len(orders), squeeze=False)
    last_rows = []
    for a, inst in enumerate(insts):
        sub = df[df["instance"] == inst]
        puzzle = puzzles[sub["puzzle"].iloc[0]]
        wmax = sub["width"].max()
        for b, order in enumerate(orders):
            g = sub[(sub["order"] == order) & (sub["width"] == wmax)]
            heat = np.mean([mismatch_cells(puzzle, board_from_json(x)) for x in g["board"]], axis=0) / 2
            ax = axes[a][b]
            ax.grid(False)
            im = ax.imshow(heat, cmap="magma_r", vmin=0, vmax=max(0.5, float(heat.max())))
            ax.set_title(f"{inst}, {order}, W={wmax}", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
            total = heat.sum()
            rows = heat.shape[0]
            last_rows.append({"instance": inst, "order": order, "width": wmax,
                              "mismatched edges per board": float(total),
                              "share in last 3 rows": float(heat[rows - 3:].sum() / total) if total else 0.0,
                              "share in centre (inner half)": float(
                                  heat[rows // 4: rows - rows // 4, rows // 4: rows - rows // 4].sum() / total)
                              if total else 0.0})
    fig.colorbar(im, ax=axes, shrink=0.6, label="mismatched edges per cell (mean over seeds)")
    plots.save(fig, svg)
    wall = pd.DataFrame(last_rows)
    tab = tab.merge(wall, on=["instance", "order", "width"], how="left")
    write_table(tab, csv, html, title="Visiting orders: scores and where the mismatches land",
                note="Mismatch shares are computed on the boards of the widest setting (half of each unmatched "
                     "edge counted in each of its two cells).")


def _agreement(boards: list[dict]) -> float:
    """Mean number of cells holding the same piece in the same turn, over all pairs of boards."""
    arr = [np.array([json.dumps(c) for c in b["cells"]]) for b in boards]
    if len(arr) < 2:
        return float("nan")
    same = [(arr[i] == arr[j]).sum() for i in range(len(arr)) for j in range(i + 1, len(arr))]
    return float(np.mean(same))


def ties_report(df: pd.DataFrame, csv: str, html: str, svg: str) -> None:
    df = df.copy()
    tb = df["tie_break"] if "tie_break" in df else pd.Series(["lottery"] * len(df), index=df.index)
    df["variant"] = [f"temperature {t:g}" if t > 0 else (f"tie window {k}" if b in ("lottery", None) or pd.isna(b)
                                                          else f"{b.upper()} tie-break, tie window {k}")
                     for k, t, b in zip(df["tie_window"], df["temperature"], tb, strict=False)]
    rows = []
    for (inst, var), g in df.groupby(["instance", "variant"], sort=True):
        s = _stats(g)
        s["distinct boards"] = len({_key(b) for b in g["board"]})
        s["mean shared placements per pair"] = _agreement(list(g["board"]))
        rows.append({"instance": inst, "variant": var, **s.to_dict()})
    tab = pd.DataFrame(rows)
    write_table(tab, csv, html, title="Tie lottery, tie window and Gumbel noise",
                note="Diversity: distinct final boards among the seeds, and the mean number of cells two boards of "
                     "the same setting share (same piece, same turn).")
    insts = sorted(tab["instance"].unique())
    fig, axes = plots.figure(5 * len(insts), 4, ncols=len(insts), squeeze=False)
    for a, inst in enumerate(insts):
        g = df[df["instance"] == inst]
        variants = sorted(g["variant"].unique())
        axes[0][a].boxplot([g[g["variant"] == v]["score"] for v in variants], tick_labels=variants)
        axes[0][a].tick_params(axis="x", rotation=30, labelsize=7)
        axes[0][a].set_ylabel("matched edges")
        axes[0][a].set_title(inst)
    plots.save(fig, svg)


def dedup_report(df: pd.DataFrame, csv: str, html: str, svg: str) -> None:
    tab = df.groupby(["instance", "dedup", "width"], sort=True).apply(_stats, include_groups=False).reset_index()
    write_table(tab, csv, html, title="Deduplication of survivors: none, piece-set key, path key")
    insts = sorted(tab["instance"].unique())
    fig, axes = plots.figure(5 * len(insts), 4, ncols=len(insts), squeeze=False)
    for a, inst in enumerate(insts):
        ax = axes[0][a]
        for mode, g in tab[tab["instance"] == inst].groupby("dedup"):
            ax.plot(g["width"], g["median"], marker="o", label=f"dedup {mode}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("beam width W")
        ax.set_ylabel("median matched edges")
        ax.set_title(inst)
        ax.legend()
    plots.save(fig, svg)


def versus_report(df: pd.DataFrame, csv: str, html: str, svg: str) -> None:
    cols = ["instance", "hints", "algo", "seed", "depth", "score", "max_score", "nodes", "time_s", "cpu_time_s"]
    tab = df[cols].sort_values(["instance", "hints", "algo"], kind="mergesort").reset_index(drop=True)
    tab["cells"] = [int(b["rows"] * b["cols"]) for b in df.loc[tab.index, "board"]]
    write_table(tab, csv, html, title="Beam vs depth-first vs limited-discrepancy search at an equal node budget",
                note="depth = cells filled (hinted cells included); node = one placement tried (for the beam: one "
                     "child scored).")
    fig, (ax1, ax2) = plots.figure(10, 4, ncols=2)
    labels = [f"{i}\n{h}\n{a}" for i, h, a in zip(tab["instance"], tab["hints"], tab["algo"], strict=False)]
    colours = [{"beam": "tab:blue", "dfs": "tab:orange", "lds": "tab:green"}[a] for a in tab["algo"]]
    ax1.bar(range(len(tab)), tab["depth"], color=colours)
    ax2.bar(range(len(tab)), tab["score"], color=colours)
    for ax, what in ((ax1, "depth reached (cells)"), (ax2, "matched edges")):
        ax.set_xticks(range(len(tab)))
        ax.set_xticklabels(labels, fontsize=6)
        ax.set_ylabel(what)
    plots.save(fig, svg)


def factory_report(df: pd.DataFrame, csv: str, html: str, svg: str, family_rows: int) -> None:
    rows = []
    for inst, g in df.groupby("instance", sort=True):
        best = int(g["score"].max())
        hist = g["score"].value_counts().sort_index(ascending=False)
        top = g[g["score"] >= best - 2]
        fam_all = len({_key(b, family_rows) for b in g["board"]})
        fam_top = len({_key(b, family_rows) for b in top["board"]})
        per_board = float(g["cpu_time_s"].median())
        rows.append({"instance": inst, "seeds": len(g), "width": int(g["width"].iloc[0]), "best": best,
                     "histogram (score: boards)": ", ".join(f"{s}: {n}" for s, n in hist.items()),
                     f"families (distinct first {family_rows} rows), all boards": fam_all,
                     f"boards >= {best - 2}": len(top), "families among them": fam_top,
                     "median CPU s per board": per_board,
                     "boards per hour per core": 3600.0 / per_board if per_board > 0 else np.nan})
    write_table(pd.DataFrame(rows), csv, html, title="The beam as a board factory",
                note="A family = boards sharing their first rows; the article found all 94 of its boards scoring "
                     "453 or more pairwise different in their first 13 rows.")
    insts = sorted(df["instance"].unique())
    fig, axes = plots.figure(5 * len(insts), 3.5, ncols=len(insts), squeeze=False)
    for a, inst in enumerate(insts):
        g = df[df["instance"] == inst]
        counts = g["score"].value_counts().sort_index()
        axes[0][a].bar(counts.index, counts.values, color="tab:blue")
        axes[0][a].set_xlabel("matched edges")
        axes[0][a].set_ylabel("boards")
        axes[0][a].set_title(f"{inst}, W={int(g['width'].iloc[0])}, {len(g)} seeds")
    plots.save(fig, svg)


def speed_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, algo): runs, nodes per run, CPU seconds and nodes per CPU second (best and median run)."""
    rows = []
    for (inst, algo), g in df.groupby(["instance", "algo"], sort=True):
        rate = g["nodes"] / g["cpu_time_s"]
        rows.append({"instance": inst, "search": algo, "runs": len(g), "nodes per run": float(g["nodes"].median()),
                     "CPU s per run (min)": float(g["cpu_time_s"].min()),
                     "M nodes per CPU s (best run)": float(rate.max() / 1e6),
                     "M nodes per CPU s (median)": float(rate.median() / 1e6)})
    return pd.DataFrame(rows)


def speed_report(df: pd.DataFrame, csv: str, html: str, svg: str) -> None:
    tab = speed_table(df)
    write_table(tab, csv, html, title="Search speed: placements (DFS, LDS) and nodes (beam) per CPU second",
                note="One single-threaded process per sweep; a DFS/LDS node is one placement tried, a beam node one "
                     "child counted. Best run = the fastest of the seeds (the first run of a process includes "
                     "compiling the kernel when numba's cache is cold). Peers' published figures (official set, "
                     "one core): " + SPEED_PEERS + ".")
    fig, ax = plots.figure(7, 4)
    labels = [f"{i}\n{a}" for i, a in zip(tab["instance"], tab["search"], strict=True)]
    ax.bar(range(len(tab)), tab["M nodes per CPU s (best run)"], color="C0")
    ax.set_xticks(range(len(tab)), labels, fontsize=7)
    for value, name in ((24, "Verhaard 24"), (68, "Blackwood (Rust) 68"), (109, "McGavin 109")):
        ax.axhline(value, color="grey", linestyle=":", linewidth=0.8)
        ax.annotate(name, (1.0, value), xycoords=("axes fraction", "data"), fontsize=7, color="grey", ha="right",
                    va="bottom")
    ax.set_ylabel("M placements (nodes) per CPU second")
    plots.save(fig, svg)


def speed_scorecard(df: pd.DataFrame, link: str) -> list:
    """placements_per_s of DFS and LDS on the official set beside the peers' published figures."""
    from ...lab.scorecard import Row, verdict

    off = _official(df)
    tab = speed_table(off) if len(off) else pd.DataFrame(columns=["search"])
    rows = []
    for algo in ("dfs", "lds"):
        fig = f"placements_per_s: {algo.upper()} on the official set, one core (best run)"
        g = tab[tab["search"] == algo]
        if not len(g):
            rows.append(Row("001", fig, "50 M/s (goal)", "not run here", peer=SPEED_PEERS, link=link))
            continue
        rate = float(g["M nodes per CPU s (best run)"].iloc[0]) * 1e6
        rows.append(Row("001", fig, "50 M/s (goal)", f"{rate / 1e6:.1f} M/s", peer=SPEED_PEERS,
                        verdict=verdict(rate, SPEED_GOAL, rel_tol=0.05), link=link))
    return rows


def _official(df: pd.DataFrame) -> pd.DataFrame:
    """The runs on the official set (the article's instance), or none."""
    return df[df["instance"] == "official"] if len(df) else df


def width_scorecard(df: pd.DataFrame, link: str) -> list:
    """Median matched edges per width on the official set against the article, and the 455 ceiling."""
    from ...lab.scorecard import Row, verdict

    off = _official(df)
    rows = []
    for width, (article, median) in SCORE_WIDTH.items():
        g = off[off["width"] == width] if len(off) else off
        fig = f"raw board score, W={width}: min / median / max (matched edges of 480)"
        if not len(g):
            rows.append(Row("001", fig, article, "not run here (width not in this configuration)", link=link))
            continue
        s = _stats(g)
        ours = f"{int(s['min'])} / {s['median']:g} / {int(s['max'])} ({len(g)} seeds)"
        rows.append(Row("001", fig, article, ours, verdict=verdict(float(s["median"]), median, abs_tol=1.0),
                        link=link))
    fig = "best raw board at any width (width alone never above 455)"
    if len(off):
        best = int(off["score"].max())
        at = int(off.sort_values(["score", "width"], ascending=[False, True], kind="mergesort")["width"].iloc[0])
        # Below the article's widest widths a board under 455 says nothing about the ceiling.
        judged = best >= WIDTH_CEILING or int(off["width"].max()) >= max(SCORE_WIDTH)
        rows.append(Row("001", fig, str(WIDTH_CEILING), f"{best} (first at W={at})" + (
            "" if judged else f"; W={max(SCORE_WIDTH)} not run here"),
                        verdict=verdict(float(best), float(WIDTH_CEILING)) if judged else "not run here",
                        link=link))
    else:
        rows.append(Row("001", fig, str(WIDTH_CEILING), "not run here (no official set)", link=link))
    return rows


def versus_scorecard(df: pd.DataFrame, link: str) -> list:
    """Depth reached at the article's equal node budget, per search and hints, on the official set."""
    from ...lab.scorecard import Row, verdict

    off = _official(df)
    rows = []
    for (hints, algo), (depth, score) in VERSUS.items():
        fig = f"{algo.upper() if algo != 'beam' else 'beam'} at an equal node budget, hints {hints}: depth (cells)"
        article = f"depth {depth}/256, {score} matched (20-25 M nodes)"
        g = off[(off["hints"] == hints) & (off["algo"] == algo)] if len(off) else off
        if not len(g):
            rows.append(Row("001", fig, article, "not run here (no official set or setting)", link=link))
            continue
        r = g.sort_values("seed", kind="mergesort").iloc[0]
        budget = int(r["nodes"]) if algo == "beam" else int(r["budget"])
        ours = f"depth {int(r['depth'])}/{int(r['board']['rows'] * r['board']['cols'])}, {int(r['score'])} matched " \
               f"({budget / 1e6:.3g} M nodes)"
        if algo != "beam" and budget < VERSUS_NODES:
            rows.append(Row("001", fig, article, ours + "; the article's budget not run here", link=link))
            continue
        # The claim is where each search stalls: within 10 cells counts as reproduced; the beam must finish.
        rows.append(Row("001", fig, article, ours, link=link,
                        verdict=verdict(float(r["depth"]), float(depth), abs_tol=0 if algo == "beam" else 10)))
    return rows


def factory_scorecard(df: pd.DataFrame, link: str, family_rows: int) -> list:
    """The factory's best board, its distinct families of strong boards and its rate (the refined 460: beam_refine).

    The article's factory ran at W=16384: at another width the figures are shown, not judged.
    """
    from ...lab.scorecard import Row, verdict

    off = _official(df)
    best_fig = f"board factory: best raw board (W={FACTORY_WIDTH}, 160 seeds)"
    best_article = "455 (19 of 160 boards), none 456"
    if not len(off):
        return [Row("001", best_fig, best_article, "not run here (no official set)", link=link)]
    width = int(off["width"].iloc[0])
    same = width == FACTORY_WIDTH
    other = "" if same else f"; W={FACTORY_WIDTH} not run here"
    best = int(off["score"].max())
    at_best = int((off["score"] == best).sum())
    top = off[off["score"] >= FACTORY_TOP]
    families = len({_key(b, family_rows) for b in top["board"]})
    share = len(top) / len(off)
    per_board = float(off["cpu_time_s"].median())
    per_hour = 4 * 3600 / per_board if per_board > 0 else None
    judge = (lambda v: v) if same else (lambda v: "not run here")
    return [
        Row("001", best_fig, best_article, f"{best} ({at_best} of {len(off)} boards, W={width}){other}",
            verdict=judge(verdict(float(best), float(FACTORY_BEST))), link=link),
        Row("001", f"board factory: boards >= {FACTORY_TOP}, distinct in the first {family_rows} rows",
            "94 of 160 boards, 94 families", f"{len(top)} of {len(off)} boards, {families} families{other}",
            verdict=judge("missed" if families < len(top) else verdict(share, FACTORY_SHARE, rel_tol=0.25)),
            link=link),
        Row("001", "board factory: boards per hour (four cores)", f"about {FACTORY_PER_HOUR:.0f}",
            (f"about {per_hour:.0f} (4 x one core, median CPU time per board){other}" if per_hour else "not measured"),
            verdict=judge(verdict(per_hour, FACTORY_PER_HOUR, rel_tol=0.2)) if per_hour else "not run here",
            link=link),
    ]


def orders_scorecard(df: pd.DataFrame, link: str) -> list:
    """Row order against spiral and border-first: the margin of the medians at the widest width."""
    from ...lab.scorecard import Row

    off = _official(df)
    rows = []
    lo, hi = ORDER_MARGIN
    for other in ("spiral", "border"):
        fig = f"row order ahead of {other} order (median matched edges, widest width)"
        article = f"+{lo} to +{hi}"
        if not len(off) or not {"row", other} <= set(off["order"]):
            rows.append(Row("001", fig, article, "not run here", link=link))
            continue
        width = int(off["width"].max())
        g = off[off["width"] == width]
        margin = float(g[g["order"] == "row"]["score"].median() - g[g["order"] == other]["score"].median())
        judged = width >= ORDER_WIDTH
        ours = f"{margin:+g} at W={width}" + ("" if judged else f"; W >= {ORDER_WIDTH} not run here")
        good = lo - 1 <= margin <= hi + 1
        rows.append(Row("001", fig, article, ours, link=link,
                        verdict=("reproduced" if good else "missed") if judged else "not run here"))
    return rows


def ties_scorecard(df: pd.DataFrame, link: str) -> list:
    """Gumbel noise: the range of raw boards per temperature; reproduced when it overlaps the article's."""
    from ...lab.scorecard import Row

    off = _official(df)
    rows = []
    for temp, (lo, hi) in TEMPERATURES.items():
        fig = f"Gumbel noise at temperature {temp:g}: raw boards, min to max"
        article = f"{lo} to {hi} (3 seeds)"
        g = off[off["temperature"] == temp] if len(off) else off
        if not len(g):
            rows.append(Row("001", fig, article, "not run here", link=link))
            continue
        width = int(g["width"].iloc[0])
        a, b = int(g["score"].min()), int(g["score"].max())
        judged = width >= TIES_WIDTH
        ours = f"{a} to {b} ({len(g)} seeds, W={width})" + ("" if judged else f"; W={TIES_WIDTH} not run here")
        overlap = a <= hi and b >= lo
        rows.append(Row("001", fig, article, ours, link=link,
                        verdict=("reproduced" if overlap else "missed") if judged else "not run here"))
    return rows


def dedup_scorecard(df: pd.DataFrame, link: str) -> list:
    """Survivor dedup: the piece-set key's width curve dips, the path key's rises monotonically."""
    from ...lab.scorecard import Row

    off = _official(df)
    rows = []
    claims = {"pieces": ("piece-set key: median score against width", "U-shaped (446, 453, then 449)", False),
              "path": ("path key: median score against width", "rises monotonically (to 455)", True)}
    for mode, (fig, article, monotone) in claims.items():
        g = off[off["dedup"] == mode] if len(off) else off
        if not len(g):
            rows.append(Row("001", fig, article, "not run here", link=link))
            continue
        med = g.groupby("width", sort=True)["score"].median()
        rises = bool((med.diff().dropna() >= 0).all())
        judged = len(med) >= 3 and int(med.index.max()) >= DEDUP_WIDTH
        ours = ", ".join(f"{v:g} at W={w}" for w, v in med.items()) + (
            "" if judged else f"; 3 widths to W={DEDUP_WIDTH} not run here")
        rows.append(Row("001", fig, article, ours, link=link,
                        verdict=("reproduced" if rises == monotone else "missed") if judged else "not run here"))
    return rows


# The experiments with scorecard rows: (runs, link, family_rows) -> rows.
SCORECARDS = {
    "beam_width": lambda df, link, _rows: width_scorecard(df, link),
    "beam_vs_dfs_lds": lambda df, link, _rows: versus_scorecard(df, link),
    "beam_orders": lambda df, link, _rows: orders_scorecard(df, link),
    "beam_ties": lambda df, link, _rows: ties_scorecard(df, link),
    "beam_dedup": lambda df, link, _rows: dedup_scorecard(df, link),
    "beam_factory": factory_scorecard,
    "edgematch_speed": lambda df, link, _rows: speed_scorecard(df, link),
}


def load_puzzles(paths: list[str], names) -> dict:
    """Puzzle name -> Puzzle, for the puzzles the runs name (each must be among `paths`)."""
    from ..puzzle import load_puzzle

    loaded = {}
    for path in paths:
        puzzle = load_puzzle(path)
        loaded[puzzle.name] = puzzle
    missing = sorted(set(names) - set(loaded))
    if missing:
        raise InputError(f"no puzzle file given for {', '.join(missing)} (pass them with --puzzles)")
    return loaded


def run(experiment: str, run_files: list[str], timing_files: list[str], puzzle_files: list[str], csv: str,
        html: str, svg: str | None, boards: str | None, family_rows: int = 13, scorecard: str | None = None) -> None:
    df = load_runs(run_files, timing_files)
    needs_puzzles = boards or experiment == "beam_orders"
    puzzles = load_puzzles(puzzle_files, df["puzzle"].unique()) if needs_puzzles and len(df) else {}
    if experiment == "beam_width":
        width_report(df, csv, html, svg)
    elif experiment == "beam_orders":
        orders_report(df, puzzles, csv, html, svg)
    elif experiment == "beam_ties":
        ties_report(df, csv, html, svg)
    elif experiment == "beam_dedup":
        dedup_report(df, csv, html, svg)
    elif experiment == "beam_vs_dfs_lds":
        versus_report(df, csv, html, svg)
    elif experiment == "beam_factory":
        factory_report(df, csv, html, svg, family_rows)
    elif experiment == "edgematch_speed":
        speed_report(df, csv, html, svg)
    else:
        raise ValueError(experiment)
    best_boards(df, puzzles, boards)
    if scorecard:
        from ...lab.scorecard import write_rows

        write_rows(SCORECARDS[experiment](df, html, family_rows), scorecard)

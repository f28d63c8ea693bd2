"""Table, figures and scorecard rows of `beam_refine`: polished beam boards, score against nodes and CPU time.

Each run is a `puzzlelab edgematch refine --out` JSON; its timing file holds the CPU time of the run
and of each improvement. The score trajectory by nodes is deterministic (its figure has no
`.timing.` in its name); the table and the trajectory by CPU time hold measurements.
"""

from __future__ import annotations

import pandas as pd

from ...lab import canonical, plots
from ...lab.errors import InputError
from ...lab.tables import write_table

# The seed article (001) and the field, official set, matched edges out of 480.
ARTICLE_REFINED = 460  # the article's engine after destroy-and-repair polishing (start piece)
E2DEV_RAW_REPAIRED = 461  # eternity2.dev: a 457 raw board repaired to 461 (all five clues)
PALIMPSEST = 463  # eternity2.dev's PALIMPSEST, start piece only
RECORD_FIVE_CLUES = 464  # best known board with all five clues
RECORD = 470  # best known board on the real puzzle (Blackwood 2021)
GOAL = 465  # the engine's own goal: >= 465 within one CPU-hour per board
JUDGED_WIDTH = 4096  # the article polished boards of its width table (4096..16384); narrower ones are shown only


def load_runs(run_files: list[str], timing_files: list[str]) -> pd.DataFrame:
    """One row per refine run: instance (label), hints, width, seed, scores, nodes, trajectory, CPU time."""
    if timing_files and len(timing_files) != len(run_files):
        raise InputError(f"{len(run_files)} result files but {len(timing_files)} timing files")
    rows = []
    for k, f in enumerate(run_files):
        rec = canonical.read_json(f)
        if not isinstance(rec, dict) or "start_score" not in rec or "improvements" not in rec:
            raise InputError("not a result of `puzzlelab edgematch refine`", f, None)
        t = canonical.read_json(timing_files[k]) if timing_files else {}
        rows.append({"instance": rec.get("label") or rec["puzzle"], "hints": rec["hints"],
                     "width": rec.get("beam_width"), "seed": rec["seed"], "beam score": rec["start_score"],
                     "refined score": rec["score"], "gain": rec["score"] - rec["start_score"],
                     "nodes": rec["nodes"], "moves": rec["moves"], "improvements": rec["improvements"],
                     "cpu_time_s": t.get("cpu_time_s"), "improvement_cpu_time_s": t.get("improvement_cpu_time_s")})
    return pd.DataFrame(rows)


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, hints, width): beam and refined scores (median, max), gain, nodes and CPU time per run."""
    out = []
    for (inst, hints, width), g in df.groupby(["instance", "hints", "width"], sort=True, dropna=False):
        cpu = pd.to_numeric(g["cpu_time_s"], errors="coerce")
        out.append({"instance": inst, "hints": hints, "beam width": width, "runs": len(g),
                    "beam score (median)": float(g["beam score"].median()), "beam best": int(g["beam score"].max()),
                    "refined (median)": float(g["refined score"].median()),
                    "refined best": int(g["refined score"].max()),
                    "gain (median)": float(g["gain"].median()), "nodes per run": int(g["nodes"].median()),
                    "CPU s per run (median)": float(cpu.median()) if cpu.notna().any() else None})
    return pd.DataFrame(out)


def _steps(start: int, improvements, xs) -> tuple[list, list]:
    """A step curve: x positions and the score reached by each (the start score before the first)."""
    xv, yv = [0.0], [start]
    for x, (_, score) in zip(xs, improvements, strict=True):
        xv += [float(x), float(x)]
        yv += [yv[-1], score]
    return xv, yv


def plot_trajectories(df: pd.DataFrame, path: str, by: str) -> None:
    """Score against nodes (`by` = "nodes") or CPU seconds ("cpu"), one step curve per run."""
    fig, ax = plots.figure(8, 4.5)
    colours = {}
    for _, r in df.sort_values(["instance", "hints", "width", "seed"]).iterrows():
        key = f"{r['instance']} ({r['hints']}, W={r['width']})"
        colour = colours.setdefault(key, f"C{len(colours) % 10}")
        if by == "nodes":
            xs = [n for n, _ in r["improvements"]]
            end = r["nodes"]
        else:
            xs = list(r["improvement_cpu_time_s"] or [])
            end = r["cpu_time_s"]
            if len(xs) != len(r["improvements"]) or end is None:
                continue
        xv, yv = _steps(int(r["beam score"]), r["improvements"], xs)
        xv.append(float(end))
        yv.append(yv[-1])
        ax.plot(xv, yv, color=colour, drawstyle="default", linewidth=1.2,
                label=key if key not in ax.get_legend_handles_labels()[1] else None)
    official = df["instance"].astype(str).str.contains("official")
    if official.any():
        for value, name in ((ARTICLE_REFINED, "article 460"), (PALIMPSEST, "PALIMPSEST 463"),
                            (RECORD_FIVE_CLUES, "five-clue record 464")):
            ax.axhline(value, color="grey", linestyle=":", linewidth=0.8)
            ax.annotate(name, (0, value), xycoords=("axes fraction", "data"), fontsize=7, color="grey",
                        va="bottom")
    ax.set_xlabel("nodes (placements tried)" if by == "nodes" else "CPU seconds")
    ax.set_ylabel("matched edges of the best board")
    if len(df):
        ax.legend(fontsize=7, loc="lower right")
    plots.save(fig, path)


def scorecard_rows(df: pd.DataFrame, link: str) -> list:
    """Seed 001's refined 460 and the field's figures (eternity2.dev 461/463, records 464 and 470) beside ours."""
    from ...lab.scorecard import Row, verdict

    off = df[df["instance"].astype(str).str.contains("official")] if len(df) else df
    rows = []

    def best_of(hints: str):
        g = off[off["hints"] == hints] if len(off) else off
        if not len(g):
            return None, ""
        b = g.loc[g["refined score"].idxmax()]
        cpu = b.get("cpu_time_s")
        cpu = "" if pd.isna(cpu) else (f", {cpu:.0f} CPU s" if cpu < 120 else f", {cpu / 60:.0f} CPU min")
        text = (f"{int(b['refined score'])} (beam {int(b['beam score'])} at W={b['width']}, {int(b['nodes']):.1e} "
                f"nodes{cpu}; best of {len(g)} board{'s' if len(g) > 1 else ''})")
        if int(g["width"].max()) < JUDGED_WIDTH:  # below the article's scale: shown, not judged
            return None, text + f"; W >= {JUDGED_WIDTH} not run here"
        return int(b["refined score"]), text

    start, start_text = best_of("start")
    clues, clues_text = best_of("all")
    missing = "not run here (no official set with these hints)"
    rows.append(Row("001", "score after destroy-and-repair polishing (start piece)", str(ARTICLE_REFINED),
                    start_text or missing, verdict=verdict(start, ARTICLE_REFINED) if start else "not run here",
                    link=link))
    rows.append(Row("001", "eternity2.dev: raw board repaired (all five clues)", f"{E2DEV_RAW_REPAIRED} (peer)",
                    clues_text or missing, peer=str(E2DEV_RAW_REPAIRED),
                    verdict=verdict(clues, E2DEV_RAW_REPAIRED) if clues else "not run here", link=link))
    rows.append(Row("001", "eternity2.dev PALIMPSEST (start piece only)", f"{PALIMPSEST} (peer)",
                    start_text or missing, peer=str(PALIMPSEST),
                    verdict=verdict(start, PALIMPSEST) if start else "not run here", link=link))
    rows.append(Row("001", "best known board with all five clues", f"{RECORD_FIVE_CLUES} (record)",
                    clues_text or missing, peer=str(RECORD_FIVE_CLUES),
                    verdict=verdict(clues, RECORD_FIVE_CLUES) if clues else "not run here", link=link))
    best = max([s for s in (start, clues) if s is not None], default=None)
    best_text = (start_text if best == start else clues_text) if best else (start_text or clues_text or missing)
    rows.append(Row("001", "best known board (Blackwood 2021)", f"{RECORD} (record)", best_text, peer=str(RECORD),
                    verdict=verdict(best, RECORD) if best else "not run here", link=link))
    return rows


def run(table: str, run_files: list[str], timing_files: list[str], csv: str, html: str, svg: str | None,
        scorecard: str | None, nodes_svg: str | None = None) -> None:
    if table != "beam_refine":
        raise ValueError(table)
    df = load_runs(run_files, timing_files)
    tab = summary(df) if len(df) else pd.DataFrame(columns=["instance"])
    write_table(tab, csv, html, title="Destroy-and-repair polishing of beam boards",
                note="Each run polishes one beam board (row order, seeded lottery) for a fixed node budget; "
                     "the score never drops below the beam board's. Matched inner edges out of the maximum; CPU "
                     "seconds of the refine process, one thread.")
    if svg:
        plot_trajectories(df, svg, "cpu")
    if nodes_svg:
        plot_trajectories(df, nodes_svg, "nodes")
    if scorecard:
        from ...lab.scorecard import write_rows

        write_rows(scorecard_rows(df, html), scorecard)


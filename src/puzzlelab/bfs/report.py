"""Tables and plots of the bfs experiments (aggregation steps of rules/bfs.smk).

Every run writes an artifact `X.json` and its measurements `X.timing.json` next to it; these
functions read both and write CSV + HTML tables (lab.tables) and SVG plots (lab.plots).
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pandas as pd

from puzzlelab.lab import canonical
from puzzlelab.lab.tables import write_table

from .published import compare_layers, read_reference_file, reference_for


def timing_path(path: str | Path) -> Path:
    p = Path(path)
    return p.with_name(p.name[: -len(".json")] + ".timing.json")


def load(path: str | Path) -> tuple[dict, dict]:
    """(artifact, timing) of one run; the timing is {} when its file is missing."""
    data = canonical.read_json(path)
    t = timing_path(path)
    return data, (canonical.read_json(t) if t.exists() else {})


def _mib(n: float) -> float:
    return n / (1 << 20)


# --- bfs_layers -----------------------------------------------------------------------------------
def _layer_rows(runs: list[str], reference: str | None) -> tuple[list[dict], list[dict]]:
    """(one row per search, one row per depth of every search) against the published counts."""
    corpus = read_reference_file(reference) if reference else None
    summary, detail = [], []
    for path in runs:
        data, timing = load(path)
        dom = data["domain"]
        ref = reference_for(dom, corpus)
        marks = compare_layers(data["layers"], ref, data["complete"])
        for d, (n, mark) in enumerate(zip(data["layers"], marks, strict=False)):
            published = ref.values[d] if ref is not None and ref.kind == "layers" and d < len(ref.values) else None
            detail.append({"domain": dom, "depth": d, "states": n, "published": published, "equal": mark})
        checked = [m for m in marks if m != "—"]
        if ref is not None and ref.kind == "goal_depth":
            ndisc = int(dom.split(":")[1])
            want = ref.values[ndisc] if ndisc < len(ref.values) else None
            got = data.get("goal_depth")
            verdict = "—" if want is None else ("yes" if got == want else "NO")
            note = f"start->goal distance {got} vs published {want}; all {4 ** ndisc:,} states = 4^N: " + \
                   ("yes" if data["states"] == 4**ndisc and data["complete"] else "NO")
        else:
            verdict = "—" if not checked else ("yes" if all(m == "yes" for m in checked) else "NO")
            note = f"{len(checked)} of {len(marks)} depths compared"
            if ref is not None and data["complete"] and len(ref.values) == len(data["layers"]):
                note += "; same number of depths"
            elif ref is not None and data["complete"]:
                note += f"; published has {len(ref.values)} depths"
        summary.append({
            "domain": dom, "states": data["states"], "max depth": data["max_depth"],
            "exhausted": "yes" if data["complete"] else "no", "equal to published": verdict,
            "reference": ref.source if ref is not None else "none available here", "check": note,
            "bits/state": data["bits_per_state"], "time (s)": timing.get("time_s"), "cpu (s)": timing.get("cpu_s"),
            "peak RSS (MiB)": _mib(timing.get("peak_rss_bytes", 0)),
        })
    return summary, detail


def layers_report(runs: list[str], csv: str, html: str, svg: str | None = None, reference: str | None = None) -> None:
    summary, _ = _layer_rows(runs, reference)
    bad = sum(1 for r in summary if r["equal to published"] == "NO")
    note = (f"{len(summary)} searches; {sum(1 for r in summary if r['equal to published'] == 'yes')} equal to the "
            f"published counts, {bad} different, the rest without a published sequence here.")
    write_table(pd.DataFrame(summary), csv, html, title="bfs_layers: layer counts against OEIS", note=note)


def depths_report(runs: list[str], csv: str, html: str, svg: str | None = None, reference: str | None = None) -> None:
    _, detail = _layer_rows(runs, reference)
    write_table(pd.DataFrame(detail), csv, html, title="bfs_layers: every depth",
                note="states = new states at that exact depth; published = the OEIS value; equal = yes/NO/— (none).")


# --- bfs_codecs -----------------------------------------------------------------------------------
def codec_runs_report(runs: list[str], csv: str, html: str, svg: str | None = None,
                      reference: str | None = None) -> None:
    run_rows = []
    for path in runs:
        data = canonical.read_json(path)
        r = data["runs"]
        row = {"domain": data["domain"], "depth expanded": r["depth"], "parents": r["parents"],
               "children": r["children"], "run states": r["run_states"], "chunk": data["chunk_states"]}
        row.update(r["codecs"])
        run_rows.append(row)
    write_table(pd.DataFrame(run_rows), csv, html, title="bfs_codecs: bits per state of the frontier runs",
                note="Sorted, deduplicated chunk runs of children of the widest layer (before the merge).")


def codecs_report(runs: list[str], csv: str, html: str, svg: str | None = None, reference: str | None = None) -> None:
    rows = []
    datas = [canonical.read_json(p) for p in runs]
    for data in datas:
        for rec in data["visited"]:
            row = {"domain": data["domain"], "depth": rec["depth"], "states": rec["states"],
                   "raw": rec["raw_bits"], "bound (key space)": rec["bound_key_bits"],
                   "bound (state space)": rec["bound_space_bits"], "Elias-Fano": rec["elias_fano_bits"]}
            row.update(rec["codecs"])
            rows.append(row)
    write_table(pd.DataFrame(rows), csv, html, title="bfs_codecs: bits per state of the visited set",
                note="Visited set after each depth, sorted by key byte order le or be, encoded in ~1 MB blocks. "
                     "Bounds: log2 C(U, n) / n for an arbitrary n-subset of the key space U = 256^width or of "
                     "the reachable state space.")
    if svg:
        _codecs_plot(datas, svg)


def _codecs_plot(datas: list[dict], svg: str) -> None:
    from puzzlelab.lab.plots import figure, save

    n = max(1, len(datas))
    cols = min(3, n)
    nrows = (n + cols - 1) // cols
    fig, axes = figure(4.2 * cols, 3.4 * nrows, nrows=nrows, ncols=cols, squeeze=False)
    styles = {"raw": ":", "zstd": "--", "delta-zstd": "-.", "rowfilter": (0, (1, 1)), "rowfilter-zstd": "-"}
    colors = {"raw": "tab:gray", "zstd": "tab:orange", "delta-zstd": "tab:green", "rowfilter": "tab:purple",
              "rowfilter-zstd": "tab:blue"}
    for ax, data in zip(axes.flat, datas, strict=False):
        xs = [rec["states"] for rec in data["visited"]]
        names = sorted({k.split("/")[0] for rec in data["visited"] for k in rec["codecs"]})
        for name in names:
            for order in ("le", "be"):
                key = f"{name}/{order}"
                ys = [rec["codecs"].get(key) for rec in data["visited"]]
                if any(y is None for y in ys) or name == "raw" and order == "be":
                    continue
                ax.plot(xs, ys, linestyle=styles.get(name, "-"), color=colors.get(name), markersize=3,
                        marker="o" if order == "le" else "x", label=f"{name} ({order})",
                        alpha=1.0 if order == "le" else 0.55)
        ax.plot(xs, [rec["bound_key_bits"] for rec in data["visited"]], color="black", lw=1, label="bound, key space")
        if data["visited"] and data["visited"][0]["bound_space_bits"] is not None:
            ax.plot(xs, [rec["bound_space_bits"] for rec in data["visited"]], color="grey", lw=1,
                    label="bound, state space")
        ax.plot(xs, [rec["elias_fano_bits"] for rec in data["visited"]], color="brown", lw=1, ls="--",
                label="Elias-Fano")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(data["domain"], fontsize=9)
        ax.set_xlabel("states in the visited set")
        ax.set_ylabel("bits per state")
    for ax in list(axes.flat)[len(datas):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=7, bbox_to_anchor=(0.5, -0.02 - 0.04 * nrows))
    fig.tight_layout()
    save(fig, svg)


# --- bfs_dedup ------------------------------------------------------------------------------------
def dedup_report(runs: list[str], csv: str, html: str, svg: str | None = None, reference: str | None = None) -> None:
    groups: dict[tuple[str, str], list[tuple[dict, dict]]] = {}
    for path in runs:
        data, timing = load(path)
        groups.setdefault((data["domain"], data.get("dedup", "sortmerge")), []).append((data, timing))
    rows = []
    for dom in sorted({d for d, _ in groups}):
        sm = groups.get((dom, "sortmerge"), [])
        hs = groups.get((dom, "hash"), [])
        if not sm or not hs:
            continue

        def best(g, key):
            vals = [t.get(key) for _, t in g if t.get(key) is not None]
            return min(vals) if vals else float("nan")

        def med(g, key):
            vals = [t.get(key) for _, t in g if t.get(key) is not None]
            return statistics.median(vals) if vals else float("nan")

        same = all(d["layers"] == sm[0][0]["layers"] for d, _ in sm + hs)
        rows.append({
            "domain": dom, "states": sm[0][0]["states"], "repeats": len(sm),
            "sort+merge cpu (s)": best(sm, "cpu_s"), "hash cpu (s)": best(hs, "cpu_s"),
            "hash / sort+merge (cpu)": best(hs, "cpu_s") / best(sm, "cpu_s"),
            "sort+merge wall (s)": med(sm, "time_s"), "hash wall (s)": med(hs, "time_s"),
            "sort+merge RSS (MiB)": _mib(best(sm, "peak_rss_bytes")),
            "hash RSS (MiB)": _mib(best(hs, "peak_rss_bytes")),
            "hash / sort+merge (RSS)": best(hs, "peak_rss_bytes") / best(sm, "peak_rss_bytes"),
            "sort+merge set (bits/state)": sm[0][0]["bits_per_state"],
            "hash table (bits/state)": hs[0][0]["bits_per_state"],
            "same layers": "yes" if same else "NO",
        })
    write_table(pd.DataFrame(rows), csv, html, title="bfs_dedup: sort+merge against the hash-set baseline",
                note="cpu = best CPU time of the repeats (one core), wall = median; a ratio above 1 means sort+merge "
                     "is faster / smaller. Both in memory; RSS includes the interpreter and compiled kernels.")


# --- bfs_budget -----------------------------------------------------------------------------------
def budget_report(runs: list[str], csv: str, html: str, svg: str | None = None, reference: str | None = None) -> None:
    rows = []
    for path in runs:
        data, timing = load(path)
        rows.append({
            "domain": data["domain"], "max depth": data["max_depth"], "states": data["states"],
            "budget (MiB)": _mib(data["memory_budget_bytes"]), "peak RSS (MiB)": _mib(timing.get("peak_rss_bytes", 0)),
            "accounted peak (MiB)": _mib(data["accounted_peak_bytes"]), "spilled (MiB)": _mib(data["spilled_bytes"]),
            "spill files": data["spill_files"], "raw visited (MiB)": _mib(data["states"] * data["width"]),
            "visited (MiB)": _mib(data["visited_bytes"]), "bits/state": data["bits_per_state"],
            "chunk": data["chunk_states"], "runs": data["runs"],
            "time (s)": timing.get("time_s"), "cpu (s)": timing.get("cpu_s"),
        })
    df = pd.DataFrame(rows).sort_values(["domain", "max depth", "budget (MiB)"], ascending=[True, True, False])
    write_table(df, csv, html, title="bfs_budget: one search under shrinking memory budgets",
                note="peak RSS includes the interpreter and compiled kernels (~150-200 MiB); the budget bounds the "
                     "engine's own data (accounted peak).")
    if svg:
        _budget_plot(df, svg)


def _budget_plot(df, svg: str) -> None:
    from puzzlelab.lab.plots import figure, save

    fig, (ax1, ax2) = figure(9, 3.6, ncols=2)
    for (dom, depth), g in df.groupby(["domain", "max depth"]):
        label = f"{dom} to depth {depth}"
        line = ax1.plot(g["budget (MiB)"], g["peak RSS (MiB)"], marker="o", label=label)[0]
        ax2.plot(g["budget (MiB)"], g["cpu (s)"], marker="o", color=line.get_color(), label=f"{label}, CPU")
        ax2.plot(g["budget (MiB)"], g["time (s)"], marker="x", ls="--", color=line.get_color(), alpha=0.6,
                 label=f"{label}, wall")
    lim = [df["budget (MiB)"].min(), df["budget (MiB)"].max()]
    ax1.plot(lim, lim, color="grey", ls="--", lw=1, label="budget")
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("memory budget (MiB)")
    ax1.set_ylabel("peak RSS (MiB)")
    ax2.set_ylabel("time (s): CPU (solid), wall (dashed)")
    ax2.set_yscale("log")
    ax1.legend(fontsize=7)
    fig.tight_layout()
    save(fig, svg)


# --- bfs_parents ----------------------------------------------------------------------------------
def parents_report(runs: list[str], csv: str, html: str, svg: str | None = None, reference: str | None = None) -> None:
    rows = []
    for path in runs:
        data, timing = load(path)
        paths = data["paths"]
        tpaths = timing.get("paths", [{}] * len(paths))
        hash_cpu = sum(t.get("hash_time_s", 0.0) for t in tpaths)
        full_cpu = sum(t.get("full_scan_time_s", 0.0) for t in tpaths)
        search_cpu = timing.get("search_time_s")
        rows.append({
            "domain": data["domain"], "states": data["states"], "depth": data["max_depth"], "width (B)": data["width"],
            "full parents (MiB)": _mib(data["full_parent_bytes"]),
            "1-byte hashes (MiB)": _mib(data["parent_hash_bytes"]),
            "saving": data["full_parent_bytes"] / max(1, data["parent_hash_bytes"]),
            "visited (MiB)": _mib(data["visited_bytes"]), "layers (MiB)": _mib(data["layer_bytes"]),
            "paths": len(paths), "all shortest + verified": "yes" if all(
                p["hash_verified"] and p["full_scan_verified"]
                and p["hash_length"] == p["depth"] == p["full_scan_length"]
                for p in paths) else "NO",
            "expanded (hash)": sum(p["hash_expanded"] for p in paths) / max(1, len(paths)),
            "expanded (no hash)": sum(p["full_scan_expanded"] for p in paths) / max(1, len(paths)),
            "rebuild cpu/path, hash (s)": hash_cpu / max(1, len(paths)),
            "rebuild cpu/path, no hash (s)": full_cpu / max(1, len(paths)),
            "search cpu (s)": search_cpu,
            "max share of one hash value": data["hash_max_share"],
        })
    write_table(pd.DataFrame(rows), csv, html, title="bfs_parents: 1-byte parent hashes against full parents",
                note="Paths rebuilt from evenly spaced states of the deepest layer; expanded = states re-expanded per "
                     "path (with the hash only those whose hash byte matches, about 1/256).")


TABLES = {"layers": layers_report, "depths": depths_report, "codecs": codecs_report, "codec-runs": codec_runs_report,
          "dedup": dedup_report, "budget": budget_report, "parents": parents_report}


def write(table: str, runs: list[str], *, csv: str, html: str, svg: str | None = None,
          reference: str | None = None) -> None:
    """`puzzlelab bfs report TABLE RUNS...`: one table (CSV + HTML) and, where it has one, its plot."""
    TABLES[table](runs, csv, html, svg=svg, reference=reference)

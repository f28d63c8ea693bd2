"""Tables and figures of the meet-in-the-middle experiments, from the result files of their jobs."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ...lab import canonical
from ...lab.errors import InputError
from ...lab.plots import figure, save
from ...lab.sizes import parse_size
from ...lab.tables import write_table

# A job's label is its id (rules/mitm.smk): <instance>/planted_r<rows> or
# <instance>/beam[_s<seed>]_r<rows>[_w<width>][_sat] (_sat: proven by the SAT back-end).
JOB = re.compile(r"^(?P<instance>[^/]+)/(?P<source>planted|beam)(?:_s(?P<seed>\d+))?_r(?P<rows>\d+)"
                 r"(?:_w(?P<width>\d+))?(?:_(?P<method>sat))?$")
ARTICLE_GROWTH = 20  # partials per half per extra mismatch, as the article measured on its 10x10 testbed
MIB = 1 << 20


def parse_job(label: str) -> dict:
    """The fields of a job id (instance, source, seed, rows, width, method)."""
    m = JOB.match(label)
    if not m:
        return {"instance": label, "source": "", "seed": None, "rows": None, "width": None, "method": "mitm"}
    d = m.groupdict()
    return {"instance": d["instance"], "source": d["source"], "seed": None if d["seed"] is None else int(d["seed"]),
            "rows": int(d["rows"]), "width": None if d["width"] is None else int(d["width"]),
            "method": d["method"] or "mitm"}


def load(runs: list[str], timings: list[str]) -> list[dict]:
    """One record per job: the result, its timings merged back in, and the job's fields."""
    if timings and len(timings) != len(runs):
        raise InputError(f"{len(runs)} result files but {len(timings)} timing files")
    out = []
    for k, path in enumerate(runs):
        res = canonical.read_json(path)
        if "rounds" not in res or "label" not in res:
            raise InputError("not a result of `puzzlelab edgematch mitm`", path, None)
        tim = canonical.read_json(timings[k]) if timings else {}
        for r, t in zip(res["rounds"], tim.get("rounds", [{}] * len(res["rounds"])), strict=False):
            r.update({key: t.get(key) for key in ("time_s", "cpu_time_s", "peak_rss_bytes")})
        res["time_s"], res["cpu_time_s"] = tim.get("time_s"), tim.get("cpu_time_s")
        res["job"] = parse_job(res["label"])
        out.append(res)
    return out


def independent(res: dict, half: str) -> list[tuple[int, int]]:
    """(budget, partials) of the rounds where `half` was enumerated on its own bounds alone.

    In a ratchet round the second half is pruned against the first half's table (and skipped when
    that table is empty), so only the first half's count, and every count of a sweep round, measure
    how a half grows with the budget.
    """
    pts = []
    for r in res["rounds"]:
        if r["status"] in ("bound", "memory", "nodes", "timeout"):
            continue
        alone = r["phase"] == "sweep" or r.get("first") in (None, half)
        p = r.get(f"{half}_partials")
        if alone and p:
            pts.append((r["budget"], p))
    return pts


def growth(points: list[tuple[int, int]]) -> float | None:
    """Geometric mean of partials(b + 1) / partials(b) over consecutive budgets."""
    ratios = [b2[1] / b1[1] for b1, b2 in zip(points, points[1:], strict=False) if b2[0] == b1[0] + 1 and b1[1] > 0]
    if not ratios:
        return None
    return float(math.exp(sum(math.log(x) for x in ratios) / len(ratios)))


def _mib(x) -> float | None:
    return None if x is None else x / MIB


def _peak(res: dict) -> float | None:
    peaks = [r["peak_rss_bytes"] for r in res["rounds"] if r.get("peak_rss_bytes")]
    return _mib(max(peaks)) if peaks else None


def _geo(values: list[float]) -> float | None:
    values = [v for v in values if v]
    return float(math.exp(sum(math.log(v) for v in values) / len(values))) if values else None


def rounds_table(records: list[dict]) -> pd.DataFrame:
    rows = []
    for res in records:
        j = res["job"]
        for r in res["rounds"]:
            if res.get("method") == "sat":  # a bound asked of CaDiCaL: its answer and conflicts
                rows.append({
                    "job": res["label"], "instance": j["instance"], "source": j["source"], "rows": j["rows"],
                    "width": res["band"]["cols"][1] - res["band"]["cols"][0], "budget": r["budget"],
                    "phase": "sat", "status": r["answer"], "conflicts": r["conflicts"],
                    "time s": r.get("time_s"), "cpu s": r.get("cpu_time_s")})
                continue
            rows.append({
                "job": res["label"], "instance": j["instance"], "source": j["source"], "rows": j["rows"],
                "width": res["band"]["cols"][1] - res["band"]["cols"][0], "budget": r["budget"],
                "phase": r["phase"], "status": r["status"], "first": r.get("first") or "",
                "upper partials": r["upper_partials"], "lower partials": r["lower_partials"],
                "upper entries": r["upper_entries"], "lower entries": r["lower_entries"],
                "upper nodes": r["upper_nodes"], "lower nodes": r["lower_nodes"], "race nodes": r.get("race_nodes"),
                "pruned": r["pruned"], "join candidates": r["join_candidates"], "joins": r["joins"],
                "table MiB": _mib(r["table_bytes"]), "time s": r.get("time_s"), "cpu s": r.get("cpu_time_s"),
                "peak RSS MiB": _mib(r.get("peak_rss_bytes")),
            })
    return pd.DataFrame(rows)


def _common(res: dict) -> dict:
    return {"pieces": res["pieces"], "before": res["before"], "optimum": res["mismatches"] if res["proven"] else None,
            "best found": res["mismatches"], "proven": "yes" if res["proven"] else "no",
            "lower bound": res["lower_bound"], "relaxed bound": res["relaxed_bound"],
            "stopped by": res["stopped_by"] or "", "rounds": len(res["rounds"]), "nodes": res["nodes"],
            "table MiB": _mib(max(r["table_bytes"] for r in res["rounds"]))
            if res["rounds"] and res.get("method") != "sat" else None,
            "time s": res.get("time_s"), "cpu s": res.get("cpu_time_s"), "peak RSS MiB": _peak(res)}


def bench(records: list[dict]) -> tuple[pd.DataFrame, str]:
    rows = []
    for res in records:
        j = res["job"]
        gu, gl = growth(independent(res, "upper")), growth(independent(res, "lower"))
        rows.append({"instance": j["instance"], "source": j["source"], "rows": j["rows"], **_common(res),
                     "growth upper": gu, "growth lower": gl, "max partials": _max_partials(res)})
    df = pd.DataFrame(rows)
    parts = []
    for rows_ in sorted(df["rows"].dropna().unique()) if len(df) else []:
        sub = df[df["rows"] == rows_]
        gu, gl = _geo(list(sub["growth upper"].dropna())), _geo(list(sub["growth lower"].dropna()))
        proven = int((sub["proven"] == "yes").sum())
        parts.append(f"{int(rows_)}-row bands: {proven}/{len(sub)} proven, growth per extra mismatch "
                     f"upper x{gu:.3g}, lower x{gl:.3g}" if gu and gl else
                     f"{int(rows_)}-row bands: {proven}/{len(sub)} proven")
    note = "; ".join(parts) + f". The article measured about x{ARTICLE_GROWTH} per side."
    return df, note


def vs_beam(records: list[dict]) -> tuple[pd.DataFrame, str]:
    rows = []
    for res in records:
        j = res["job"]
        before, best, low = res["before"], res["mismatches"], res["lower_bound"]
        rows.append({"instance": j["instance"], "beam seed": j["seed"], "rows": j["rows"],
                     "method": res.get("method", "mitm"),
                     "beam score": res["score"] - (before - best), "score after": res["score"],
                     **_common(res),
                     "left behind": before - best if res["proven"] else None,
                     "left behind (at least)": before - best, "left behind (at most)": before - low})
    df = pd.DataFrame(rows)
    df = _conflicts_header(df)
    parts = []
    for method in sorted(df["method"].unique()) if len(df) else []:
        sub = df[df["method"] == method]
        done = sub[sub["proven"] == "yes"]
        text = f"{METHOD_NAMES.get(method, method)}: {len(done)}/{len(sub)} bands proven"
        if len(done):
            text += f"; the beam left behind {', '.join(str(int(x)) for x in done['left behind'])} edges on those"
        parts.append(text)
    note = ". ".join(parts) + "." if parts else "No band was run."
    return df, note


METHOD_NAMES = {"mitm": "meet in the middle", "sat": "SAT (CaDiCaL)"}


def _conflicts_header(df: pd.DataFrame) -> pd.DataFrame:
    """The nodes column says so when a SAT job is in the table: there it counts CaDiCaL's conflicts."""
    if len(df) and (df["method"] == "sat").any():
        return df.rename(columns={"nodes": "nodes (SAT: conflicts)"})
    return df


def _memory(r) -> tuple[float, str]:
    """(MiB, what) of a job's memory as counted: the largest table, or a SAT job's CNF."""
    return (r["CNF MiB"], "CNF") if r.get("method") == "sat" else (r["table MiB"], "largest table")
_STOP_WORDS = {"memory": "memory (the tables)", "nodes": "the node limit (time)", "timeout": "the timeout (time)",
               "max-budget": "the budget cap"}


def _mib_text(x: float) -> str:
    return "<1 MiB" if x < 1 else f"{x:,.0f} MiB"


def _where_rows_stop(sub: pd.DataFrame) -> list[str]:
    """Per band height: the widest band proven and what stopped the first one that was not."""
    out = []
    for rows_ in sorted(sub["rows"].unique()):
        h = sub[sub["rows"] == rows_].sort_values("width", kind="stable")
        ok = h[h["proven"] == "yes"]
        text = f"{int(rows_)}-row bands: proven up to width {int(ok['width'].max())}" if len(ok) else \
            f"{int(rows_)}-row bands: none proven"
        open_ = h[h["proven"] != "yes"]
        if len(open_):
            r = open_.iloc[0]
            memory, what = _memory(r)
            text += (f", width {int(r['width'])} stopped by {_STOP_WORDS.get(r['stopped by'], r['stopped by'])}"
                     + (f" at budget {int(r['last budget'])}" if pd.notna(r["last budget"]) else "")
                     + f" (optimum between {int(r['lower bound'])} and {int(r['best found'])}; "
                     + f"{what} {_mib_text(memory)})")
        out.append(text)
    return out


def _max_partials(res: dict) -> int | None:
    if res.get("method") == "sat":
        return None
    return max([max(r["upper_partials"] or 0, r["lower_partials"] or 0) for r in res["rounds"]] or [0])


def wall(records: list[dict]) -> tuple[pd.DataFrame, str]:
    rows = []
    for res in records:
        j = res["job"]
        width = res["band"]["cols"][1] - res["band"]["cols"][0]
        rows.append({"instance": j["instance"], "method": res.get("method", "mitm"), "rows": j["rows"],
                     "width": width, "cells": j["rows"] * width, **_common(res),
                     "CNF MiB": _mib(res.get("sat_bytes")),
                     "last budget": res["rounds"][-1]["budget"] if res["rounds"] else None,
                     "max partials": _max_partials(res)})
    df = pd.DataFrame(rows).sort_values(["instance", "method", "rows", "width"], kind="stable") if rows \
        else pd.DataFrame()
    df = _conflicts_header(df)
    parts = []
    for inst in sorted(df["instance"].unique()) if len(df) else []:
        for method in sorted(df[df["instance"] == inst]["method"].unique()):
            sub = df[(df["instance"] == inst) & (df["method"] == method)]
            ok = sub[sub["proven"] == "yes"]
            biggest = ok.sort_values(["cells", "rows"], kind="stable").iloc[-1] if len(ok) else None
            mem = sub[sub["stopped by"] == "memory"].sort_values(["cells", "rows"], kind="stable")
            nodes = sub[sub["stopped by"] == "nodes"].sort_values(["cells", "rows"], kind="stable")
            text = f"{inst}, {METHOD_NAMES.get(method, method)}: largest band proven "
            text += f"{int(biggest['rows'])}x{int(biggest['width'])}" if biggest is not None else "none"
            if len(mem):
                text += f", memory first stops {int(mem.iloc[0]['rows'])}x{int(mem.iloc[0]['width'])}"
            if len(nodes):
                limit = "conflict" if method == "sat" else "node"
                text += (f", the {limit} limit (time) first stops "
                         f"{int(nodes.iloc[0]['rows'])}x{int(nodes.iloc[0]['width'])}")
            late = sub[sub["stopped by"] == "timeout"]
            if len(late):
                text += f", the timeout stopped {len(late)} band(s) (not reproducible)"
            parts.append(text)
            parts.extend(_where_rows_stop(sub))
    return df, "; ".join(parts) + "."


# --- scorecard rows (seed 004) ------------------------------------------------------------------

FRAMELESS = 437  # the article's frameless board from the same machinery


def bench_scorecard(df: pd.DataFrame, link: str) -> list:
    """10x10 testbed: the beam board's 2-row band proven exactly; growth per extra mismatch; the 437 board."""
    from ...lab.scorecard import Row, verdict

    rows = []
    fig = "planted bottom bands of the testbed (2 to 4 rows, band cleared): optimum 0, proven"
    planted = df[df["source"] == "planted"] if len(df) else df
    if len(planted):
        ok = planted[(planted["proven"] == "yes") & (planted["optimum"] == 0)]
        ours = f"{len(ok)}/{len(planted)} proven 0 ({', '.join(sorted({f'{int(x)} rows' for x in ok['rows']}))})"
        rows.append(Row("004", fig, "proven optimal", ours,
                        verdict="reproduced" if len(ok) == len(planted) else "missed", link=link))
    else:
        rows.append(Row("004", fig, "proven optimal", "not run here", link=link))
    fig = "bottom 2-row band of a testbed beam board (10x10 in the article): exact optimum"
    two = df[(df["source"] == "beam") & (df["rows"] == 2)] if len(df) else df
    if len(two):
        proven = two[two["proven"] == "yes"]
        ours = f"{len(proven)}/{len(two)} proven" + (
            f" (optimum {', '.join(str(int(x)) for x in proven['optimum'])} mismatches)" if len(proven) else "")
        rows.append(Row("004", fig, "proven optimal", ours,
                        verdict="reproduced" if len(proven) == len(two) else "missed", link=link))
    else:
        rows.append(Row("004", fig, "proven optimal", "not run here", link=link))
    fig = "growth of each half per extra mismatch (largest band with a sweep)"
    grown = df.dropna(subset=["growth upper", "growth lower"]) if len(df) else df
    if len(grown):
        big = grown.sort_values(["rows", "instance"], kind="stable").iloc[-1]
        geo = _geo([float(big["growth upper"]), float(big["growth lower"])])
        ours = (f"x{float(big['growth upper']):.3g} upper, x{float(big['growth lower']):.3g} lower "
                f"({int(big['rows'])}-row band, {big['source']})")
        rows.append(Row("004", fig, f"about x{ARTICLE_GROWTH}", ours,
                        verdict=verdict(geo, float(ARTICLE_GROWTH), better="equal", rel_tol=0.5), link=link))
    else:
        rows.append(Row("004", fig, f"about x{ARTICLE_GROWTH}", "not run here (no sweep)", link=link))
    rows.append(Row("004", "frameless board from the same machinery (matched edges)", str(FRAMELESS),
                    "not run here", link=link))
    return rows


def vs_beam_scorecard(df: pd.DataFrame, link: str) -> list:
    """The bottom 2-row band of 16x16 beam boards: the article left it open (the table does not fit)."""
    from ...lab.scorecard import Row

    fig = "bottom 2-row band of a 16x16 beam board: exact optimum"
    article = "out of reach (the top-half table no longer fits)"
    # The article's question is the full 16-wide endgame: narrower boards are not judged.
    two = df[(df["rows"] == 2) & (df["pieces"] == 2 * 16)] if len(df) else df
    if not len(two):
        return [Row("004", fig, article, "not run here (no 16-wide band)" if len(df) else "not run here",
                    link=link)]
    parts = []
    proven_any = False
    for inst in sorted(two["instance"].unique()):
        sub = two[two["instance"] == inst]
        boards = sorted(set(sub["beam seed"]))
        done, open_ = [], []  # per beam board: proven by some method, or the bounds the methods reached
        for seed in boards:
            runs = sub[sub["beam seed"] == seed]
            ok = runs[runs["proven"] == "yes"]
            if len(ok):
                done.append(int(ok["optimum"].iloc[0]))
            else:
                open_.append(runs)
        proven_any = proven_any or bool(done)
        text = f"{inst} {len(done)}/{len(boards)} proven"
        if done:
            text += f" (optimum {', '.join(str(x) for x in done)})"
        if open_:
            runs = pd.concat(open_)
            stops = sorted({"nodes": "node", "max-budget": "budget"}.get(x, x) for x in set(runs["stopped by"]) - {""})
            text += (f"{'; ' if done else ', '}open: between {int(runs['lower bound'].max())} and "
                     f"{int(runs['best found'].min())} at the {' / '.join(stops) or 'budget'} limit")
        if sub["method"].nunique() > 1:
            text += " [" + ", ".join(
                f"{METHOD_NAMES.get(m, m)} {int((sub[sub['method'] == m]['proven'] == 'yes').sum())}/"
                f"{int((sub['method'] == m).sum())}" for m in sorted(sub["method"].unique())) + "]"
        parts.append(text)
    # any 16-wide band proven answers the article's open question (it said the table no longer fits)
    return [Row("004", fig, article, "; ".join(parts), verdict="beaten" if proven_any else "reproduced",
                link=link)]


def wall_scorecard(df: pd.DataFrame, link: str) -> list:
    """What stops the meet-in-the-middle proofs first as bands grow: the article says memory, not time."""
    from ...lab.scorecard import Row

    fig = "what first stops an exact band proof as bands grow"
    article = "memory, not time (the top-half table)"
    mitm = df[df["method"] == "mitm"] if len(df) else df  # the article's question is about its tables
    stopped = mitm[mitm["proven"] == "no"].sort_values(["cells", "rows"], kind="stable") if len(mitm) else mitm
    if not len(stopped):
        return [Row("004", fig, article, "not run here (every band proven)" if len(mitm) else "not run here",
                    link=link)]
    first = stopped.iloc[0]
    reason = {"memory": "memory", "nodes": "the node limit (time)", "timeout": "the timeout (time)"}.get(
        first["stopped by"], first["stopped by"])
    table = float(stopped["table MiB"].max())
    ours = (f"{reason} at {int(first['rows'])}x{int(first['width'])} ({first['instance']}; "
            f"largest table {table:.3g} MiB)")
    sat = df[(df["method"] == "sat") & (df["proven"] == "yes")]
    if len(sat):  # how far the SAT back-end carries the same bands
        per_height = ", ".join(f"{int(h)} rows to width {int(sat[sat['rows'] == h]['width'].max())}"
                               for h in sorted(sat["rows"].unique()))
        ours += f"; {METHOD_NAMES['sat']} proves {len(sat)}/{int((df['method'] == 'sat').sum())} bands ({per_height})"
    return [Row("004", fig, article, ours, verdict="reproduced" if first["stopped by"] == "memory" else "missed",
                link=link)]


SCORECARDS = {"mitm_bench": bench_scorecard, "mitm_vs_beam": vs_beam_scorecard, "mitm_wall": wall_scorecard}


# --- figures -----------------------------------------------------------------------------------

def _colours(n: int):
    import matplotlib

    cmap = matplotlib.colormaps["tab10"]
    return [cmap(k % 10) for k in range(max(n, 1))]


def figure_growth(records: list[dict], path: str, title: str) -> None:
    """Partials per half against the budget, one panel per band height, the article's x20 slope beside."""
    heights = sorted({r["job"]["rows"] for r in records if r["job"]["rows"]}) or [None]
    fig, axes = figure(width=4.2 * len(heights), height=4.6, ncols=len(heights), squeeze=False, layout="constrained")
    labels = sorted({(r["job"]["instance"], r["job"]["source"]) for r in records})
    colour = dict(zip(labels, _colours(len(labels)), strict=False))
    for ax, h in zip(axes[0], heights, strict=False):
        drawn = False
        for res in records:
            if res["job"]["rows"] != h:
                continue
            c = colour[(res["job"]["instance"], res["job"]["source"])]
            for half, style in (("upper", "-"), ("lower", "--")):
                pts = independent(res, half)
                if pts:
                    ax.plot(*zip(*pts, strict=False), style, marker="o" if half == "upper" else "s", ms=3, color=c,
                            label=f"{res['job']['instance']} {res['job']['source']} {half}")
                    drawn = True
        if drawn:
            lo, hi = ax.get_xlim()
            ys = [p for res in records if res["job"]["rows"] == h for half in ("upper", "lower")
                  for _, p in independent(res, half)]
            y0 = min(ys)
            b0 = min(b for res in records if res["job"]["rows"] == h for half in ("upper", "lower")
                     for b, _ in independent(res, half))
            xs = np.linspace(b0, hi, 20)
            ax.plot(xs, y0 * ARTICLE_GROWTH ** (xs - b0), ":", color="grey", label=f"x{ARTICLE_GROWTH} per mismatch")
            ax.set_yscale("log")
            ax.set_ylim(y0 / 2, max(ys) * 50)  # the data, not the slope's far end
        ax.set_title(f"{h}-row bands" if h else "bands")
        ax.set_xlabel("mismatch budget b")
        ax.xaxis.get_major_locator().set_params(integer=True)
    axes[0][0].set_ylabel("partials in the half's table")
    # one legend for all panels, below them: every series once, in a fixed order
    seen: dict = {}
    for ax in axes[0]:
        for handle, name in zip(*ax.get_legend_handles_labels(), strict=False):
            seen.setdefault(name, handle)
    if seen:
        names = sorted(seen, key=lambda n: (n.startswith("x"), n))
        fig.legend([seen[n] for n in names], names, loc="outside lower center", ncol=min(4, len(names)), fontsize=7)
    fig.suptitle(title)
    save(fig, path)


def figure_memory(records: list[dict], path: str, limit: int | None, title: str) -> None:
    """Table memory (counted, deterministic) and peak RSS (measured) per round."""
    fig, ax = figure(height=5.0, layout="constrained")
    labels = sorted({r["label"] for r in records})
    colour = dict(zip(labels, _colours(len(labels)), strict=False))
    for res in records:
        if res.get("method") == "sat":  # no tables: its memory is the CNF's (`sat_bytes`)
            continue
        pts = [(r["budget"], r["table_bytes"] / MIB) for r in res["rounds"] if r["status"] != "bound"]
        if pts:
            ax.plot(*zip(*pts, strict=False), "-o", ms=3, color=colour[res["label"]], label=res["label"])
        rss = [(r["budget"], r["peak_rss_bytes"] / MIB) for r in res["rounds"]
               if r["status"] != "bound" and r.get("peak_rss_bytes")]
        if rss:
            ax.plot(*zip(*rss, strict=False), ":", color=colour[res["label"]])
    if limit:
        ax.axhline(limit / MIB, color="red", lw=1, label="memory limit")
    ax.set_yscale("log")
    ax.set_xlabel("mismatch budget b")
    ax.set_ylabel("MiB (solid: tables as counted; dotted: peak RSS)")
    ax.set_title(title)
    if labels:  # below the axes: one entry per job would cover the lines
        fig.legend(loc="outside lower center", fontsize=6, ncol=min(4, len(labels) + bool(limit)))
    save(fig, path)


def figure_vs_beam(df: pd.DataFrame, path: str) -> None:
    fig, ax = figure(height=5.0, layout="constrained")
    if len(df):
        x = np.arange(len(df))
        names = [f"{r['instance']} s{r['beam seed']}" + (" (SAT)" if r["method"] == "sat" else "")
                 for _, r in df.iterrows()]
        ax.bar(x - 0.2, df["before"], width=0.4, label="beam's band", color="#999999")
        best = df["best found"].to_numpy(float)
        low = df["lower bound"].to_numpy(float)
        ax.bar(x + 0.2, best, width=0.4, label="exact optimum (or best found)", color="#1f77b4")
        open_ = df["proven"] != "yes"
        if open_.any():
            ax.bar((x + 0.2)[open_], low[open_], width=0.4, color="none", edgecolor="black", hatch="//",
                   label="lower bound reached (not proven)")
        ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("mismatches in the bottom band (and its seam)")
    ax.set_title("Bottom band of beam boards: what the beam placed vs the exact optimum")
    if len(df):
        fig.legend(loc="outside lower center", fontsize=8, ncol=3)
    save(fig, path)


def figure_wall(df: pd.DataFrame, path: str) -> None:
    """Rows x width grid per method: proven (the optimum), or stopped (the lower bound) and by what."""
    from matplotlib.colors import ListedColormap

    methods = sorted(df["method"].unique()) if len(df) else ["mitm"]
    fig, axes = figure(width=5.6 * len(methods), height=4.4, ncols=len(methods), squeeze=False, layout="constrained")
    for ax, method in zip(axes[0], methods, strict=False):
        sub = df[df["method"] == method] if len(df) else df
        if len(sub):
            heights = sorted(sub["rows"].unique())
            widths = sorted(sub["width"].unique())
            status = {"yes": 0, "memory": 1, "nodes": 2, "timeout": 2}
            grid = np.full((len(heights), len(widths)), np.nan)
            for _, r in sub.iterrows():
                s = 0 if r["proven"] == "yes" else status.get(r["stopped by"], 2)
                grid[heights.index(r["rows"]), widths.index(r["width"])] = s
                memory = _memory(r)[0]
                text = (f"{int(r['best found'])}" if r["proven"] == "yes" else f">={int(r['lower bound'])}") + \
                    ("" if pd.isna(memory) else f"\n{_mib_text(memory)}")
                ax.text(widths.index(r["width"]), heights.index(r["rows"]), text, ha="center", va="center",
                        fontsize=7)
            ax.imshow(grid, cmap=ListedColormap(["#b7e1b0", "#f4a3a3", "#f6d18b"]), vmin=-0.5, vmax=2.5,
                      origin="lower", aspect="auto")
            ax.set_xticks(range(len(widths)), [str(w) for w in widths])
            ax.set_yticks(range(len(heights)), [str(h) for h in heights])
        ax.grid(False)
        ax.set_xlabel("band width (columns)")
        ax.set_ylabel("band rows")
        ax.set_title(METHOD_NAMES.get(method, method) + (" (MiB: the CNF)" if method == "sat" else " (MiB: tables)"),
                     fontsize=9)
    fig.suptitle("Proven (green: the optimum), stopped by memory (red) or by the node or conflict limit "
                 "(amber: the lower bound)", fontsize=10)
    save(fig, path)


def figure_wall_memory(df: pd.DataFrame, path: str, limit: int | None) -> None:
    """Largest table against band cells, meet in the middle only (the SAT back-end has no tables)."""
    fig, ax = figure(layout="constrained")
    marks = {"": ("o", "#2ca02c", "proven"), "memory": ("x", "#d62728", "memory"),
             "nodes": ("^", "#ff7f0e", "node limit"), "timeout": ("v", "#8c564b", "timeout"),
             "max-budget": ("s", "#7f7f7f", "max budget")}
    mitm = df[df["method"] == "mitm"] if len(df) else df
    for key, (m, c, name) in marks.items():
        sub = mitm[mitm["stopped by"] == key] if len(mitm) else mitm
        if len(sub):
            ax.scatter(sub["cells"], sub["table MiB"], marker=m, color=c, label=name)
    if limit:
        ax.axhline(limit / MIB, color="red", lw=1, label="memory limit")
    ax.set_yscale("log")
    ax.set_xlabel("band cells (rows x width)")
    ax.set_ylabel("largest table of the run, MiB (as counted)")
    ax.set_title("Where memory becomes the wall (meet in the middle)")
    ax.legend(fontsize=8)
    save(fig, path)


def report(args) -> None:
    """`edgematch report mitm_*`: summary table and figure, per-round table and memory figure."""
    for option, path in (("--svg", args.svg), ("--rounds-csv", args.rounds_csv), ("--rounds-html", args.rounds_html),
                         ("--memory-svg", args.memory_svg)):
        if not path:
            raise InputError(f"report {args.table} needs {option} FILE")
    for option, path in (("--svg", args.svg), ("--memory-svg", args.memory_svg)):
        if not str(path).lower().endswith(".svg"):
            raise InputError(f"{option} {path}: the figures are SVG files (name ending in .svg)")
    records = load(args.runs, args.timings)
    limit = parse_size(args.memory_budget) if args.memory_budget else None
    rounds = rounds_table(records)
    experiment = args.table
    title = {"mitm_bench": "10x10 testbed", "mitm_vs_beam": "16x16 beam boards", "mitm_wall": "bands up to the wall"}
    if experiment == "mitm_bench":
        df, note = bench(records)
        figure_growth(records, args.svg, "Partials per half against the mismatch budget")
    elif experiment == "mitm_vs_beam":
        df, note = vs_beam(records)
        figure_vs_beam(df, args.svg)
    else:
        df, note = wall(records)
        figure_wall(df, args.svg)
    write_table(df, args.csv, args.html, title=f"{experiment}: {title[experiment]}", note=note)
    write_table(rounds, args.rounds_csv, args.rounds_html, title=f"{experiment}: round by round",
                note="One row per budget b of each job (volatile columns: time, cpu, peak RSS).")
    if experiment == "mitm_wall":
        figure_wall_memory(df, args.memory_svg, limit)
    else:
        figure_memory(records, args.memory_svg, limit, f"Memory per budget: {title[experiment]}")
    if getattr(args, "scorecard", None):
        from ...lab.scorecard import write_rows

        write_rows(SCORECARDS[experiment](df, args.html), args.scorecard)


__all__ = ["report", "parse_job", "load", "growth", "independent", "bench", "vs_beam", "wall", "rounds_table"]

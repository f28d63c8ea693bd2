"""Tables and plots of the snakebird_levels experiment, from the solve (and reference) JSON files."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from ..lab import canonical
from ..lab.errors import InputError
from ..lab.results import timing_path
from ..lab.tables import write_table


def _timing_of(path: Path) -> dict:
    t = timing_path(path)
    return canonical.read_json(t) if t.exists() else {}


def _read(path: str | Path) -> dict:
    try:
        return canonical.read_json(path)
    except (OSError, ValueError) as err:
        raise InputError(f"cannot read run file: {err}", path) from None


def public_layers(path: str | Path | None) -> dict[str, list[int]]:
    if not path:
        return {}
    rows: dict[str, list[int]] = {}
    with open(path, newline="") as fh:
        for r in csv.DictReader(fh):
            rows.setdefault(r["level"], []).append(int(r["new_unique"]))
    return rows


def collect(runs: list[str], references: list[str], public: dict[str, list[int]]):
    """Tables of the experiment: one row per level (ours beside the published counts), its times, memory
    and the reference solver's moves and counts (machine-dependent, as is whether the reference is
    installed: kept apart), one row per (level, depth), and one solution per level."""
    refs = {}
    for p in references:
        rec = _read(p)
        if "unreadable" in rec:  # the parse step's record (listed in the report's unreadable inputs)
            continue
        rec.update(_timing_of(Path(p)))
        if rec.get("stopped"):  # stopped at its CPU limit: its depths count, its times are no finish time
            rec["moves"] = f"stopped: {rec['stopped']}"
            rec["layers_before_last"] = rec.get("layers_finished")
            rec["time_s"] = rec["cpu_s"] = rec["peak_rss_bytes"] = None
        refs[rec["level"]] = rec
    rows, times, depth_rows, solutions = [], [], [], []
    for p in runs:
        path = Path(p)
        rec = _read(path)
        if "unreadable" in rec:
            continue
        rec.update(_timing_of(path))
        kind = path.parent.name
        name = rec["level"]
        ref = refs.get(name, {})
        want = public.get(name)
        layers = rec["layers"]
        layers_match = None if want is None else layers[1:len(want) + 1] == want
        ref_layers = ref.get("layers_before_last")
        ref_layers_match = None if not ref_layers else layers[:len(ref_layers)] == ref_layers
        rows.append({
            "set": kind,
            "level": name,
            "moves": rec["moves"],
            "published moves": rec.get("expected_moves"),
            "moves = published": _agree(rec["moves"], rec.get("expected_moves")),
            "replay wins": "yes" if rec.get("replay_won") else "NO",
            "layers = public_layers.csv": _yn(layers_match),
            "states": rec["states"],
            "state bytes": rec["state_bytes"],
            "bits per state": rec["bits_per_state"],
        })
        times.append({
            "set": kind,
            "level": name,
            "reference moves": ref.get("moves"),
            "moves = reference": _agree(rec["moves"], None if ref.get("stopped") else ref.get("moves")),
            "layers = reference": _yn(ref_layers_match),
            "states": rec["states"],
            "peak MiB": _mib(rec.get("peak_rss_bytes")),
            "time s": rec.get("time_s"),
            "reference peak MiB": _mib(ref.get("peak_rss_bytes")),
            "reference time s": ref.get("time_s"),
            "time / reference": _ratio(rec.get("time_s"), ref.get("time_s")),
            "CPU s": rec.get("cpu_s"),
            "reference CPU s": ref.get("cpu_s"),
            "CPU / reference": _ratio(rec.get("cpu_s"), ref.get("cpu_s")),
        })
        solutions.append({"set": kind, "level": name, "moves": rec["moves"],
                          "solution": ",".join(rec.get("solution", []))})
        for d, n in enumerate(layers):
            depth_rows.append({
                "set": kind, "level": name, "distance": d, "new states": n,
                "public_layers.csv": want[d - 1] if want and 1 <= d <= len(want) else None,
            })
    df, tf = pd.DataFrame(rows), pd.DataFrame(times)
    if not df.empty:
        df = df.sort_values(["set", "level"], kind="stable").reset_index(drop=True)
        tf = tf.sort_values(["set", "level"], kind="stable").reset_index(drop=True)
    return df, tf, pd.DataFrame(depth_rows), pd.DataFrame(solutions)


def _yn(v):
    return "—" if v is None else ("yes" if v else "NO")


def _mib(v):
    return None if v is None else round(v / 2**20, 1)


def _ratio(ours, reference):
    return None if ours is None or not reference else round(ours / reference, 3)


def _agree(ours, known):
    if ours is None:
        return "unsolved"
    if known is None:
        return "—"
    return "yes" if known == ours else "NO"


def plot_time(tf: pd.DataFrame, svg: str) -> None:
    """States against wall-clock time, ours (project and corpus levels) beside the reference solver."""
    from ..lab.plots import figure, save

    fig, ax = figure()
    for kind, marker in (("project", "s"), ("corpus", "o")):
        sub = tf[tf["set"] == kind] if not tf.empty else tf
        if len(sub):
            ax.scatter(sub["states"], sub["time s"], marker=marker, label=f"PuzzleLab ({kind} levels)")
    if not tf.empty and tf["reference time s"].notna().any():
        sub = tf[tf["reference time s"].notna()]
        ax.scatter(sub["states"], sub["reference time s"], marker="x", color="black", label="reference C++ solver")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("states visited (canonical)")
    ax.set_ylabel("wall-clock time to the optimal solution (s)")
    ax.set_title("Snakebird: states against time")
    ax.legend(loc="upper left")
    save(fig, svg)


def plot_bits(df: pd.DataFrame, svg: str) -> None:
    """Bits per state of the compressed visited set against the states visited, beside the article's figure."""
    from ..lab.plots import figure, save

    fig, ax = figure()
    if not df.empty:
        for kind, marker in (("project", "s"), ("corpus", "o")):
            sub = df[df["set"] == kind]
            if len(sub):
                ax.scatter(sub["states"], sub["bits per state"], marker=marker, label=f"{kind} levels")
    ax.axhline(0.7, color="grey", linestyle="--", linewidth=1, label="article: 0.7 bits/state (4.6e9 states)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("states visited (canonical)")
    ax.set_ylabel("compressed visited set (bits per state)")
    ax.set_title("Snakebird: bits per state against states")
    ax.legend(loc="upper right")
    save(fig, svg)


COMPARABLE_STATES = 1_000_000  # the article's bits-per-state figure is for a 14.6 M-state search


def scorecard_rows(df: pd.DataFrame, tf: pd.DataFrame, links: dict) -> list:
    """Seed 000's headline figures: optimal move counts, bits per state, time and memory beside the reference."""
    from ..lab.scorecard import Row, verdict

    rows = []
    corpus = df[df["set"] == "corpus"] if not df.empty else df
    known = corpus[corpus["published moves"].notna()] if len(corpus) else corpus
    if len(known):
        same = int((known["moves"] == known["published moves"]).sum())
        star6 = known[known["level"] == "levelstar6"]
        fewer = int((known["moves"] < known["published moves"]).sum())
        ours = f"{same} of {len(known)} levels equal, {fewer} shorter"
        if len(star6):
            ours += f" (levelstar6: {int(star6['moves'].iloc[0])} moves)"
        judged = "missed" if same + fewer < len(known) else ("beaten" if fewer else "reproduced")
        rows.append(Row("000", "corpus levels solved at the published optimal length",
                        f"{len(known)} levels (reference solver's published counts)", ours, "", judged,
                        links["levels"]))
    else:
        rows.append(Row("000", "corpus levels solved at the published optimal length",
                        "53 levels (reference solver's published counts)", "", link=links["levels"]))
    if len(df):
        # sparse sorted sets compress worse: judged only on a search of a comparable size
        big = df.loc[df["states"].idxmax()]
        judged = verdict(float(big["bits per state"]), 3.36, better="lower", rel_tol=0.1) \
            if big["states"] >= COMPARABLE_STATES else "not run here"
        rows.append(Row("000", "visited set, bits per state (row filter + zstd)",
                        "3.36 bits/state (14.6 M states of 8 bytes)",
                        f"{big['bits per state']:.3g} bits/state ({big['level']}, {int(big['states']):,} states)",
                        "", judged, links["bits"]))
    timed = tf[tf["time / reference"].notna()] if len(tf) else tf
    if len(timed):
        worst = timed.loc[timed["time / reference"].idxmax()]
        rows.append(Row("000", "wall time against the reference C++ solver (worst level)", "1.0 (its own solver)",
                        f"{worst['time / reference']:.3g} x ({worst['level']})",
                        f"{worst['reference time s']:.3g} s", verdict(float(worst["time / reference"]), 1.0,
                                                                      better="lower", rel_tol=0.05),
                        links["times"]))
        cpu = timed[timed["CPU / reference"].notna()]
        if len(cpu):
            worst = cpu.loc[cpu["CPU / reference"].idxmax()]
            rows.append(Row("000", "CPU time against the reference C++ solver (worst level, search only)",
                            "1.0 (its own solver)", f"{worst['CPU / reference']:.3g} x ({worst['level']})",
                            f"{worst['reference CPU s']:.3g} s", verdict(float(worst["CPU / reference"]), 1.0,
                                                                         better="lower", rel_tol=0.05),
                            links["times"]))
        gap = timed["peak MiB"] - timed["reference peak MiB"]
        high = timed.loc[gap.idxmax()] if gap.notna().any() else None
        if high is not None:
            rows.append(Row("000", "peak memory against the reference C++ solver (largest gap)", "",
                            f"{high['peak MiB']:.0f} MiB ({high['level']})", f"{high['reference peak MiB']:.0f} MiB",
                            verdict(float(high["peak MiB"]), float(high["reference peak MiB"]) + 100, better="lower"),
                            links["times"]))
    else:
        rows.append(Row("000", "wall time against the reference C++ solver", "1.0 (its own solver)", "",
                        link=links["times"]))
    return rows


DEEP_STATES = 4.6e9  # the article's largest search: 4.6 billion visited states, 0.7 bits per state


def deep_scorecard_rows(df: pd.DataFrame, links: dict) -> list:
    """Seed 000's figures of its largest search (levelstar6): visited states, bits per state, moves."""
    from ..lab.scorecard import Row, verdict

    states_fig = "visited states of the largest search"
    bits_fig = "visited set of the largest search, bits per state"
    moves_fig = "largest search solved at the published optimal length"
    if df.empty:
        return [Row("000", states_fig, "4.6 billion states", "", link=links["levels"]),
                Row("000", bits_fig, "0.7 bits/state", "", link=links["bits"]),
                Row("000", moves_fig, "published moves", "", link=links["levels"])]
    big = df.loc[df["states"].idxmax()]
    states, bits = int(big["states"]), float(big["bits per state"])
    rows = [Row("000", states_fig, "4.6 billion states", f"{states:,} states ({big['level']})", "",
                verdict(float(states), DEEP_STATES, better="equal", rel_tol=0.02), links["levels"]),
            Row("000", bits_fig, "0.7 bits/state", f"{bits:.3g} bits/state ({big['level']})", "",
                verdict(bits, 0.7, better="lower", rel_tol=0.1), links["bits"])]
    published = big["published moves"]
    if pd.notna(published):
        rows.append(Row("000", moves_fig, f"{int(published)} moves", f"{int(big['moves'])} moves ({big['level']})",
                        "", verdict(float(big["moves"]), float(published), better="lower"), links["levels"]))
    return rows


def level_panels(runs) -> list:
    """(level, title) of every solved run, in the levels table's order (set, then level name)."""
    from .level import load_level

    panels = []
    for p in runs:
        rec = _read(p)
        if rec.get("solved"):
            kind = Path(p).parent.name
            panels.append(((kind, rec["level"]), load_level(rec["level_file"]),
                           f"{rec['level']} ({kind}): {rec['moves']} moves"))
    return [(level, title) for _, level, title in sorted(panels, key=lambda t: t[0])]


def _levels_table(df, tf, depths, solutions):
    n = len(df)
    bad = 0 if df.empty else int((df["moves = published"] == "NO").sum() + (df["replay wins"] != "yes").sum())
    return df, "Snakebird levels: optimal solutions through the compressed BFS", \
        f"{n} levels; {bad} disagreements with published move counts or failed replays."


def _times_table(df, tf, depths, solutions):
    compared = 0 if tf.empty else int(tf["reference moves"].notna().sum())
    bad = 0 if tf.empty else int((tf["moves = reference"] == "NO").sum() + (tf["layers = reference"] == "NO").sum())
    return tf, "Snakebird levels: time, memory and the reference solver", \
        "Wall-clock and CPU time to the optimal solution and peak resident memory, ours beside the " \
        "reference C++ solver's, on this machine, one thread each. Ours is the search's (kernels loaded, " \
        "not Python's start-up); the reference's is its whole process. " \
        f"{compared} levels run by the reference here; {bad} disagreements with its moves or its printed " \
        "counts per distance (all depths but its last)."


def _layers_table(df, tf, depths, solutions):
    return depths, "Snakebird: new states per distance", "Ours beside public_layers.csv."


def _solutions_table(df, tf, depths, solutions):
    return solutions, "Snakebird: one optimal solution per level", \
        "Moves are the head letter of a snake in the level file plus U, R, D or L; " \
        "`puzzlelab snakebird replay LEVEL --moves ...` replays them."


def _level_pictures(runs, tables, svg):
    from .picture import draw_levels

    draw_levels(level_panels(runs), svg)


# table name (cli.REPORT_TABLES) -> (frame, title, note) from collect()'s tables
MAKERS = {"levels": _levels_table, "levels-time": _times_table, "layers": _layers_table,
          "solutions": _solutions_table}
# the tables with a figure (--svg): runs, collect()'s tables, svg path
PLOTS = {"levels": lambda runs, tables, svg: plot_bits(tables[0], svg),
         "levels-time": lambda runs, tables, svg: plot_time(tables[1], svg),
         "solutions": _level_pictures}


def write(table: str, runs: list[str], *, csv: str, html: str, svg: str | None = None,
          references: list[str] = (), public_csv: str | None = None, scorecard: str | None = None,
          times_link: str | None = None, scorecard_rows_kind: str = "levels") -> None:
    """`puzzlelab snakebird report TABLE RUNS...`: one table (CSV + HTML), its figure, and for `levels`
    the scorecard rows (the time and memory rows point to `times_link`, the levels-time table;
    `scorecard_rows_kind="deep"`: the figures of the article's largest search instead)."""
    from ..lab.scorecard import write_rows

    if svg and table not in PLOTS:
        raise InputError(f"the {table} table has no figure (--svg is for {', '.join(PLOTS)})")
    tables = collect(runs, list(references), public_layers(public_csv))
    df, title, note = MAKERS[table](*tables)
    write_table(df, csv, html, title=title, note=note)
    if svg:
        PLOTS[table](runs, tables, svg)
    if scorecard:
        links = {"levels": html, "times": times_link or html, "bits": svg or html}
        rows = deep_scorecard_rows(tables[0], links) if scorecard_rows_kind == "deep" else \
            scorecard_rows(tables[0], tables[1], links)
        write_rows(rows, scorecard)

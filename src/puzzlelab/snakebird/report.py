"""Tables and plots of the snakebird_levels experiment, from the solve (and reference) JSON files."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from ..lab import canonical
from ..lab.errors import InputError
from ..lab.tables import write_table


def _timing_of(path: Path) -> dict:
    t = path.with_name(path.name[: -len(".json")] + ".timing.json")
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
    """One row per level (ours beside the reference's), and one row per (level, depth)."""
    refs = {}
    for p in references:
        rec = _read(p)
        rec.update(_timing_of(Path(p)))
        refs[rec["level"]] = rec
    rows, depth_rows, solutions = [], [], []
    for p in runs:
        path = Path(p)
        rec = _read(path)
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
            "reference moves": ref.get("moves"),
            "moves agree": _agree(rec["moves"], rec.get("expected_moves"), ref.get("moves")),
            "replay wins": "yes" if rec.get("replay_won") else "NO",
            "layers = public_layers.csv": _yn(layers_match),
            "layers = reference": _yn(ref_layers_match),
            "states": rec["states"],
            "state bytes": rec["state_bytes"],
            "bits per state": rec["bits_per_state"],
            "peak MiB": _mib(rec.get("peak_rss_bytes")),
            "time s": rec.get("time_s"),
            "reference peak MiB": _mib(ref.get("peak_rss_bytes")),
            "reference time s": ref.get("time_s"),
        })
        solutions.append({"set": kind, "level": name, "moves": rec["moves"],
                          "solution": ",".join(rec.get("solution", []))})
        for d, n in enumerate(layers):
            depth_rows.append({
                "set": kind, "level": name, "distance": d, "new states": n,
                "public_layers.csv": want[d - 1] if want and 1 <= d <= len(want) else None,
                "reference": ref_layers[d] if ref_layers and d < len(ref_layers) else None,
            })
    df = pd.DataFrame(rows)
    if not df.empty:
        df = df.sort_values(["set", "level"], kind="stable").reset_index(drop=True)
    return df, pd.DataFrame(depth_rows), pd.DataFrame(solutions)


def _yn(v):
    return "—" if v is None else ("yes" if v else "NO")


def _mib(v):
    return None if v is None else round(v / 2**20, 1)


def _agree(ours, published, reference):
    known = [x for x in (published, reference) if x is not None]
    if ours is None:
        return "unsolved"
    if not known:
        return "—"
    return "yes" if all(x == ours for x in known) else "NO"


def plots(df: pd.DataFrame, svg_time: str, svg_bits: str) -> None:
    from ..lab.plots import figure, save

    fig, ax = figure()
    for kind, marker in (("project", "s"), ("corpus", "o")):
        sub = df[df["set"] == kind] if not df.empty else df
        if len(sub):
            ax.scatter(sub["states"], sub["time s"], marker=marker, label=f"PuzzleLab ({kind} levels)")
    if not df.empty and df["reference time s"].notna().any():
        sub = df[df["reference time s"].notna()]
        ax.scatter(sub["states"], sub["reference time s"], marker="x", color="black", label="reference C++ solver")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("states visited (canonical)")
    ax.set_ylabel("wall-clock time to the optimal solution (s)")
    ax.set_title("Snakebird: states against time")
    ax.legend(loc="upper left")
    save(fig, svg_time)

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
    save(fig, svg_bits)


def write_report(runs, references, public_csv, out: dict) -> None:
    df, depths, solutions = collect(runs, references, public_layers(public_csv))
    n = len(df)
    bad = 0 if df.empty else int((df["moves agree"] == "NO").sum() + (df["replay wins"] != "yes").sum())
    write_table(df, out["csv"], out["html"], title="Snakebird levels: optimal solutions through the compressed BFS",
                note=f"{n} levels; {bad} disagreements with published or reference move counts or failed replays.")
    write_table(depths, out["layers_csv"], out["layers_html"], title="Snakebird: new states per distance",
                note="Ours beside public_layers.csv and the reference solver's printed counts (all depths but its last).")
    write_table(solutions, out["solutions_csv"], out["solutions_html"], title="Snakebird: one optimal solution per level",
                note="Moves are the head letter of a snake in the level file plus U, R, D or L; "
                     "`puzzlelab snakebird replay LEVEL --moves ...` replays them.")
    plots(df, out["svg_time"], out["svg_bits"])

"""Tables and plots of the Balda experiments (joined from artifacts and their timing files)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..lab import canonical
from ..lab.plots import figure, save
from ..lab.tables import write_table

TARGET_FULL_US = 200.0  # targets for a mid-game 5x5 position (µs)
TARGET_INCREMENTAL_US = 30.0
FEW_SECONDS = 5.0  # "a few seconds" of the article's claim, as measured here


def timing_path(artifact: str) -> Path:
    p = Path(artifact)
    return p.with_name(p.name[: -len(".json")] + ".timing.json")


def load_pair(artifact: str) -> tuple[dict, dict]:
    data = canonical.read_json(artifact)
    t = timing_path(artifact)
    return data, (canonical.read_json(t) if t.exists() else {})


def build(table: str, runs: list[str], csv: str, html: str, svg: str | None = None) -> None:
    """Write one of the report tables (`cli.REPORT_TABLES`) of the finished runs, and its figure."""
    TABLES[table](runs, csv, html, svg)


# --- balda_dictionary --------------------------------------------------------------------------------

def dictionary_report(inputs, csv, html, svg) -> None:
    """inputs: the dict-stats artifact, then optionally the build artifact of the first (built-in) list,
    whose counts of dropped lexicon entries replace those of re-reading the finished list."""
    stats = canonical.read_json(inputs[0])
    build = canonical.read_json(inputs[1])["stats"] if len(inputs) > 1 else None
    rows = []
    for i, x in enumerate(stats["lists"]):
        lengths = {int(k): v for k, v in x["lengths"].items()}
        total = sum(lengths.values())
        values = np.repeat(list(lengths), list(lengths.values()))
        s = dict(x["stats"])
        if i == 0 and build is not None:
            s.update({k: build[k] for k in ("entries", "duplicates", "dropped_short", "dropped_multiword",
                                            "dropped_other_letters") if k in build})
            s["dropped_multiword"] += build.get("dropped_other_characters", 0)
        rows.append({"list": x["name"], "lang": x["lang"], "words": s["words"], "entries": s["entries"],
                     "dropped (hyphen/space/digit)": s["dropped_multiword"],
                     "dropped (other letters)": s["dropped_other_letters"],
                     "dropped (1 letter)": s["dropped_short"], "duplicates (after ё→е)": s["duplicates"],
                     "common with first": x.get("common_with_first", s["words"]),
                     "min len": int(values.min()), "median len": float(np.median(values)),
                     "mean len": round(float(values.mean()), 2), "max len": int(values.max()),
                     "modal len": max(lengths, key=lambda k: (lengths[k], -k)),
                     "5-letter words": lengths.get(5, 0), "share 2-4 letters %": round(
                         100 * sum(v for k, v in lengths.items() if k <= 4) / total, 2)})
    df = pd.DataFrame(rows)
    write_table(df, csv, html, title="Balda dictionaries: size and word lengths",
                note="After normalisation: lower case, ё→е, words of the alphabet only, at least 2 letters. "
                     "For the built-in list, 'entries' are the selected OpenCorpora lemmas (noun, nominative, "
                     "singular or plurale tantum, no excluded grammeme). "
                     "'common with first' counts the words shared with the first list (the built-in one).")
    if svg:
        fig, ax = figure(7.5, 4.2)
        for x in stats["lists"]:
            lengths = {int(k): v for k, v in x["lengths"].items()}
            total = sum(lengths.values())
            ks = sorted(lengths)
            ax.plot(ks, [100 * lengths[k] / total for k in ks], marker="o", ms=3, label=f"{x['name']} ({total})")
        ax.set_xlabel("word length (letters)")
        ax.set_ylabel("share of the list (%)")
        ax.set_title("Length distribution of the word lists")
        ax.legend(fontsize=8)
        save(fig, svg)


# --- balda_search_speed --------------------------------------------------------------------------------

def speed_frame(inputs) -> pd.DataFrame:
    rows = []
    for path in inputs:
        data, timing = load_pair(path)
        times = timing.get("positions", [{}] * len(data["positions"]))
        for pos, t in zip(data["positions"], times):
            rows.append({"size": data["size"], "seed": data["seed"], "start": data["start"], **pos,
                         "forward_us": 1e6 * t.get("forward_time_s", np.nan),
                         "separator_us": 1e6 * t.get("separator_time_s", np.nan),
                         "incremental_us": 1e6 * t.get("incremental_time_s", np.nan)})
    return pd.DataFrame(rows)


def phase_of(size: int, filled: int) -> str:
    """Thirds of the game by filled cells beyond the start word."""
    done = (filled - size) / (size * size - size)
    return "opening" if done <= 1 / 3 else "mid-game" if done <= 2 / 3 else "endgame"


def speed_report(inputs, csv, html, svg) -> None:
    df = speed_frame(inputs)
    cols = ["size", "seed", "start", "filled", "moves_forward", "moves_separator", "moves_incremental",
            "parent_moves", "new_finds", "forward_us", "separator_us", "incremental_us"]
    write_table(df[cols].sort_values(["size", "seed", "filled"]), csv, html,
                title="Word search time per self-play position (µs, fastest of the timing rounds)",
                note="forward: forward trie from every cell; separator: separator trie from every empty cell "
                     "next to a letter; incremental: the parent's list plus the words through the new letter. "
                     "All three return the same moves at every position (checked).")
    if svg:
        speed_plot(df, svg)


def speed_summary_report(inputs, csv, html, svg=None) -> None:
    df = speed_frame(inputs)
    df["phase"] = [phase_of(s, f) for s, f in zip(df["size"], df["filled"])]
    summary = (df.groupby(["size", "phase"], sort=False)
               .agg(positions=("filled", "size"), moves=("moves_separator", "median"),
                    forward_us=("forward_us", "median"), separator_us=("separator_us", "median"),
                    incremental_us=("incremental_us", "median"), incremental_max_us=("incremental_us", "max"))
               .reset_index())
    order = {"opening": 0, "mid-game": 1, "endgame": 2}
    summary = summary.sort_values(["size", "phase"], key=lambda c: c.map(order) if c.name == "phase" else c)
    summary["full_vs_incremental"] = (summary[["forward_us", "separator_us"]].min(axis=1)
                                      / summary["incremental_us"]).round(1)
    write_table(summary, csv, html, title="Median search time by game phase (µs)",
                note=f"Targets on a mid-game 5x5 position: full generation < {TARGET_FULL_US:.0f} µs, "
                     f"incremental < {TARGET_INCREMENTAL_US:.0f} µs. Phases are thirds of the cells "
                     "filled after the start word.")


def speed_plot(df: pd.DataFrame, svg: str) -> None:
    sizes = sorted(df["size"].unique())
    fig, axes = figure(5.0 * len(sizes), 4.2, ncols=len(sizes), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        part = df[df["size"] == size].groupby("filled")[["forward_us", "separator_us", "incremental_us"]].median()
        for col, label in (("forward_us", "full: forward trie"), ("separator_us", "full: separator trie"),
                           ("incremental_us", "incremental")):
            ax.plot(part.index, part[col], marker="o", ms=3, label=label)
        if size == 5:
            ax.axhline(TARGET_FULL_US, color="grey", ls="--", lw=0.8)
            ax.axhline(TARGET_INCREMENTAL_US, color="grey", ls=":", lw=0.8)
        ax.set_yscale("log")
        ax.set_xlabel("filled cells")
        ax.set_ylabel("µs per search (median over games)")
        ax.set_title(f"{size}x{size}")
        ax.legend(fontsize=8)
    save(fig, svg)


# --- balda_alphabeta -----------------------------------------------------------------------------------

VARIANT_ORDER = ["minimax", "alphabeta", "ordered", "pruned", "pruned_tt", "pruned_full_regen"]
EXACT = {"minimax", "alphabeta", "ordered"}


def alphabeta_frame(inputs) -> pd.DataFrame:
    rows = []
    for path in inputs:
        data, timing = load_pair(path)
        times = timing.get("depths", [{}] * len(data["depths"]))
        for d, t in zip(data["depths"], times):
            rows.append({"position": f"{data['start']}+{data['plies']}", "filled": data["filled"],
                         "root_moves": data["root_moves"], "variant": data["variant"], "depth": d["depth"],
                         "value": d["value"], "nodes": d["nodes"], "generations": d["generations"],
                         "move": d["move"], "cpu_s": t.get("cpu_time_s", np.nan),
                         "wall_s": t.get("time_s", np.nan)})
    df = pd.DataFrame(rows)
    df["variant_rank"] = df["variant"].map({v: i for i, v in enumerate(VARIANT_ORDER)})
    return df.sort_values(["position", "variant_rank", "depth"]).drop(columns="variant_rank")


def alphabeta_checked(inputs) -> pd.DataFrame:
    """The per-depth rows with the exact value and whether the exact variants agree on it."""
    df = alphabeta_frame(inputs)
    exact = df[df["variant"].isin(EXACT)]
    reference = exact.groupby(["position", "depth"])["value"].agg(lambda v: v.iloc[0])
    agree = exact.groupby(["position", "depth"])["value"].nunique()
    df["exact value"] = [reference.get((p, d), np.nan) for p, d in zip(df["position"], df["depth"])]
    df["exact variants agree"] = ["yes" if agree.get((p, d), 1) == 1 else "NO"
                                  for p, d in zip(df["position"], df["depth"])]
    df["us_per_node"] = (1e6 * df["cpu_s"] / df["nodes"]).round(2)
    return df


def alphabeta_report(inputs, csv, html, svg) -> None:
    df = alphabeta_checked(inputs)
    write_table(df, csv, html, title="Search per depth: nodes, value and time by variant",
                note="value: score difference (mover minus opponent) over the horizon. Exact variants (minimax, "
                     "alpha-beta, with ordering) must agree; the pruned variants may differ.")
    if svg:
        alphabeta_plot(df, svg)


def alphabeta_summary_report(inputs, csv, html, svg=None) -> None:
    df = alphabeta_checked(inputs)
    pruned = df[df["variant"] == "pruned"]
    rows = []
    for (pos, variant), g in df.groupby(["position", "variant"], sort=False):
        within = g[g["cpu_s"] <= FEW_SECONDS]
        rows.append({"position": pos, "variant": variant, "max depth run": int(g["depth"].max()),
                     f"deepest within {FEW_SECONDS:g} s": int(within["depth"].max()) if len(within) else 0,
                     "CPU s at deepest": float(g.loc[g["depth"].idxmax(), "cpu_s"]),
                     "nodes at deepest": int(g.loc[g["depth"].idxmax(), "nodes"])})
    summary = pd.DataFrame(rows)
    write_table(summary, csv, html,
                title=f"Depth reached within {FEW_SECONDS:g} s (the article: 8-10 plies in a few seconds "
                      "with long-word pruning)", note=f"{len(pruned)} pruned searches measured.")


def alphabeta_plot(df: pd.DataFrame, svg: str) -> None:
    fig, (ax1, ax2) = figure(11.0, 4.2, ncols=2)
    med = df.groupby(["variant", "depth"])[["nodes", "cpu_s"]].median().reset_index()
    for variant in VARIANT_ORDER:
        part = med[med["variant"] == variant]
        if part.empty:
            continue
        ax1.plot(part["depth"], part["nodes"], marker="o", ms=3, label=variant)
        ax2.plot(part["depth"], part["cpu_s"], marker="o", ms=3, label=variant)
    ax1.set_yscale("log")
    ax2.set_yscale("log")
    ax2.axhline(FEW_SECONDS, color="grey", ls="--", lw=0.8)
    for ax, label in ((ax1, "nodes (median over positions)"), (ax2, "CPU seconds (median over positions)")):
        ax.set_xlabel("depth (plies)")
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
    save(fig, svg)


# --- balda_tournament ----------------------------------------------------------------------------------

def tournament_games(inputs) -> pd.DataFrame:
    rows = []
    for path in inputs:
        data, timing = load_pair(path)
        times = timing.get("games", [{}] * len(data["games"]))
        for g, t in zip(data["games"], times):
            rows.append({"deep": data["deep"], "shallow": data["shallow"], "prune": data["prune"],
                         "start": g["start"], "deep_moves_first": g["deep_moves_first"],
                         "deep_score": g["deep_score"], "shallow_score": g["shallow_score"], "margin": g["margin"],
                         "result": g["result"], "plies": g["plies"], "ended_by": g["ended_by"],
                         "cpu_s": t.get("cpu_time_s", np.nan)})
    games = pd.DataFrame(rows).sort_values(["deep", "shallow", "start", "deep_moves_first"], ascending=[True, True,
                                                                                                      True, False])
    return games


def tournament_report(inputs, csv, html, svg=None) -> None:
    write_table(tournament_games(inputs), csv, html, title="Tournament games (deeper against shallower search)")


def tournament_summary_report(inputs, csv, html, svg=None) -> None:
    games = tournament_games(inputs)
    summary = (games.groupby(["deep", "shallow", "prune"])
               .agg(games=("margin", "size"), wins=("result", lambda r: int((r == "win").sum())),
                    draws=("result", lambda r: int((r == "draw").sum())),
                    losses=("result", lambda r: int((r == "loss").sum())),
                    mean_margin=("margin", "mean"), mean_deep_score=("deep_score", "mean"),
                    mean_shallow_score=("shallow_score", "mean"), mean_game_cpu_s=("cpu_s", "mean"))
               .reset_index())
    summary["score_rate"] = ((summary["wins"] + 0.5 * summary["draws"]) / summary["games"]).round(3)
    write_table(summary, csv, html,
                title="Deeper vs shallower: wins, draws, losses of the deeper player and mean margin",
                note="Every start word is played twice, each player moving first once.")


TABLES = {"dictionary": dictionary_report, "speed": speed_report, "speed-summary": speed_summary_report,
          "alphabeta": alphabeta_report, "alphabeta-summary": alphabeta_summary_report,
          "tournament": tournament_report, "tournament-summary": tournament_summary_report}

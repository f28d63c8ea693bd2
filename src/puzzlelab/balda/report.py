"""Tables, plots and scorecard rows of the Balda experiments, joined from the runs' artifacts and their
timing files. Deterministic tables (counts, nodes, values, games) and measured ones (`.timing.`
files: times) are separate tables, so every deterministic output is byte-identical on any machine."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd

from ..lab import canonical
from ..lab.plots import figure, save
from ..lab.results import timing_path
from ..lab.scorecard import Row, verdict, write_rows
from ..lab.tables import FLOAT_FORMAT, write_table

SEED = "003"  # the seed article (Hindi, on the Balda 2 solver)
ARTICLE_SEARCH_US = 1000.0  # the article's arithmetic: "if your program finds all words in 1 ms" ...
FEW_SECONDS = 5.0  # "a few seconds" of the article's claim, as measured here
ARTICLE_PLIES = 8  # ... "analyses the game 8-10 moves ahead in a few seconds"
PHASES = ["opening", "mid-game", "endgame"]
VARIANT_ORDER = ["minimax", "alphabeta", "ordered", "ordered_tt", "pruned", "pruned_tt", "pruned_full_regen"]
EXACT = {"minimax", "alphabeta", "ordered", "ordered_tt"}


def load_pair(artifact: str) -> tuple[dict, dict]:
    data = canonical.read_json(artifact)
    t = timing_path(artifact)
    return data, (canonical.read_json(t) if t.exists() else {})


def build(table: str, runs: list[str], csv: str, html: str, svg: str | None = None,
          scorecard: str | None = None) -> None:
    """Write one of the report tables (`cli.REPORT_TABLES`) of the finished runs, its figure, and the
    scorecard rows it decides (`cli.SCORECARD_TABLES`; the rows point to the table's --html)."""
    from .cli import SCORECARD_TABLES

    TABLES[table](runs, csv, html, svg)
    if scorecard:
        frames = [pd.read_csv(csv)]
        if table == "alphabeta-branching":  # the depth reached in a few seconds, from the same runs
            frames.append(pd.read_csv(io.StringIO(alphabeta_summary(runs).to_csv(index=False,
                                                                                float_format=FLOAT_FORMAT))))
        write_rows(SCORECARDS[SCORECARD_TABLES[table]](frames, html), scorecard)


# --- balda_dictionary --------------------------------------------------------------------------------

DICT_WORDS, DICT_SEP, DICT_FB = "words", "separator trie (nodes)", "forward + backward tries (nodes)"


def dictionary_rows(inputs) -> tuple[list[dict], list[dict], list[str]]:
    """(size rows, length-and-trie rows, unreadable lists) of the dictionary tables.

    inputs: the build artifact of the built-in list, then the parse records (the built-in list first);
    the build's counts of dropped lexicon entries replace those of re-reading the finished list."""
    build = canonical.read_json(inputs[0])["stats"]
    records = [canonical.read_json(p) for p in inputs[1:]]
    readable = [r for r in records if "unreadable" not in r]
    builtin_ok = bool(records) and "unreadable" not in records[0]
    first = set(Path(readable[0]["words_file"]).read_text(encoding="utf-8").split()) if readable else set()
    sizes, lengths_rows = [], []
    for i, x in enumerate(readable):
        name = x["name"].replace("_", " ")
        lengths = {int(k): v for k, v in x["lengths"].items()}
        total = sum(lengths.values())
        values = np.repeat(list(lengths), list(lengths.values()))
        s = dict(x["stats"])
        if i == 0 and builtin_ok:
            s.update({k: build[k] for k in ("entries", "duplicates", "dropped_short", "dropped_multiword",
                                            "dropped_other_letters") if k in build})
            s["dropped_multiword"] += build.get("dropped_other_characters", 0)
        if i == 0:
            common = s["words"]
        else:
            common = len(first & set(Path(x["words_file"]).read_text(encoding="utf-8").split()))
        sizes.append({"list": name, "lang": x["lang"], DICT_WORDS: s["words"], "entries": s["entries"],
                      "dropped (hyphen/space/digit)": s["dropped_multiword"],
                      "dropped (other letters)": s["dropped_other_letters"],
                      "dropped (1 letter)": s["dropped_short"], "duplicates (after ё→е)": s["duplicates"],
                      "common with the first list": common})
        t = x["tries"]
        lengths_rows.append({
            "list": name, DICT_WORDS: s["words"], "median length (letters)": float(np.median(values)),
            "mean length (letters)": round(float(values.mean()), 2),
            "length range (letters)": f"{int(values.min())}–{int(values.max())}",
            "modal length (letters)": max(lengths, key=lambda k: (lengths[k], -k)),
            "5-letter words": lengths.get(5, 0),
            "share of 2–4 letters (%)": round(100 * sum(v for k, v in lengths.items() if k <= 4) / total, 1),
            DICT_SEP: t["separator_nodes"], DICT_FB: t["forward_nodes"] + t["backward_nodes"],
            "separator trie (MB)": round(t["separator_bytes"] / 1e6, 1), "_lengths": lengths})
    skipped = [f"{r['name']} ({r['unreadable']['reason']})" for r in records if "unreadable" in r]
    return sizes, lengths_rows, skipped


def dictionary_report(inputs, csv, html, svg=None) -> None:
    sizes, _, skipped = dictionary_rows(inputs)
    note = ("After normalisation: lower case, ё→е, words of the alphabet only, at least 2 letters. For the "
            "built-in list (first row), 'entries' are the selected OpenCorpora lemmas (noun, nominative, "
            "singular or plurale tantum, no excluded grammeme).")
    if skipped:
        note += " Not readable: " + "; ".join(skipped) + "."
    write_table(pd.DataFrame(sizes), csv, html, title="Balda dictionaries: words kept and dropped", note=note)


def dictionary_lengths_report(inputs, csv, html, svg=None) -> None:
    _, rows, _ = dictionary_rows(inputs)
    write_table(pd.DataFrame(rows).drop(columns="_lengths", errors="ignore"), csv, html,
                title="Balda dictionaries: word lengths and tries",
                note="The separator trie holds every word w as w[k:] + separator + reversed(w[:k]) for every k; "
                     "the forward and backward tries are the two trees it replaces.")
    if svg:
        fig, ax = figure(7.5, 4.2)
        for r in rows:
            lengths, total = r["_lengths"], r[DICT_WORDS]
            ks = sorted(lengths)
            ax.plot(ks, [100 * lengths[k] / total for k in ks], marker="o", ms=3, label=f"{r['list']} ({total:,})")
        ax.set_xlabel("word length (letters)")
        ax.set_ylabel("share of the list (%)")
        ax.set_title("Length distribution of the word lists")
        ax.legend(fontsize=8)
        save(fig, svg)


# --- balda_search_speed --------------------------------------------------------------------------------

SPEED_US = {"forward": "forward trie (µs)", "separator": "separator trie (µs)", "incremental": "incremental (µs)"}


def speed_frame(inputs) -> pd.DataFrame:
    rows = []
    for path in inputs:
        data, timing = load_pair(path)
        times = timing.get("positions", [{}] * len(data["positions"]))
        for pos, t in zip(data["positions"], times):
            rows.append({"size": data["size"], "seed": data["seed"], "start": data["start"], **pos,
                         **{col: 1e6 * t.get(f"{k}_time_s", np.nan) for k, col in SPEED_US.items()}})
    df = pd.DataFrame(rows).sort_values(["size", "seed", "filled"], kind="stable")
    df["phase"] = [phase_of(s, f) for s, f in zip(df["size"], df["filled"])]
    return df


def phase_of(size: int, filled: int) -> str:
    """Thirds of the game by filled cells beyond the start word."""
    done = (filled - size) / (size * size - size)
    return "opening" if done <= 1 / 3 else "mid-game" if done <= 2 / 3 else "endgame"


def speed_report(inputs, csv, html, svg=None) -> None:
    df = speed_frame(inputs).rename(columns={
        "filled": "filled cells", "moves_forward": "moves (forward)", "moves_separator": "moves (separator)",
        "moves_incremental": "moves (incremental)", "parent_moves": "parent's moves", "new_finds": "new finds"})
    cols = ["size", "seed", "start", "filled cells", "phase", "moves (forward)", "moves (separator)",
            "moves (incremental)", "parent's moves", "new finds"]
    write_table(df[cols], csv, html, title="Move lists of every self-play position, found three ways",
                note="forward: forward trie from every cell; separator: separator trie from every empty cell next "
                     "to a letter; incremental: the parent's list plus the words through the new letter. The three "
                     "counts are equal at every position (the run fails otherwise); 'new finds' are the words "
                     "through the new letter, before duplicates are dropped.")


def speed_times_report(inputs, csv, html, svg=None) -> None:
    df = speed_frame(inputs)
    cols = ["size", "seed", "filled cells", "phase", *SPEED_US.values()]
    out = df.rename(columns={"filled": "filled cells"})[cols].copy()
    for c in SPEED_US.values():
        out[c] = out[c].round(2)
    write_table(out, csv, html, title="Word-search time per self-play position (thread CPU µs, fastest round)")
    if svg:
        speed_plot(df, svg)


def speed_summary(inputs) -> pd.DataFrame:
    df = speed_frame(inputs)
    f, s, i = SPEED_US["forward"], SPEED_US["separator"], SPEED_US["incremental"]
    summary = (df.groupby(["size", "phase"], sort=False)
               .agg(positions=("filled", "size"), **{"median moves": ("moves_separator", "median")},
                    **{f"median {f}": (f, "median"), f"median {s}": (s, "median"),
                       f"median {i}": (i, "median"), f"max {i}": (i, "max")})
               .reset_index())
    summary["phase"] = pd.Categorical(summary["phase"], PHASES, ordered=True)
    summary = summary.sort_values(["size", "phase"]).reset_index(drop=True)
    summary["phase"] = summary["phase"].astype(str)
    summary["full / incremental"] = (summary[[f"median {f}", f"median {s}"]].min(axis=1)
                                     / summary[f"median {i}"])
    return summary.round(2)


def speed_summary_report(inputs, csv, html, svg=None) -> None:
    write_table(speed_summary(inputs), csv, html, title="Median word-search time by board size and game phase",
                note="Thread CPU µs of one complete move list; phases are thirds of the cells filled after the "
                     "start word. 'full / incremental' is the faster full search over the incremental one. The "
                     f"article's arithmetic assumes {ARTICLE_SEARCH_US:.0f} µs for a full search.")


def speed_plot(df: pd.DataFrame, svg: str) -> None:
    sizes = sorted(df["size"].unique())
    fig, axes = figure(5.0 * len(sizes), 4.2, ncols=len(sizes), squeeze=False)
    labels = {"forward": "full: forward trie", "separator": "full: separator trie", "incremental": "incremental"}
    for ax, size in zip(axes[0], sizes):
        part = df[df["size"] == size].groupby("filled")[list(SPEED_US.values())].median()
        for key, col in SPEED_US.items():
            ax.plot(part.index, part[col], marker="o", ms=3, label=labels[key])
        ax.axhline(ARTICLE_SEARCH_US, color="grey", ls="--", lw=0.8, label="the article's 1 ms a search")
        ax.set_yscale("log")
        ax.set_xlabel("filled cells")
        ax.set_ylabel("µs per search (median over games)")
        ax.set_title(f"{size}x{size}")
        ax.legend(fontsize=8)
    save(fig, svg)


# --- balda_alphabeta -----------------------------------------------------------------------------------

def alphabeta_frame(inputs) -> pd.DataFrame:
    rows = []
    for path in inputs:
        data, timing = load_pair(path)
        times = timing.get("depths", [{}] * len(data["depths"]))
        stopped = data.get("stopped", {})
        for d, t in zip(data["depths"], times):
            rows.append({"position": f"{data['start']}+{data['plies']}", "filled cells": data["filled"],
                         "root moves": data["root_moves"], "variant": data["variant"], "depth": d["depth"],
                         "value": d["value"], "nodes": d["nodes"], "generations": d["generations"],
                         "move": d["move"], "stopped at depth": stopped.get("depth"),
                         "CPU (s)": t.get("cpu_time_s", np.nan), "wall (s)": t.get("time_s", np.nan)})
    df = pd.DataFrame(rows)
    df["rank"] = df["variant"].map({v: i for i, v in enumerate(VARIANT_ORDER)})
    df = df.sort_values(["position", "rank", "depth"]).drop(columns="rank").reset_index(drop=True)
    exact = df[df["variant"].isin(EXACT)]
    reference = exact.groupby(["position", "depth"])["value"].agg(lambda v: v.iloc[0])
    agree = exact.groupby(["position", "depth"])["value"].nunique()
    df["exact value"] = [reference.get((p, d), np.nan) for p, d in zip(df["position"], df["depth"])]
    df["exact variants agree"] = ["yes" if agree.get((p, d), 1) == 1 else "NO"
                                  for p, d in zip(df["position"], df["depth"])]
    return df


def alphabeta_report(inputs, csv, html, svg=None) -> None:
    df = alphabeta_frame(inputs)
    cols = ["position", "filled cells", "root moves", "variant", "depth", "value", "exact value",
            "exact variants agree", "nodes", "generations", "move"]
    write_table(df[cols], csv, html, title="Search per depth: value and nodes by variant",
                note="value: score difference (mover minus opponent) over the horizon, in letters. The exact "
                     "variants (minimax, alpha-beta, with ordering) must agree; the pruned ones may differ. "
                     "generations: move lists built (a new page, or a full list without the incremental pages).")
    if svg:
        _per_depth_plot(df, "nodes", "nodes (median over positions)", svg)


def alphabeta_times_report(inputs, csv, html, svg=None) -> None:
    df = alphabeta_frame(inputs)
    df["µs per node"] = (1e6 * df["CPU (s)"] / df["nodes"]).round(2)
    cols = ["position", "variant", "depth", "nodes", "CPU (s)", "wall (s)", "µs per node"]
    write_table(df[cols].round({"CPU (s)": 4, "wall (s)": 4}), csv, html,
                title="Search per depth: thread CPU and wall time by variant")
    if svg:
        _per_depth_plot(df, "CPU (s)", "CPU seconds (median over positions)", svg, line=FEW_SECONDS)


def _per_depth_plot(df: pd.DataFrame, column: str, label: str, svg: str, line: float | None = None) -> None:
    fig, ax = figure(6.5, 4.2)
    med = df.groupby(["variant", "depth"])[column].median().reset_index()
    for variant in VARIANT_ORDER:
        part = med[med["variant"] == variant]
        if not part.empty:
            ax.plot(part["depth"], part[column], marker="o", ms=3, label=variant)
    if line is not None:
        ax.axhline(line, color="grey", ls="--", lw=0.8, label=f"{line:g} s")
    ax.set_yscale("log")
    ax.set_xlabel("depth (plies)")
    ax.set_ylabel(label)
    ax.legend(fontsize=8)
    save(fig, svg)


BRANCHING = "effective branching (nodes a ply)"


def branching(inputs) -> pd.DataFrame:
    """Per position and variant: the deepest depth searched and the effective branching factor, the
    per-ply growth of the nodes from depth 1 to it, (nodes(D) / nodes(1)) ** (1 / (D - 1))."""
    df = alphabeta_frame(inputs)
    rows = []
    for (pos, variant), g in df.groupby(["position", "variant"], sort=False):
        g = g.sort_values("depth")
        deepest = g.iloc[-1]
        b = (deepest["nodes"] / g.iloc[0]["nodes"]) ** (1 / (deepest["depth"] - 1)) if len(g) > 1 else np.nan
        rows.append({"position": pos, "variant": variant, "deepest depth": int(deepest["depth"]),
                     "nodes at depth 1": int(g.iloc[0]["nodes"]), "nodes at the deepest": int(deepest["nodes"]),
                     BRANCHING: round(float(b), 2)})
    return pd.DataFrame(rows)


def alphabeta_branching_report(inputs, csv, html, svg=None) -> None:
    write_table(branching(inputs), csv, html, title="Effective branching factor of each search variant",
                note="How many times the nodes grow per ply, from depth 1 to the deepest depth searched: plain "
                     "minimax grows by the number of moves, alpha-beta with ordering by about its square root, "
                     "long-word pruning cuts the moves kept per cell.")


def alphabeta_summary(inputs) -> pd.DataFrame:
    df = alphabeta_frame(inputs)
    rows = []
    for (pos, variant), g in df.groupby(["position", "variant"], sort=False):
        within = g[g["CPU (s)"] <= FEW_SECONDS]
        deepest = g.loc[g["depth"].idxmax()]
        rows.append({"position": pos, "variant": variant, "deepest depth run": int(deepest["depth"]),
                     f"deepest within {FEW_SECONDS:g} s": int(within["depth"].max()) if len(within) else 0,
                     "CPU at the deepest (s)": round(float(deepest["CPU (s)"]), 3),
                     "nodes at the deepest": int(deepest["nodes"])})
    return pd.DataFrame(rows)


def alphabeta_summary_report(inputs, csv, html, svg=None) -> None:
    write_table(alphabeta_summary(inputs), csv, html,
                title=f"Depth reached within {FEW_SECONDS:g} s of thread CPU per position and variant",
                note="The article: its program looks 8-10 plies ahead in a few seconds, thanks to long-word "
                     "pruning and alpha-beta.")


# --- balda_tournament ----------------------------------------------------------------------------------

def tournament_frame(inputs) -> pd.DataFrame:
    rows = []
    for path in inputs:
        data, timing = load_pair(path)
        times = timing.get("games", [{}] * len(data["games"]))
        for g, t in zip(data["games"], times):
            rows.append({"deep": data["deep"], "shallow": data["shallow"], "prune": data["prune"],
                         "start": g["start"], "deep moves first": g["deep_moves_first"],
                         "deep score": g["deep_score"], "shallow score": g["shallow_score"], "margin": g["margin"],
                         "result": g["result"], "plies": g["plies"], "ended by": g["ended_by"],
                         "CPU (s)": t.get("cpu_time_s", np.nan)})
    return pd.DataFrame(rows).sort_values(["deep", "shallow", "start", "deep moves first"],
                                          ascending=[True, True, True, False]).reset_index(drop=True)


def tournament_report(inputs, csv, html, svg=None) -> None:
    write_table(tournament_frame(inputs).drop(columns="CPU (s)"), csv, html,
                title="Tournament games (deeper against shallower search)",
                note="Scores and margin in letters; the margin is the deeper player's score minus the shallower's.")


SCORE_RATE = "score rate of the deeper"


def tournament_summary(inputs) -> pd.DataFrame:
    games = tournament_frame(inputs)
    summary = (games.groupby(["deep", "shallow", "prune"])
               .agg(games=("margin", "size"), wins=("result", lambda r: int((r == "win").sum())),
                    draws=("result", lambda r: int((r == "draw").sum())),
                    losses=("result", lambda r: int((r == "loss").sum())),
                    **{"mean margin (letters)": ("margin", "mean"), "mean deep score": ("deep score", "mean"),
                       "mean shallow score": ("shallow score", "mean")})
               .reset_index())
    summary[SCORE_RATE] = (summary["wins"] + 0.5 * summary["draws"]) / summary["games"]
    return summary.round(3)


def tournament_summary_report(inputs, csv, html, svg=None) -> None:
    write_table(tournament_summary(inputs), csv, html,
                title="Deeper vs shallower: wins, draws and losses of the deeper player, mean margin",
                note="Every start word is played twice, each player moving first once; the score rate counts a "
                     "draw as half a win.")


def tournament_times_report(inputs, csv, html, svg=None) -> None:
    games = tournament_frame(inputs)
    out = (games.groupby(["deep", "shallow"])
           .agg(games=("margin", "size"), **{"mean CPU per game (s)": ("CPU (s)", "mean"),
                                            "max CPU per game (s)": ("CPU (s)", "max")})
           .reset_index().round(3))
    write_table(out, csv, html, title="Tournament cost: thread CPU seconds per game")


TABLES = {"dictionary": dictionary_report, "dictionary-lengths": dictionary_lengths_report,
          "speed": speed_report, "speed-times": speed_times_report,
          "speed-summary": speed_summary_report, "alphabeta": alphabeta_report,
          "alphabeta-times": alphabeta_times_report, "alphabeta-branching": alphabeta_branching_report,
          "alphabeta-summary": alphabeta_summary_report, "tournament": tournament_report,
          "tournament-summary": tournament_summary_report, "tournament-times": tournament_times_report}


# --- scorecard rows (seed 003) -------------------------------------------------------------------------

def _dictionary_rows(frames, link) -> list[Row]:
    df = frames[0]
    rows = []
    if len(df):
        b = df.iloc[0]
        rows.append(Row(SEED, "one prefix tree with a separator symbol instead of a forward and a backward tree",
                        "1 tree (word tail, separator, reversed head)",
                        f"1 tree of {b[DICT_SEP] / 1e6:.2f} M nodes for {b[DICT_WORDS]:,} words "
                        f"({b[DICT_SEP] / b[DICT_FB]:.1f}x the nodes of the two trees)", "", "reproduced", link))
    else:
        rows.append(Row(SEED, "one prefix tree with a separator symbol instead of a forward and a backward tree",
                        "1 tree (word tail, separator, reversed head)", "no readable word list", "", "not run here",
                        link))
    rows.append(Row(SEED, "'turbo mode': a dummy symbol whose terminal nodes list the letters that fit",
                    "tree 5x larger; word search 4x, the program 1.5x faster", "not implemented", "", "not run here",
                    link))
    return rows


def _speed_rows(frames, link) -> list[Row]:
    df = frames[0]
    sep, inc = f"median {SPEED_US['separator']}", f"median {SPEED_US['incremental']}"
    mid5 = df[(df["size"] == 5) & (df["phase"] == "mid-game")]
    figure_b = "time to find every move of a mid-game 5x5 position (full search)"
    if len(mid5):
        us = float(mid5.iloc[0][sep])
        fwd = float(mid5.iloc[0][f"median {SPEED_US['forward']}"])
        rows = [Row(SEED, figure_b, "about 1 ms (its arithmetic: 10^6 searches, 16 min for 4 plies)",
                    f"{us:.0f} µs separator trie, {fwd:.0f} µs forward trie (median, thread CPU)", "",
                    verdict(us, ARTICLE_SEARCH_US, better="lower", rel_tol=0.1), link)]
    else:
        rows = [Row(SEED, figure_b, "about 1 ms", "no 5x5 games in this configuration", "", "not run here", link)]
    size = int(df["size"].max()) if len(df) else 0
    part = df[df["size"] == size].set_index("phase").reindex(PHASES)
    figure_c = "incremental search: a steadier time through the game than a full search"
    if len(part.dropna(subset=[inc])) == len(PHASES):
        spread_inc = part[inc].max() / part[inc].min()
        spread_full = part[sep].max() / part[sep].min()
        shown = "/".join(f"{v:.1f}" for v in part[inc])
        full = "/".join(f"{v:.0f}" for v in part[sep])
        rows.append(Row(SEED, figure_c, "stable (one cell searched), while a full search slows from mid-game",
                        f"{size}x{size}, opening/mid-game/endgame: incremental {shown} µs ({spread_inc:.1f}x "
                        f"apart), full {full} µs ({spread_full:.1f}x apart)", "",
                        "reproduced" if spread_inc < spread_full / 2 else "missed", link))
    else:
        rows.append(Row(SEED, figure_c, "stable", "fewer than three phases measured", "", "not run here", link))
    return rows


def _alphabeta_rows(frames, link) -> list[Row]:
    br, summary = frames
    b = br.groupby("variant")[BRANCHING].median()
    rows = []
    figure_d = "alpha-beta cut-offs (with moves ordered longest first): nodes saved per ply over minimax"
    figure_e = "long-word pruning: the largest saving, larger than alpha-beta's"
    if {"minimax", "ordered"} <= set(b.index):
        ab = b["minimax"] / b["ordered"]
        rows.append(Row(SEED, figure_d, "the second-largest speed-up",
                        f"effective branching {b['minimax']:.0f} -> {b['ordered']:.1f} ({ab:.1f}x fewer nodes a ply)",
                        "", "reproduced" if ab > 1 else "missed", link))
        if "pruned" in b.index:
            pr = b["ordered"] / b["pruned"]
            rows.append(Row(SEED, figure_e, "the largest speed-up",
                            f"effective branching {b['ordered']:.1f} -> {b['pruned']:.1f} ({pr:.1f}x fewer nodes a "
                            f"ply; alpha-beta {ab:.1f}x)", "", "reproduced" if pr > ab else "missed", link))
        else:
            rows.append(Row(SEED, figure_e, "the largest speed-up", "pruning not run", "", "not run here", link))
    else:
        rows.append(Row(SEED, figure_d, "the second-largest speed-up", "minimax or ordered not run", "",
                        "not run here", link))
        rows.append(Row(SEED, figure_e, "the largest speed-up", "not measured against alpha-beta", "",
                        "not run here", link))
    within = f"deepest within {FEW_SECONDS:g} s"
    figure_f = f"plies searched within a few seconds (here {FEW_SECONDS:g} s of CPU), long-word pruning"
    for variant in ("pruned_tt", "pruned"):
        part = summary[summary["variant"] == variant]
        if len(part):
            break
    if len(part):
        reached = part[within].median()
        capped = bool((part[within] == part["deepest depth run"]).all()) and reached < ARTICLE_PLIES
        by_pos = ", ".join(f"{p}: {d}" for p, d in zip(part["position"], part[within]))
        rows.append(Row(SEED, figure_f, "8-10 plies", f"median {reached:g} plies ({variant}; {by_pos})", "",
                        "not run here" if capped else _plies_verdict(reached), link))
    else:
        rows.append(Row(SEED, figure_f, "8-10 plies", "pruning not run", "", "not run here", link))
    return rows


def _plies_verdict(plies: float) -> str:
    """The article's 8-10 plies: fewer is missed, more is beaten."""
    return "missed" if plies < ARTICLE_PLIES else "beaten" if plies > ARTICLE_PLIES + 2 else "reproduced"


def _tournament_rows(frames, link) -> list[Row]:
    df = frames[0]
    figure_g = "looking further ahead wins games (deeper against shallower search)"
    if not len(df):
        return [Row(SEED, figure_g, "the point of a deep search", "no games", "", "not run here", link)]
    shown = "; ".join(f"{r.deep} vs {r.shallow}: {r.wins}-{r.draws}-{r.losses}"
                      for r in df.itertuples(index=False))
    ok = bool((df[SCORE_RATE] > 0.5).all())
    return [Row(SEED, figure_g, "the point of a deep search (no figure)",
                f"wins-draws-losses of the deeper player: {shown}", "", "reproduced" if ok else "missed", link)]


SCORECARDS = {"balda_dictionary": _dictionary_rows, "balda_search_speed": _speed_rows,
              "balda_alphabeta": _alphabeta_rows, "balda_tournament": _tournament_rows}

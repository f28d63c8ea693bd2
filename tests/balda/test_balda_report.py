"""Balda's parse step, report tables and scorecard rows, on runs of the small lists in data/balda."""

from __future__ import annotations

import csv
import json

import pandas as pd
import pytest

from conftest import REPO
from puzzlelab.lab.scorecard import COLUMNS, VERDICTS

DATA = REPO / "data" / "balda"
EN = DATA / "en_small.txt"


def distinct_prefixes(strings) -> int:
    """Nodes of the trie of `strings`: its distinct non-empty prefixes, plus the root."""
    return len({s[:i] for s in strings for i in range(1, len(s) + 1)}) + 1


def test_parse_writes_the_canonical_list_and_true_trie_sizes(run_cli, tmp_path):
    words, record = tmp_path / "en.txt", tmp_path / "en.json"
    code, out, err = run_cli("balda", "parse", EN, "--name", "en", "--words", words, "--out", record,
                             "--unreadable", tmp_path / "en.csv")
    assert code == 0, err
    listed = words.read_text(encoding="utf-8").split("\n")[:-1]
    assert listed == sorted(set(EN.read_text(encoding="utf-8").split()) - {"a"})  # one-letter words dropped
    tries = json.loads(record.read_text(encoding="utf-8"))["tries"]
    assert tries["forward_nodes"] == distinct_prefixes(listed)
    assert tries["backward_nodes"] == distinct_prefixes([w[::-1] for w in listed])
    assert tries["separator_nodes"] == distinct_prefixes([w[k:] + "|" + w[:k][::-1] for w in listed
                                                          for k in range(len(w))])
    assert (tmp_path / "en.csv").read_text(encoding="utf-8") == "path,line,reason\n"


def test_parse_turns_an_unreadable_list_into_a_row(run_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("cat\ncats\nca7\n", encoding="utf-8")
    words, record, rows = tmp_path / "w.txt", tmp_path / "r.json", tmp_path / "u.csv"
    code, out, err = run_cli("balda", "parse", bad, "--name", "bad", "--label", "corpora/bad.txt", "--words", words,
                             "--out", record, "--unreadable", rows)
    assert code == 0, err
    assert list(csv.reader(rows.open(encoding="utf-8"))) == [
        ["path", "line", "reason"], ["corpora/bad.txt", "3", "unexpected character '7' (DIGIT SEVEN) in word 'ca7'"]]
    assert words.read_text(encoding="utf-8") == ""
    assert json.loads(record.read_text(encoding="utf-8"))["unreadable"]["line"] == 3
    code, out, err = run_cli("balda", "parse", bad, "--name", "bad", "--words", words, "--out", record)
    assert code == 2 and err.startswith(f"{bad}:3: unexpected character")  # without --unreadable: an error


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One small run of every experiment command (3x3 boards of the small English list)."""
    from puzzlelab.cli import main

    root = tmp_path_factory.mktemp("balda-runs")
    jobs = {"speed": ["bench-speed", "--size", "3", "--seed", "1", "--reps", "1", "--rounds", "1"],
            "ab_minimax": ["bench-search", "--size", "3", "--seed", "1", "--variant", "minimax", "--max-depth", "3"],
            "ab_ordered": ["bench-search", "--size", "3", "--seed", "1", "--variant", "ordered", "--max-depth", "3"],
            "ab_pruned": ["bench-search", "--size", "3", "--seed", "1", "--variant", "pruned", "--max-depth", "3"],
            "tour": ["tournament", "--size", "3", "--seed", "1", "--words", "2", "--deep", "2", "--shallow", "1"]}
    for name, args in jobs.items():
        assert main(["balda", *args, "--dict", str(EN), "--out", str(root / f"{name}.json"),
                     "--timing", str(root / f"{name}.timing.json")]) == 0
    return root


def table(run_cli, tmp_path, name, runs, svg=False):
    csv_path, html = tmp_path / f"{name}.csv", tmp_path / f"{name}.html"
    extra = ["--svg", tmp_path / f"{name}.svg"] if svg else []
    code, out, err = run_cli("balda", "report", name, *runs, "--csv", csv_path, "--html", html, *extra)
    assert code == 0, err
    return pd.read_csv(csv_path)


def test_deterministic_tables_hold_no_times_and_timing_tables_do(run_cli, tmp_path, runs):
    ab = [runs / f"ab_{v}.json" for v in ("minimax", "ordered", "pruned")]
    speed = table(run_cli, tmp_path, "speed", [runs / "speed.json"])
    assert (speed["moves (forward)"] == speed["moves (separator)"]).all()
    assert (speed["moves (separator)"] == speed["moves (incremental)"]).all()
    depths = table(run_cli, tmp_path, "alphabeta", ab, svg=True)
    branching = table(run_cli, tmp_path, "alphabeta-branching", ab)
    games = table(run_cli, tmp_path, "tournament", [runs / "tour.json"])
    summary = table(run_cli, tmp_path, "tournament-summary", [runs / "tour.json"])
    for df in (speed, depths, branching, games, summary):
        assert not [c for c in df.columns if "(s)" in c or "µs" in c or "CPU" in c], df.columns
    assert (depths["exact variants agree"] == "yes").all()
    minimax = depths[depths["variant"] == "minimax"].set_index("depth")["nodes"]
    row = branching[branching["variant"] == "minimax"].iloc[0]
    assert row["effective branching (nodes a ply)"] == pytest.approx(
        (minimax[row["deepest depth"]] / minimax[1]) ** (1 / (row["deepest depth"] - 1)), abs=0.01)
    assert summary["games"].sum() == 4 and (summary["wins"] + summary["draws"] + summary["losses"] == 4).all()
    times = table(run_cli, tmp_path, "alphabeta-times", ab, svg=True)
    assert (times["CPU (s)"] >= 0).all() and "nodes" in times


def test_scorecard_rows_of_every_experiment(run_cli, tmp_path, runs):
    ab = [runs / f"ab_{v}.json" for v in ("minimax", "ordered", "pruned")]
    record = tmp_path / "builtin.json"
    assert run_cli("balda", "parse", EN, "--name", "builtin", "--words", tmp_path / "builtin.txt",
                   "--out", record)[0] == 0
    build = tmp_path / "build.json"
    build.write_text(json.dumps({"stats": {}}), encoding="utf-8")
    # the table that closes each experiment writes its rows with --scorecard; they point to its --html
    tables = {"dictionary-lengths": [build, record], "speed-summary": [runs / "speed.json"],
              "alphabeta-branching": ab, "tournament-summary": [runs / "tour.json"]}
    rows = []
    for name, inputs in tables.items():
        out, html = tmp_path / f"{name}.scorecard.csv", tmp_path / f"{name}.html"
        code, _, err = run_cli("balda", "report", name, *inputs, "--csv", tmp_path / f"{name}.csv", "--html", html,
                               "--scorecard", out)
        assert code == 0, err
        df = pd.read_csv(out, keep_default_na=False, dtype=str)
        assert list(df.columns) == COLUMNS and len(df) >= 1 and set(df["link"]) == {str(html)}
        rows.append(df)
    code, _, err = run_cli("balda", "report", "speed", runs / "speed.json", "--csv", tmp_path / "s.csv",
                           "--html", tmp_path / "s.html", "--scorecard", tmp_path / "no.csv")
    assert code == 2 and "decides no scorecard rows" in err and "speed-summary" in err
    assert not (tmp_path / "no.csv").exists()
    card = pd.concat(rows)
    assert len(card) >= 4 and set(card["seed"]) == {"003"} and set(card["verdict"]) <= set(VERDICTS)
    assert (card["ours"] != "").all() and (card["article"] != "").all()
    no_5x5 = card[card["figure"].str.startswith("time to find every move")]
    assert no_5x5["verdict"].tolist() == ["not run here"]  # these runs are 3x3

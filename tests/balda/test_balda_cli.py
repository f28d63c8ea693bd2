"""Balda command line: JSON keys and counts, located errors with exit 2, played words of a board file."""

from __future__ import annotations

import json
import shlex

from balda_support import (
    EN,
    brute_moves,
    small_dictionary,
)

from conftest import REPO
from puzzlelab.balda.board import from_start_word


def test_cli_moves_json_keys_and_counts(run_cli, tmp_path):
    d = small_dictionary()
    words = tmp_path / "w.txt"
    words.write_text("\n".join(d.words) + "\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--start", "cat", "--dict", words, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"count", "moves"}
    assert result["count"] == len(result["moves"]) == len(brute_moves(from_start_word("cat", EN), set(d.words),
                                                                      EN.letters))
    assert all(set(m) == {"cell", "letter", "word", "path"} for m in result["moves"])
    code, out, err = run_cli("balda", "best", "--start", "cat", "--dict", words, "--depth", "1", "--json")
    assert code == 0, err
    best = json.loads(out)
    assert best["value"] == max(len(m["word"]) for m in result["moves"]) == len(best["move"]["word"])


def test_cli_errors_exit_2_with_location(run_cli, tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("cat\nca t2\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--start", "cat", "--dict", words)
    assert code == 2 and err.startswith(f"{words}:2: unexpected character '2'") and "Traceback" not in err
    good = tmp_path / "g.txt"
    good.write_text("cat\ncats\n", encoding="utf-8")
    board = tmp_path / "b.txt"
    board.write_text("....\ncat.\n....\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--board", board, "--dict", good)
    assert code == 2 and err.startswith(f"{board}:1: row has 4 cells, expected 3")
    code, out, err = run_cli("balda", "moves", "--start", "dogs", "--size", "5", "--dict", good)
    assert code == 2 and "a 5x5 board needs 5" in err
    code, out, err = run_cli("balda", "moves", "--start", "cat", "--dict", tmp_path / "missing.txt")
    assert code == 2 and "no such word list" in err


def test_board_file_played_words_are_not_moves(run_cli, tmp_path):
    d = small_dictionary()
    words = tmp_path / "w.txt"
    words.write_text("\n".join(d.words) + "\n", encoding="utf-8")
    board = tmp_path / "b.txt"
    board.write_text("...\ncat\n...\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--board", board, "--dict", words, "--json")
    assert code == 0, err
    before = {m["word"] for m in json.loads(out)["moves"]}
    assert "cat" in before or "cats" in before
    board.write_text("...\ncat\n...\n\ncat\ncats\nact\n", encoding="utf-8")
    code, out, err = run_cli("balda", "moves", "--board", board, "--dict", words, "--json")
    after = {m["word"] for m in json.loads(out)["moves"]}
    assert after == before - {"cat", "cats", "act"}


def test_docs_examples_on_the_project_data_run(run_cli, monkeypatch):
    """The examples of docs/balda.md that use data/balda/ run as written (exit 0, a result)."""
    text = (REPO / "docs" / "balda.md").read_text(encoding="utf-8")
    examples = [line for line in text.split("\n") if line.startswith("puzzlelab balda ") and "data/balda/" in line]
    assert len(examples) >= 3
    monkeypatch.chdir(REPO)
    for line in examples:
        code, out, err = run_cli(*shlex.split(line.split("#")[0])[1:])
        assert code == 0 and out.strip(), (line, err)

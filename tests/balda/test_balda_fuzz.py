"""Fuzzing the Balda readers through the CLI: mutated board files and word lists from data/balda/,
hostile numbers in the options. Every case exits 0 with a valid move list, or 2 with one located line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO
from fuzz_support import HOSTILE_NUMBERS, Scratch, assert_clean, fuzz_settings, mutated, run_forked, seed_files

DATA = REPO / "data" / "balda"
DICTS = {"en": DATA / "en_small.txt", "ru": DATA / "ru_small.txt"}
START = {"en": "cat", "ru": "балда"}
BOARDS = seed_files("data/balda/cat.txt", "data/balda/coast.txt", "data/balda/balda.txt")


@pytest.fixture(scope="module")
def scratch():
    s = Scratch()
    # compile every kernel the cases use in this process, so forked children start warm
    for args in (["moves", "--board", DATA / "balda.txt", "--dict", DICTS["ru"]],
                 ["moves", "--board", DATA / "cat.txt", "--dict", DICTS["en"], "--method", "forward"],
                 ["best", "--board", DATA / "coast.txt", "--dict", DICTS["en"], "--depth", "2"]):
        assert run_forked(["balda", *map(str, args), "--json"], timeout=600).code == 0
    from puzzlelab.cli import main

    main(["balda", "best", "--board", str(DATA / "coast.txt"), "--dict", str(DICTS["en"]), "--depth", "2",
          "--out", str(s.root / "warm.json")])
    yield s
    s.close()


def _dictionary_words(path) -> set[str] | None:
    """The normalised words of a word list (None when it is not readable: the case must then fail)."""
    from puzzlelab.balda.dictionary import read_word_list
    from puzzlelab.lab.errors import InputError

    try:
        return set(read_word_list(path).words)
    except InputError:
        return None


def check_moves(stdout: bytes, words: set[str]) -> None:
    """A move list as `moves --json` prints it: every path orthogonal, simple, through its cell, of
    the word's length, and every word from the list."""
    result = json.loads(stdout)
    assert result["count"] == len(result["moves"])
    for m in result["moves"]:
        assert m["word"] in words
        path = [tuple(p) for p in m.get("path", [])]
        if not path:  # --method forward lists no paths
            continue
        assert len(path) == len(m["word"]) == len(set(path)) and tuple(m["cell"]) in path
        for (r1, c1), (r2, c2) in zip(path, path[1:]):
            assert abs(r1 - r2) + abs(c1 - c2) == 1


def _judge(outcome, path, data) -> str:
    verdict = assert_clean(outcome, data=data)
    if verdict == "error":
        line = outcome.stderr.decode("utf-8", "replace")
        assert line.startswith(str(path)) or line.startswith("puzzlelab: error:"), line
    return verdict


@fuzz_settings()
@given(data=mutated(BOARDS), lang=st.sampled_from(sorted(DICTS)),
       command=st.sampled_from([["moves"], ["moves", "--method", "forward"], ["best", "--depth", "2"]]))
def test_balda_board_files_fuzz(scratch, data, lang, command):
    path = scratch.write("board.txt", data)
    outcome = run_forked(["balda", *command, "--board", str(path), "--dict", str(DICTS[lang]), "--json"])
    if _judge(outcome, path, data) == "ok" and command[0] == "moves":
        check_moves(outcome.stdout, set(DICTS[lang].read_text(encoding="utf-8").lower().replace("ё", "е").split()))


@fuzz_settings()
@given(st.data())
def test_balda_word_lists_fuzz(scratch, data):
    lang = data.draw(st.sampled_from(sorted(DICTS)))
    raw = data.draw(mutated([DICTS[lang].read_bytes()]))
    path = scratch.write("words.txt", raw)
    command = data.draw(st.sampled_from(["moves", "dict-stats"]))
    if command == "moves":
        argv = ["balda", "moves", "--start", START[lang], "--dict", str(path), "--json"]
    else:
        argv = ["balda", "dict-stats", f"list={path}", "--json"]
    outcome = run_forked(argv)
    if _judge(outcome, path, raw) == "ok":
        words = _dictionary_words(path)
        assert words is not None, "the CLI accepted a list its own reader rejects"
        if command == "moves":
            check_moves(outcome.stdout, words)
        else:
            assert json.loads(outcome.stdout)["lists"][0]["stats"]["words"] == len(words)


@pytest.mark.parametrize("option", ["--size", "--depth", "--node-limit", "--slack", "--endgame", "--seed"])
@pytest.mark.parametrize("number", HOSTILE_NUMBERS)
def test_balda_hostile_numbers_in_options(scratch, option, number):
    argv = ["balda", "best", "--start", "cat", "--dict", str(DICTS["en"]), "--depth", "1", option, number]
    outcome = run_forked(argv)
    err = outcome.stderr.decode("utf-8", "replace")
    assert not outcome.timed_out and outcome.signal is None and "Traceback" not in err, err
    assert outcome.code in (0, 2), err
    if outcome.code == 2:  # argparse prints its usage first; the reason is the last line, and names the option
        last = err.strip().split("\n")[-1]
        assert "error:" in last and (option in last or option.lstrip("-").replace("-", " ") in last), err

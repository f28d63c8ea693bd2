"""The parse step: canonical instance files, unreadable levels recorded instead of failing."""

from __future__ import annotations

import csv
import json

from snakebird_support import DATA

from puzzlelab.snakebird.report import collect

HEAD_ALONE = "; name: lonely\n#####\n#R*.#\n#####\n"


def test_a_readable_level_becomes_its_canonical_text(run_cli, tmp_path):
    src = tmp_path / "crlf.txt"
    src.write_bytes((DATA / "crate.txt").read_text().replace("\n", "\r\n").encode() + b"\r\n\r\n")
    out, bad = tmp_path / "crate.txt", tmp_path / "crate.unreadable.csv"
    code, stdout, _ = run_cli("snakebird", "parse", src, "--out", out, "--unreadable", bad, "--json")
    assert code == 0 and json.loads(stdout)["snakes"] == 1
    assert out.read_text() == (DATA / "crate.txt").read_text()
    assert bad.read_text() == "path,line,reason\n"


def test_an_unreadable_level_is_a_row_and_a_marked_instance(run_cli, tmp_path):
    src = tmp_path / "lonely.txt"
    src.write_text(HEAD_ALONE)
    out, bad = tmp_path / "lonely.level.txt", tmp_path / "lonely.unreadable.csv"
    code, _, _ = run_cli("snakebird", "parse", src, "--out", out, "--unreadable", bad, "--label", "corpus:lonely")
    assert code == 0
    [row] = list(csv.DictReader(bad.open()))
    assert row["path"] == "corpus:lonely" and row["line"] == "3" and "head alone" in row["reason"]
    # without --unreadable the same level is the usual located error
    code, _, err = run_cli("snakebird", "parse", src, "--out", tmp_path / "x.txt")
    assert code == 2 and err.startswith(f"{src}:3: ") and not (tmp_path / "x.txt").exists()
    # the marked instance: an error for a user, a record for the pipeline's solve step
    code, _, err = run_cli("snakebird", "solve", out)
    assert code == 2 and "the parse step could not read this level: corpus:lonely:3:" in err
    result = tmp_path / "run.json"
    code, _, _ = run_cli("snakebird", "solve", out, "--unreadable-ok", "--out", result)
    assert code == 0 and json.loads(result.read_text())["unreadable"].startswith("corpus:lonely:3: ")
    assert collect([str(result)], [], {})[0].empty  # the tables leave it out (the report lists it)

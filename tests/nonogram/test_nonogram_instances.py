"""The parse step: canonical instance files that read back into the same puzzles, and unreadable
files recorded as rows instead of failing."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from conftest import REPO
from puzzlelab.lab.errors import InputError
from puzzlelab.nonogram.formats import load

DATA = REPO / "data" / "nonogram"


def _same(a, b) -> bool:
    return (a.name, a.title, a.palette, a.rows, a.cols) == (b.name, b.title, b.palette, b.rows, b.cols) and (
        (a.goal is None and b.goal is None) or np.array_equal(a.goal, b.goal))


def test_instances_read_back_into_the_same_puzzles(run_cli, tmp_path):
    out, bad = tmp_path / "ours.nonjson", tmp_path / "ours.unreadable.csv"
    (tmp_path / "broken.non").write_text("width 2\nheight 2\nrows\n1\n")
    code, stdout, err = run_cli("nonogram", "parse", DATA, tmp_path / "broken.non", "--out", out, "--unreadable", bad)
    assert code == 0, err
    originals = [p for f in sorted(DATA.iterdir()) if f.is_file() for p in load(str(f))]
    again = load(str(out))
    assert len(again) == len(originals) > 5 and all(_same(a, b) for a, b in zip(again, originals))
    assert any(not p.is_bw for p in again) and any(p.goal is not None for p in again)
    [row] = list(csv.DictReader(bad.open()))
    assert row["path"].endswith("broken.non") and row["line"] and row["reason"]
    assert f"{len(again)} puzzles written" in stdout and "1 files unreadable" in stdout
    # the same input gives the same bytes; without --unreadable the broken file is the error
    code, _, _ = run_cli("nonogram", "parse", DATA, tmp_path / "broken.non", "--out", tmp_path / "b.nonjson",
                         "--unreadable", tmp_path / "b.csv")
    assert (tmp_path / "b.nonjson").read_bytes() == out.read_bytes()
    code, _, err = run_cli("nonogram", "parse", tmp_path / "broken.non", "--out", tmp_path / "c.nonjson")
    assert code == 2 and err.startswith(str(tmp_path / "broken.non") + ":")


def test_limit_counts_puzzles_as_bench_does(run_cli, tmp_path):
    out = tmp_path / "three.nonjson"
    assert run_cli("nonogram", "parse", DATA, "--limit", "3", "--out", out)[0] == 0
    assert len(load(str(out))) == 3


def test_defaults_can_be_written_out(run_cli, tmp_path):
    """`--format auto --limit all` (the pipeline's spelling of the defaults) read exactly as no flags."""
    plain, spelled = tmp_path / "plain.nonjson", tmp_path / "spelled.nonjson"
    assert run_cli("nonogram", "parse", DATA, "--out", plain)[0] == 0
    assert run_cli("nonogram", "parse", DATA, "--format", "auto", "--limit", "all", "--out", spelled)[0] == 0
    assert spelled.read_bytes() == plain.read_bytes()
    code, _, err = run_cli("nonogram", "parse", DATA, "--limit", "some", "--out", spelled)
    assert code == 2 and "--limit" in err and "'some'" in err
    code, _, err = run_cli("nonogram", "parse", DATA, "--format", "nope", "--out", spelled)
    assert code == 2 and "auto" in err and "nope" in err


@pytest.mark.parametrize("line, reason", [
    ('{"name": "x"}', "exactly the keys"),
    ('{"name":"x","title":"","note":"","palette":["#fff","#000"],"rows":[[[2,1]]],"cols":[[[1,1]]],"goal":[[7]]}',
     "not in the palette"),
    ('{"name":"x","title":"","note":"","palette":["#fff","#000"],"rows":[[[1.5,1]]],"cols":[[[1,1]]],"goal":null}',
     "pairs of integers"),
    ("[1, 2", "not a JSON object"),
    ('{"name":"x","title":"","note":"","palette":["#fff","red!"],"rows":[[[1,1]]],"cols":[[[1,1]]],"goal":null}',
     "palette must be"),
])
def test_a_bad_instance_line_is_located(tmp_path, line, reason):
    f = tmp_path / "x.nonjson"
    f.write_text('\n' + line + "\n")
    with pytest.raises(InputError) as e:
        load(str(f))
    assert e.value.line == 2 and reason in e.value.message

"""The beam's tie-break preferences: PRIOR ranks from a corpus of boards, LODESTONE ranks from the supply of
each demand, the lottery unchanged without them, and the errors of the options."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlelab.edgematch.board import format_board_text
from puzzlelab.edgematch.generate import generate
from puzzlelab.edgematch.puzzle import write_puzzle
from puzzlelab.edgematch.search.beam import beam_search
from puzzlelab.edgematch.search.tables import build_tables
from puzzlelab.edgematch.search.ties import RANK_SHIFT, lodestone_ranks, prior_ranks, tie_table


@pytest.fixture(scope="module")
def g8():
    return generate(8, seed=11)


def test_lottery_alone_is_the_default(g8):
    puzzle, _ = g8
    tables = build_tables(puzzle, "row")
    a = beam_search(puzzle, tables, 8, seed=1, progress=False)
    b = beam_search(puzzle, tables, 8, seed=1, progress=False, tie=tie_table(puzzle, tables, "lottery", "none"))
    assert a.board.same_placement(b.board) and a.score == b.score


def test_prior_from_the_planted_solution_leads_the_beam_to_it(g8, tmp_path):
    puzzle, solution = g8
    boards = tmp_path / "strong.txt"
    boards.write_text(format_board_text(solution, "planted"))
    tables = build_tables(puzzle, "row")
    ranks = prior_ranks(puzzle, tables, str(boards))
    for d, cell in enumerate(tables.order[:20]):
        want = int(solution.piece.ravel()[cell])
        assert all(ranks[d, 4 * want + r] == 0 for r in range(4))
        assert ranks[d].sum() == 4 * (puzzle.n_pieces - 1)  # every other piece ranks 1
    tie = tie_table(puzzle, tables, "prior", str(boards))
    res = beam_search(puzzle, tables, 4, seed=0, progress=False, tie=tie)
    lottery = beam_search(puzzle, tables, 4, seed=0, progress=False)
    assert res.score == puzzle.max_score > lottery.score


def test_lodestone_rank_is_the_supply_of_the_demand(g8):
    puzzle, _ = g8
    tables = build_tables(puzzle, "row")
    ranks = lodestone_ranks(tables)
    lay, c = tables.layout, tables.cands
    for d in (0, 1, 9, 20, 40):
        t = int(lay.cell_type[lay.order[d]])
        legal = c.fit_pr[c.fit_ptr[t]:c.fit_ptr[t + 1]]
        sides = [int(s) for s in lay.nb_side[d, :lay.nb_k[d]]]
        for pr in legal[:12]:
            demand = [c.rotcol[pr, s] for s in sides]
            supply = sum(all(c.rotcol[q, s] == v for s, v in zip(sides, demand, strict=True)) for q in legal)
            assert ranks[d, pr] == min(supply, 255)
    tie = tie_table(puzzle, tables, "lodestone", "none")
    assert tie.dtype == np.uint64 and np.all((tie >> RANK_SHIFT) == ranks)


def test_cli_tie_break_options_and_errors(tmp_path, run_cli, g8):
    puzzle, solution = g8
    path = tmp_path / "g8.txt"
    write_puzzle(path, puzzle)
    code, out, err = run_cli("edgematch", "beam", path, "--width", "4", "--tie-break", "lodestone", "--json")
    assert code == 0 and '"tie_break": "lodestone"' in out, err
    code, out, _ = run_cli("edgematch", "beam", path, "--width", "4", "--json")
    assert code == 0 and "tie_break" not in out
    boards = tmp_path / "b.txt"
    boards.write_text(format_board_text(solution, "planted"))
    for extra, needle in ((["--tie-break", "prior"], "needs --prior-boards"),
                          (["--tie-break", "prior", "--prior-boards", tmp_path / "missing.txt"], "missing.txt"),
                          (["--prior-boards", boards], "applies to --tie-break prior")):
        code, _, err = run_cli("edgematch", "beam", path, "--width", "4", *extra)
        assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err
    small = generate(5, seed=2)[1]
    boards.write_text(format_board_text(small, "small"))
    code, _, err = run_cli("edgematch", "beam", path, "--width", "4", "--tie-break", "prior", "--prior-boards", boards)
    assert code == 2 and "5x5" in err, err

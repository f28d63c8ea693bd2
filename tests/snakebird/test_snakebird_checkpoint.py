"""`snakebird solve --checkpoint`: a solve killed between depths resumes and writes the same artifact."""

from __future__ import annotations

import pytest
from snakebird_support import DATA

from puzzlelab.bfs import checkpoint as ckpt_mod
from puzzlelab.bfs import fused as fused_mod


class Killed(Exception):
    """Stands for the SIGKILL that ends a session."""


def test_a_killed_solve_resumes_to_the_same_artifact(run_cli, monkeypatch, tmp_path):
    level = DATA / "two-birds.txt"
    base = ["snakebird", "solve", level, "--memory-budget", "256M", "--workdir", tmp_path / "w"]
    code, _, _ = run_cli(*base, "--out", tmp_path / "plain.json")
    assert code == 0
    real, saves = ckpt_mod.Checkpointer.save, []

    def save(self, mem, state):
        real(self, mem, state)
        saves.append(state["depth"])
        if len(saves) == 5:
            raise Killed

    monkeypatch.setattr(ckpt_mod.Checkpointer, "save", save)
    monkeypatch.setattr(fused_mod, "MAX_FUSED_BYTES", 0)  # the engine from depth 0: it saves every depth
    resume = [*base, "--checkpoint", tmp_path / "c", "--checkpoint-every", "1e-9", "--out", tmp_path / "r.json"]
    with pytest.raises(Killed):
        run_cli(*resume)
    monkeypatch.undo()
    code, _, err = run_cli(*resume)
    assert code == 0 and "resumed from the checkpoint at depth 5" in err
    assert (tmp_path / "r.json").read_bytes() == (tmp_path / "plain.json").read_bytes()
    assert not (tmp_path / "c").exists()

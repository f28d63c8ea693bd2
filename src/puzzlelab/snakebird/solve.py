"""Solve a level optimally with the compressed BFS engine and check the solution by replaying it."""

from __future__ import annotations

from pathlib import Path

from ..lab.cli_support import DEFAULT_MEMORY_BUDGET
from .domain import SnakebirdDomain
from .level import load_level
from .play import is_won, name_moves, parse_moves, replay


def solve(level_path: str | Path, *, memory_budget: str | int = DEFAULT_MEMORY_BUDGET,
          workdir: str | Path | None = None, codec: str | None = None, max_depth: int | None = None,
          order: str = "le", progress: bool = True, checkpoint: str | Path | None = None,
          checkpoint_every_s: float = 600.0) -> dict:
    """The `snakebird solve` result: optimal move count, a solution in level letters, per-depth counts,
    compressed size of the visited set, and a replay of the solution from the level file.

    With `checkpoint` (a folder) the search saves itself and resumes an interrupted run of the same level."""
    from ..bfs.engine import search
    from ..lab.hashing import sha256_file

    level = load_level(level_path)
    domain = SnakebirdDomain(level)
    kwargs = {} if codec is None else {"codec": codec}
    if checkpoint is not None:  # the level's text, not only its start state, must be the one saved
        kwargs.update(checkpoint=checkpoint, checkpoint_every_s=checkpoint_every_s,
                      fingerprint=sha256_file(level_path))
    with search(domain, max_depth=max_depth, memory_budget=memory_budget, workdir=workdir, stop_at_goal=True,
                progress=progress, order=order, fused=True, **kwargs) as res:
        solution: list[str] = []
        solved = res.path is not None
        if solved:
            solution, final = name_moves(domain, res.path.moves)
            # the identity-tracking replay must pass through exactly the engine's states
            if not is_won(final):
                raise RuntimeError(f"{level.name}: the engine's path does not end in a won position")
        # an independent replay from the level file, as a user would type it
        positions, error = ([], None)
        if solved:
            positions, error = replay(domain, parse_moves(",".join(solution), level.snake_letters))
        replay_won = bool(solved and error is None and is_won(positions[-1]))
        result = {
            "level": level.name,
            "level_file": str(level_path),
            "solved": solved,
            "moves": len(solution) if solved else None,
            "solution": solution,
            "expected_moves": level.expected_moves,
            "matches_expected": None if level.expected_moves is None or not solved
            else len(solution) == level.expected_moves,
            "replay_won": replay_won,
            "states": res.states,
            "layers": list(res.layers),
            "max_depth": res.max_depth,
            "children": res.children,
            "state_bytes": domain.width,
            "state_bits": level.state_bits,
            "codec": res.codec,
            "order": res.order,
            "memory_budget_bytes": res.memory_budget,
            "visited_bytes": res.visited_bytes,
            "bits_per_state": res.bits_per_state,
            "parent_bytes": res.parent_bytes,
            "spilled_bytes": res.spilled_bytes,
            "spill_files": res.spill_files,
            "peak_rss_bytes": res.peak_rss_bytes,
            "time_s": res.time_s,
            "cpu_s": res.cpu_s,
            "path_time_s": res.path_time_s,
            "resumed_from_depth": res.resumed_from_depth,
            "level_summary": level.summary(),
        }
    if solved and not replay_won:
        raise RuntimeError(f"{level.name}: the solution does not replay to a win ({error})")
    return result


"""Self-play: two searchers (their own depths and options) play a whole game from a start word."""

from __future__ import annotations

from .board import Board
from .engine import Engine, SearchOptions


def apply_move(board: Board, cell: int, letter: int, word: str) -> None:
    board.cells[cell] = letter
    board.played.append(word)


def play_game(engine: Engine, board: Board, depths: tuple[int, int], options: tuple[SearchOptions, SearchOptions],
              seed: int = 0, progress=None, positions: list | None = None) -> dict:
    """Play until the board is full or both players pass in a row. Player 0 ("a") moves first.

    Ties between equally valued moves are broken by a shuffle seeded from (seed, ply), so a game is
    a function of its start, depths, options and seed. `positions`, when a list, receives
    (board copy, move) before every move — the self-play positions of the speed experiment.
    """
    alpha = engine.dictionary.alphabet
    words = engine.dictionary.words
    scores = [0, 0]
    passes = 0
    ply = 0
    record = []
    while board.empty > 0 and passes < 2:
        player = ply % 2
        result = engine.search(board, depths[player], options[player], seed=seed * 1_000_003 + ply)
        entry = {"ply": ply + 1, "player": "ab"[player], "depth": depths[player], "value": result.value,
                 "nodes": result.nodes, "time_s": result.time_s, "cpu_time_s": result.cpu_time_s}
        if not result.complete:
            entry["complete"] = False  # the search was stopped by its node limit
        if positions is not None:
            positions.append((board.copy(), result.move))
        if result.move is None:
            passes += 1
            entry["pass"] = True
        else:
            m = result.move
            passes = 0
            apply_move(board, m.cell, m.letter, words[m.word])
            scores[player] += m.length
            entry.update({"pass": False, "cell": [m.cell // board.size, m.cell % board.size],
                          "letter": alpha.letters[m.letter], "word": words[m.word],
                          "path": [[p // board.size, p % board.size] for p in m.path]})
        entry["score"] = {"a": scores[0], "b": scores[1]}
        record.append(entry)
        ply += 1
        if progress is not None:
            progress.update(1, note=f"{scores[0]}:{scores[1]}")
    if scores[0] > scores[1]:
        winner = "a"
    elif scores[1] > scores[0]:
        winner = "b"
    else:
        winner = "draw"
    return {"moves": record, "score": {"a": scores[0], "b": scores[1]}, "winner": winner,
            "margin": scores[0] - scores[1], "final_board": board.rows(alpha),
            "ended_by": "full board" if board.empty == 0 else "two passes"}

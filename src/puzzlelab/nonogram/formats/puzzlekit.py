"""The puzzlekit dataset's JSON collection: `{"data": {"<id>_<R>x<C>": {"problem": ..., "solution": ...}}}`.

`problem` is text: `R C`, then C column clue lines, then R row clue lines; `solution` is `R C` and R
rows of `x` (black) / `-` (white). `file#N` is the N-th entry (1-based); `file#<id>` also works.
"""

from __future__ import annotations

import json
import re

import numpy as np

from ...lab.errors import InputError, quote
from ..model import Puzzle, check_puzzle
from ._text import int_clue, to_int


def _line_of_key(text: str, key: str) -> int:
    at = text.find(json.dumps(key))
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _one(key: str, entry: dict, text: str, path, stem: str) -> Puzzle:
    ln = None  # the entry's line is looked up only when an error needs it (see parse)
    where = f"entry {quote(key)}"
    problem = entry.get("problem") if isinstance(entry, dict) else None
    if not isinstance(problem, str):
        raise InputError(f"{where} has no \"problem\" text", path, ln)
    lines = [t for t in problem.strip().split("\n")]
    head = lines[0].split()
    if len(head) != 2:
        raise InputError(f"{where}: problem starts with {quote(lines[0])}, expected `rows columns`", path, ln)
    height, width = to_int(head[0], path, ln, "row count"), to_int(head[1], path, ln, "column count")
    body = lines[1:]
    if len(body) != width + height:
        raise InputError(f"{where}: expected {width} column and {height} row clue lines, found {len(body)}", path, ln)
    try:
        clues = [int_clue(re.split(r"[\s,]+", t.strip()) if t.strip() else ["0"], path, ln) for t in body]
    except InputError as err:
        err.message = f"{where}: {err.message}"
        raise
    goal = None
    sol = entry.get("solution")
    if isinstance(sol, str) and sol.strip():
        srows = [r.split() for r in sol.strip().split("\n")[1:]]
        if len(srows) == height and all(len(r) == width for r in srows):
            goal = np.array([[1 if ch == "x" else 0 for ch in r] for r in srows], dtype=np.int8)
    p = Puzzle(name=f"{stem}#{key}", rows=clues[width:], cols=clues[:width], goal=goal, format="puzzlekit")
    return check_puzzle(p, path, ln)


def parse(text: str, path, stem: str) -> list[Puzzle]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"not valid JSON: {err.msg}", path, err.lineno) from None
    except (ValueError, RecursionError) as err:  # a number too long to convert, nesting too deep
        raise InputError(f"not valid JSON: {err}", path) from None
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict):
        raise InputError("expected an object with a \"data\" object of puzzles", path, 1)
    out = []
    for key, entry in data.items():
        try:
            out.append(_one(key, entry, text, path, stem))
        except InputError as err:
            err.line = _line_of_key(text, key)
            raise
    return out

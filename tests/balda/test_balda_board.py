"""Balda boards: the start word, board files with played words, bad boards at their line."""

from __future__ import annotations

import pytest
from balda_support import (
    EN,
    RU,
)

from puzzlelab.balda.board import from_start_word, read_board
from puzzlelab.lab.errors import InputError


def test_start_word_in_middle_row():
    b = from_start_word("балда", RU)
    assert b.rows(RU) == [".....", ".....", "балда", ".....", "....."]
    assert b.played == ["балда"] and b.empty == 20
    b6 = from_start_word("ёжикам", RU)
    assert b6.rows(RU)[3] == "ежикам" and b6.played == ["ежикам"]


@pytest.mark.parametrize("text, message", [
    ("...\ncat\n..\n", ":3: row has 2 cells, expected 3"),
    ("...\nc1t\n...\n", ":2: column 2: '1' is not a letter"),
    ("c..\n...\n..t\n", ":1: the letters are not one orthogonally connected group"),
    ("...\n...\n...\n", ":1: the board has no letter"),
    ("..\n..\n", "board size 2 is not supported"),
])
def test_bad_boards(tmp_path, text, message):
    path = tmp_path / "board.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_board(path, EN)
    assert message in str(err.value) and str(err.value).startswith(str(path))


def test_board_file_with_played_words(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("...\ncat\n.s.\n\ncat\ncats\n", encoding="utf-8")
    b = read_board(path, EN)
    assert b.size == 3 and b.played == ["cat", "cats"] and b.filled == 4


def test_board_errors_cite_short_quotes_at_the_right_line(tmp_path):
    path = tmp_path / "board.txt"
    path.write_bytes(b"...\r\ncat\r\n...\r\n\r\ncat\r\n" + b"x" * 5000 + b"1\r\n")
    with pytest.raises(InputError) as err:
        read_board(path, EN)
    message = str(err.value)
    assert message.startswith(f"{path}:6: played word 'xxx") and len(message) < 300
    path.write_bytes(b"." * 9 + b"\n" + (b"." * 9 + b"\n") * 8)
    with pytest.raises(InputError, match=r":9: board size 9 is not supported"):
        read_board(path, EN)

"""Balda word lists: normalisation, located errors, the built-in OpenCorpora nouns, dict-stats."""

from __future__ import annotations

import json

import pytest
from balda_support import (
    RU,
)

from puzzlelab.balda.dictionary import normalise_lines, opencorpora_nouns, read_word_list
from puzzlelab.lab.errors import InputError


def test_normalise_folds_yo_drops_short_multiword_foreign_and_duplicates():
    wl = normalise_lines(["Ёлка", "елка", "агар-агар", "я", "кот", "", "house", "  Кот "], RU)
    assert wl.words == ["елка", "кот"]
    assert wl.stats == {"entries": 7, "duplicates": 2, "dropped_short": 1, "dropped_multiword": 1,
                        "dropped_other_letters": 1, "words": 2}


def test_word_list_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "digits.txt"
    bad.write_text("кот\nслон\nкот2\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_word_list(bad)
    assert str(err.value).startswith(f"{bad}:3: unexpected character '2'")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("кот\n".encode() + "caf\xe9\n".encode("latin-1"))
    with pytest.raises(InputError) as err:
        read_word_list(latin1)
    assert str(err.value).startswith(f"{latin1}:2: not UTF-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="no usable word"):
        read_word_list(empty)
    english = tmp_path / "en.txt"
    english.write_text("cat\ndog\nмышь\n", encoding="utf-8")
    with pytest.raises(InputError, match="--lang en"):
        read_word_list(english, "ru")
    assert read_word_list(english).words == ["cat", "dog"]  # the alphabet is guessed


def test_opencorpora_nouns_keep_common_nouns_and_drop_names():
    """A slice of the lexicon (lemmas starting with 'сан'): the grammeme filter at work."""
    wl = opencorpora_nouns(prefix="сан")
    words = set(wl.words)
    assert {"сани", "санаторий", "сантехник", "санки"} <= words  # сани, санки: pluralia tantum
    assert "саня" not in words  # a first name (Name)
    assert "санкт-петербург" not in words and "санкт" not in words  # place name, not а–я only
    assert all(set(w) <= set(RU.letters) and len(w) >= 2 for w in words)
    assert wl.words == sorted(words)


def test_cli_dictionary_build_and_stats(run_cli, tmp_path):
    words = tmp_path / "nouns.txt"
    code, out, err = run_cli("balda", "dictionary", "--prefix", "сан", "--prefix", "кот", "--words", words, "--json")
    assert code == 0, err
    built = json.loads(out)
    listed = words.read_text(encoding="utf-8").split()
    assert built["stats"]["words"] == len(listed) and listed == sorted(listed)
    assert {"сани", "кот", "котенок"} <= set(listed) and "саня" not in listed
    assert sum(built["lengths"].values()) == len(listed)
    other = tmp_path / "other.txt"
    other.write_text("кот\nкотёнок\nслон\nсан-марино\n", encoding="utf-8")
    code, out, err = run_cli("balda", "dict-stats", f"builtin={words}", f"other={other}", "--json")
    assert code == 0, err
    lists = json.loads(out)["lists"]
    assert lists[1]["stats"]["words"] == 3 and lists[1]["stats"]["dropped_multiword"] == 1
    assert lists[1]["common_with_first"] == 2  # кот, котенок


def test_word_list_limits_and_lines_as_editors_count(tmp_path, monkeypatch):
    import puzzlelab.balda.dictionary as dictionary

    long = tmp_path / "long.txt"
    long.write_text("кот\n" + "а" * 65 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_word_list(long)
    assert str(err.value).startswith(f"{long}:2: word of 65 letters") and len(str(err.value)) < 300
    feed = tmp_path / "feed.txt"
    feed.write_bytes("кот\r\nсл\x0cон\r\nдом\n".encode())  # a form feed is no line break for an editor
    with pytest.raises(InputError) as err:
        read_word_list(feed)
    assert str(err.value).startswith(f"{feed}:2: unexpected character '\\x0c'")
    nul = tmp_path / "nul.txt"
    nul.write_bytes("кот\nсл\x00он\n".encode())
    with pytest.raises(InputError, match=r":2: .*NUL"):
        read_word_list(nul)
    with pytest.raises(InputError, match="is a directory"):
        read_word_list(tmp_path)
    monkeypatch.setattr(dictionary, "MAX_LETTERS", 5)
    big = tmp_path / "big.txt"
    big.write_text("кот\nслон\n", encoding="utf-8")
    with pytest.raises(InputError, match="2 words of 7 letters in all: at most 5 letters"):
        read_word_list(big)

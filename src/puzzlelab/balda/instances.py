"""The parse step: a word list read, checked and normalised into the canonical dictionary file the
experiments use (sorted, one word per line), described by a record of what normalising dropped, its
word lengths and the sizes of the tries built from it. A list that cannot be read becomes a record
and a `path,line,reason` row instead, so one malformed corpus file does not stop a workflow."""

from __future__ import annotations

import os

import numpy as np

from ..lab import unreadable as unreadable_list
from ..lab.errors import InputError
from .alphabet import alphabet
from .dictionary import Dictionary, length_distribution, read_word_list, write_word_list
from .trie import forward_trie, separator_trie


def trie_sizes(dictionary: Dictionary) -> dict:
    """Nodes of the separator trie (one tree) and of the forward and backward tries it replaces."""
    codes, lengths = dictionary.codes, dictionary.lengths
    sep = separator_trie(codes, lengths, dictionary.alphabet.size)
    forward = forward_trie(codes, lengths)
    width = codes.shape[1]
    j = np.arange(width)[None, :]
    src = np.where(j < lengths[:, None], lengths[:, None] - 1 - j, j)  # reverse each word in place
    backward = forward_trie(np.take_along_axis(codes, src, axis=1), lengths)
    return {"separator_nodes": sep.nodes, "separator_bytes": sep.nbytes, "forward_nodes": forward.nodes,
            "backward_nodes": backward.nodes, "forward_backward_bytes": forward.nbytes + backward.nbytes}


def parse_word_list(path: str | os.PathLike, name: str, label: str, lang: str | None = None) -> tuple[list, dict]:
    """(canonical words, record) of one word list; InputError when it cannot be read."""
    wl = read_word_list(path, lang)
    record = {"name": name, "source": label, "lang": wl.lang, "stats": wl.stats,
              "lengths": length_distribution(wl.words),
              "tries": trie_sizes(Dictionary(wl.words, alphabet(wl.lang), label))}
    return wl.words, record


def parse(path: str | os.PathLike, name: str, label: str | None, words_out: str, lang: str | None = None,
          unreadable: str | None = None) -> dict:
    """Write the canonical list to `words_out` and return its record. With `unreadable`, a list that
    cannot be read gives an empty list, a record saying why and a row in that CSV; without, the error."""
    label = str(path) if label is None else label
    try:
        words, record = parse_word_list(path, name, label, lang)
    except InputError as err:
        if unreadable is None:
            raise
        write_word_list(words_out, [])
        unreadable_list.write(unreadable, err, label)
        return {"name": name, "source": label, "unreadable": {"line": err.line, "reason": err.message}}
    write_word_list(words_out, words)
    record["words_file"] = str(words_out)
    if unreadable is not None:
        unreadable_list.write(unreadable)
    return record

"""Block codecs: the article's row filter, round trips, the row filter on sort keys."""

from __future__ import annotations

import numpy as np
import pytest
from bfs_support import eight_puzzle_search
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.bfs.codec import CODECS, Codec, rowfilter_encode
from puzzlelab.bfs.keys import keys_to_rows, rows_to_keys, sort_unique
from puzzlelab.lab.errors import InputError


@pytest.fixture(scope="module")
def eight_puzzle():
    res = eight_puzzle_search()
    yield res
    res.close()


def test_row_filter_matches_the_article_example():
    rows = np.array([[1, 2, 3, 4], [1, 2, 6, 4]], dtype=np.uint8)
    out = np.empty(32, dtype=np.uint8)
    n = rowfilter_encode(rows, out)
    # first row against zeros: mask 0b1111 then the 4 bytes; second row: mask 0b0100 then 6
    assert out[:n].tolist() == [0b1111, 1, 2, 3, 4, 0b0100, 6]


def test_row_filter_long_rows_use_multi_byte_varints():
    rows = np.zeros((2, 20), dtype=np.uint8)
    rows[1, 19] = 9
    out = np.empty(64, dtype=np.uint8)
    n = rowfilter_encode(rows, out)
    assert out[:n].tolist() == [0, 0x80, 0x80, 0b0100000, 9]  # byte 19 = group 2, bit 5


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 24), st.integers(0, 300), st.integers(0, 2**32 - 1), st.sampled_from(CODECS))
def test_codec_round_trip(width, n, seed, name):
    """Any rows, sorted or not (the gap codecs wrap around on a decrease), come back as they were."""
    if name.startswith("gap"):
        width = min(width, 16)
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, rng.integers(1, 257), (n, width)).astype(np.uint8)
    rows = rows[np.lexsort(rows.T[::-1])] if n else rows
    codec = Codec(name)
    assert np.array_equal(codec.decode(codec.encode(rows), n, width), rows)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 24), st.integers(0, 300), st.integers(0, 2**32 - 1), st.sampled_from(CODECS), st.booleans())
def test_codec_on_sort_keys_writes_the_same_bytes(width, n, seed, name, le):
    """encode_keys/decode_keys (the row filter run on the keys) are encode/decode of the rows."""
    if name.startswith("gap"):
        width = min(width, 16)
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, rng.integers(1, 257), (n, width)).astype(np.uint8)
    keys, _ = sort_unique(rows_to_keys(rows, le), np.zeros(n, dtype=np.uint8), width)
    keys = np.ascontiguousarray(keys)
    rows = keys_to_rows(keys, width, le)
    codec = Codec(name, le=le)
    payload = codec.encode_keys(keys, le, width)
    assert payload == codec.encode(rows)
    out = np.full_like(keys, 7)
    assert np.array_equal(codec.decode_keys(payload, keys.shape[0], width, le, out), keys)


def test_row_filter_plus_zstd_beats_zstd_on_sorted_states(eight_puzzle):
    store = eight_puzzle.layer_stores[-5]
    rows = np.concatenate([store.decode(i)[0] for i in range(len(store.blocks))])
    assert len(Codec("rowfilter-zstd").encode(rows)) < len(Codec("zstd").encode(rows)) < rows.nbytes


@pytest.mark.parametrize("name", ["gap", "gap-zstd"])
def test_gap_codec_stores_wide_gaps_and_refuses_wide_states(name):
    keys = np.array([[0, 1], [0, 2], [1, 0], [2**63, 5], [2**64 - 1, 2**64 - 1]], dtype=np.uint64)
    codec = Codec(name)
    payload = codec.encode_keys(keys, True, 16)
    assert np.array_equal(codec.decode_keys(payload, 5, 16, True, np.empty_like(keys)), keys)
    with pytest.raises(InputError, match="at most 16 bytes"):
        codec.encode(np.zeros((2, 17), dtype=np.uint8))


def test_unknown_codec_is_an_input_error():
    with pytest.raises(InputError, match="unknown codec"):
        Codec("gzip")

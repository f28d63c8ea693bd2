"""Alphabets (Russian а–я with ё folded into е, English a–z) and word normalisation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RUSSIAN = "абвгдежзийклмнопрстуфхцчшщъыьэюя"
ENGLISH = "abcdefghijklmnopqrstuvwxyz"
LANGS = {"ru": RUSSIAN, "en": ENGLISH}
# Letters folded before checking the alphabet (ё is played as е).
FOLD = str.maketrans({"ё": "е"})


@dataclass(frozen=True)
class Alphabet:
    """The letters of one language; a letter's code is its index (0..size-1)."""

    lang: str
    letters: str

    @property
    def size(self) -> int:
        return len(self.letters)

    def normalise(self, word: str) -> str:
        """Lower case, ё→е, surrounding blanks removed."""
        return word.strip().lower().translate(FOLD)

    def is_word(self, word: str) -> bool:
        return bool(word) and all(ch in self._index for ch in word)

    def encode(self, word: str) -> np.ndarray:
        return np.fromiter((self._index[ch] for ch in word), dtype=np.int8, count=len(word))

    def decode(self, codes) -> str:
        return "".join(self.letters[int(c)] for c in codes)

    @property
    def _index(self) -> dict[str, int]:
        cache = self.__dict__.get("_cache")
        if cache is None:
            cache = {ch: i for i, ch in enumerate(self.letters)}
            object.__setattr__(self, "_cache", cache)
        return cache


def alphabet(lang: str) -> Alphabet:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(sorted(LANGS))})")
    return Alphabet(lang, LANGS[lang])


def guess_lang(words) -> str:
    """'en' when Latin letters outnumber Cyrillic ones in the words, else 'ru'."""
    latin = cyrillic = 0
    for w in words:
        for ch in w:
            if "a" <= ch <= "z":
                latin += 1
            elif "а" <= ch <= "я" or ch == "ё":
                cyrillic += 1
    return "en" if latin > cyrillic else "ru"

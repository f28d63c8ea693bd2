"""Word lists: read and normalise any UTF-8 list, build the built-in Russian noun list from the
OpenCorpora lexicon shipped by pymorphy3-dicts-ru, and describe a list (size, lengths)."""

from __future__ import annotations

import os
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..lab.atomic import atomic_write
from ..lab.errors import InputError, quote
from ..lab.textio import read_text
from .alphabet import Alphabet, alphabet, guess_lang

MIN_LENGTH = 2  # a move names a path through the new letter and at least one old one
MAX_LENGTH = 64  # no path is longer than the 64 cells of the largest board (8 x 8)
MAX_LETTERS = 4_000_000  # letters of a whole list (the built-in one has about 560,000): bounds the tries' memory
# OpenCorpora grammemes that mark what is not a common noun (names, surnames, patronymics, places,
# organisations, trademarks, abbreviations, initials) or a misspelt / distorted entry.
DEFAULT_EXCLUDE = ("Name", "Surn", "Patr", "Geox", "Orgn", "Trad", "Abbr", "Init", "Erro", "Dist")
# Characters that may join the parts of a multi-word entry; such entries are dropped, not errors.
JOINERS = set("-'’ ")
BUILTIN_NAME = "ru_opencorpora_nouns.txt"


@dataclass
class WordList:
    """A normalised, sorted, duplicate-free word list and what normalising it dropped."""

    words: list[str]
    lang: str
    stats: dict = field(default_factory=dict)


def normalise_lines(lines, alpha: Alphabet, path: str | None = None, first_line: int = 1,
                    strict: bool = True) -> WordList:
    """Normalise raw lines (one word each): lower case, ё→е, keep words of `alpha` of length >= 2.

    Blank lines are skipped; hyphenated/multi-word entries and words in another script are dropped
    and counted; any other character (digits, punctuation, control codes) is an error at its line
    (`strict`, for user files) or dropped and counted as `dropped_other_characters`. A word longer
    than any board can hold is an error at its line.
    """
    kept: set[str] = set()
    stats = Counter()
    for number, raw in enumerate(lines, start=first_line):
        word = alpha.normalise(raw)
        if not word:
            continue
        stats["entries"] += 1
        if alpha.is_word(word):
            if len(word) > MAX_LENGTH:
                raise InputError(f"word of {len(word)} letters {quote(word)}: no board has more than "
                                 f"{MAX_LENGTH} cells", path, number)
            if len(word) < MIN_LENGTH:
                stats["dropped_short"] += 1
            elif word in kept:
                stats["duplicates"] += 1
            else:
                kept.add(word)
            continue
        odd = [ch for ch in word if not (ch in JOINERS or ch.isalpha())]
        if odd and strict:
            name = unicodedata.name(odd[0], f"U+{ord(odd[0]):04X}")
            raise InputError(f"unexpected character {quote(odd[0])} ({name}) in word {quote(raw.strip())}",
                             path, number)
        if odd:
            stats["dropped_other_characters"] += 1
        elif any(ch in JOINERS for ch in word):
            stats["dropped_multiword"] += 1
        else:
            stats["dropped_other_letters"] += 1
    words = sorted(kept)
    keys = ["entries", "duplicates", "dropped_short", "dropped_multiword", "dropped_other_letters"]
    if not strict:
        keys.append("dropped_other_characters")
    stats = {k: stats.get(k, 0) for k in keys}
    stats["words"] = len(words)
    return WordList(words, alpha.lang, stats)


def read_word_list(path: str | os.PathLike, lang: str | None = None) -> WordList:
    """Read a UTF-8 word list, one word per line; `lang` None guesses the alphabet from the words."""
    text = read_text(path, what="word list")
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]  # lines as editors count
    if lang is None:
        lang = guess_lang(lines[:5000])
    result = normalise_lines(lines, alphabet(lang), str(path))
    if not result.words:
        raise InputError(f"no usable word: expected one word per line in the {lang} alphabet "
                         f"({alphabet(lang).letters[0]}..{alphabet(lang).letters[-1]})", path)
    foreign = result.stats["dropped_other_letters"]
    if foreign > result.stats["words"]:
        other = "en" if lang == "ru" else "ru"
        raise InputError(f"{foreign} entries use letters outside the {lang} alphabet and only "
                         f"{result.stats['words']} fit it: is this a list for --lang {other}?", path)
    letters = sum(len(w) for w in result.words)
    if letters > MAX_LETTERS:
        raise InputError(f"{result.stats['words']} words of {letters} letters in all: at most {MAX_LETTERS:,} "
                         "letters fit the move-search tables", path)
    return result


def write_word_list(path: str | os.PathLike, words: list[str]) -> None:
    atomic_write(path, "".join(w + "\n" for w in words))


def length_distribution(words) -> dict[int, int]:
    return dict(sorted(Counter(len(w) for w in words).items()))


def opencorpora_nouns(exclude=DEFAULT_EXCLUDE, prefix: str = "", progress=None) -> WordList:
    """Common nouns in the nominative singular (pluralia tantum in the nominative plural) from the
    OpenCorpora dictionary of pymorphy3-dicts-ru.

    Every lemma is the first form (index 0) of its paradigm; the tag of a paradigm's first form
    decides: NOUN, nomn, and sing or Pltm, and none of `exclude`. `prefix` restricts the scan
    (used by the tests to keep it short).
    """
    try:
        import pymorphy3
    except ImportError as err:  # pragma: no cover - a broken install
        raise InputError(f"the built-in dictionary needs pymorphy3 and pymorphy3-dicts-ru: {err}") from None
    dictionary = pymorphy3.MorphAnalyzer(lang="ru").dictionary
    exclude = frozenset(exclude)
    verdict: dict[int, bool] = {}
    raw: list[str] = []
    seen = Counter()
    for count, (word, (para_id, idx)) in enumerate(dictionary.words.iteritems(prefix)):
        if progress is not None and count % 100_000 == 0:
            progress.update(100_000 if count else 0)
        if idx:
            continue
        ok = verdict.get(para_id)
        if ok is None:
            tag = dictionary.build_tag_info(para_id, 0)
            grammemes = tag.grammemes
            ok = ("NOUN" in grammemes and "nomn" in grammemes and ("sing" in grammemes or "Pltm" in grammemes)
                  and not grammemes & exclude)
            verdict[para_id] = ok
        seen["lemmas"] += 1
        if ok:
            raw.append(word)
    result = normalise_lines(raw, alphabet("ru"), strict=False)
    result.stats = {"lemmas_scanned": seen["lemmas"], "nouns_selected": len(raw), **result.stats}
    return result


def build_nouns(exclude=DEFAULT_EXCLUDE, prefixes=()) -> tuple[list[str], dict, float]:
    """The built-in list from the lexicon, scanned once per prefix (all of it without one): the sorted
    words, the counts of what was selected and dropped, and the seconds the scan took."""
    from ..lab.progress import Progress

    t0 = time.perf_counter()
    words, stats = set(), {}
    with Progress(None, "scanning the OpenCorpora lexicon", unit="entries") as p:
        for prefix in prefixes or [""]:
            part = opencorpora_nouns(exclude, prefix, progress=p)
            words.update(part.words)
            for k, v in part.stats.items():
                stats[k] = stats.get(k, 0) + v
    words = sorted(words)
    stats["words"] = len(words)
    return words, stats, time.perf_counter() - t0


def builtin_cache_path() -> Path:
    """Where the CLI keeps the built-in list when no --dict is given ($PUZZLELAB_CACHE or ~/.cache)."""
    root = os.environ.get("PUZZLELAB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "puzzlelab")
    return Path(root) / "balda" / BUILTIN_NAME


def builtin_word_list() -> Path:
    """The built-in Russian list, built from pymorphy3's dictionary on first use and cached."""
    path = builtin_cache_path()
    if not path.exists():
        from ..lab.progress import Progress

        with Progress(None, "building the built-in dictionary (once)", unit="entries") as p:
            result = opencorpora_nouns(progress=p)
        write_word_list(path, result.words)
    return path


class Dictionary:
    """Words with their letter codes: `codes[i, :lengths[i]]` spells word i (ids follow sorted order)."""

    def __init__(self, words: list[str], alpha: Alphabet, source: str = ""):
        self.words = list(words)
        self.alphabet = alpha
        self.source = source
        self.index = {w: i for i, w in enumerate(self.words)}
        self.lengths = np.fromiter((len(w) for w in self.words), dtype=np.int32, count=len(self.words))
        width = int(self.lengths.max()) if len(self.words) else 1
        self.codes = np.full((len(self.words), width), -1, dtype=np.int8)
        lookup = {ch: i for i, ch in enumerate(alpha.letters)}
        for i, w in enumerate(self.words):
            self.codes[i, : len(w)] = [lookup[ch] for ch in w]

    def __len__(self) -> int:
        return len(self.words)

    @property
    def lang(self) -> str:
        return self.alphabet.lang


def load_dictionary(path: str | os.PathLike | None, lang: str | None = None) -> Dictionary:
    """A Dictionary from a word list (`None`: the built-in Russian list)."""
    if path is None:
        if lang not in (None, "ru"):
            raise InputError("the built-in dictionary is Russian: give --dict PATH for --lang en")
        path = builtin_word_list()
    wl = read_word_list(path, lang)
    return Dictionary(wl.words, alphabet(wl.lang), str(path))

"""Text normalization shared by the grader and the anchor checks.

Graders that match raw substrings pass paraphrases as losses and inverted rules as kept.
Everything here maps surface variation to one form: case, punctuation, contractions
("don't" = "do not"), number words ("four" = "4") and articles, so an anchor form and a
sentence are compared in the same space.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
_IRREGULAR = {
    "can't": "can not",
    "cannot": "can not",
    "won't": "will not",
    "shan't": "shall not",
    "ain't": "is not",
}
_IRREGULAR_RE = re.compile(r"\b(" + "|".join(re.escape(k) for k in _IRREGULAR) + r")\b")
_NT = re.compile(r"\b(\w+)n't\b")
_NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty")
    )
}  # fmt: skip
_NUMBER_RE = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b")
_ARTICLES = re.compile(r"\b(the|a|an)\b")
# keep letters, digits, hyphens inside words, dots inside tokens like versions (v2.3)
_PUNCT = re.compile(r"[^a-z0-9\s\-.]|(?<![a-z0-9])[-.]|[-.](?![a-z0-9])")
_SPACES = re.compile(r"\s+")


def split_sentences(text: str) -> list[str]:
    """Lines first, then sentence ends; anchors must co-occur within one of these."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


@lru_cache(maxsize=32_768)  # bounded: a sweep's memory stays flat (see sim.grading.grade)
def normalize(text: str) -> str:
    """Canonical form used for every comparison; padded with spaces for whole-word search."""
    s = text.lower().translate(_APOSTROPHES)
    s = _IRREGULAR_RE.sub(lambda m: _IRREGULAR[m.group(1)], s)
    s = _NT.sub(r"\1 not", s)
    s = s.replace("'", "")
    s = _PUNCT.sub(" ", s)
    s = _NUMBER_RE.sub(lambda m: _NUMBER_WORDS[m.group(1)], s)
    s = _ARTICLES.sub(" ", s)
    return " " + _SPACES.sub(" ", s).strip() + " "


# Letters normalize writes that the raw text need not hold: the words contractions expand to.
_EXPANDED = frozenset({"not", "can", "will", "shall", "is"})
_JOINING = "'’‘`"  # normalize deletes these, joining what stands around


def raw_key(text: str) -> str:
    """Lowercase with apostrophes deleted: the raw text in which `raw_filter` searches.
    (The grader calls this once per new line: a test for each mark and a replace of the
    few found take a fifth of the time of `str.translate` with a deletion table.)"""
    key = text.lower()
    for mark in _JOINING:
        if mark in key:
            key = key.replace(mark, "")
    return key


def raw_filter(forms: Iterable[str]) -> tuple[str, ...] | None:
    """Runs of letters, one of which `raw_key(text)` holds whenever a sentence of `text` could,
    once normalized, contain one of the normalized `forms` (`may_mention` looks); None when
    no such filter exists.

    Why it cannot miss: normalize only lowercases, deletes apostrophes, turns other marks,
    articles and number words into spaces or digits, and expands contractions. So every run
    of letters in a normalized sentence stands in `raw_key` of its raw text, except the words
    contractions expand to. A form that is there has all its runs there, its longest included.
    Lines with none of these runs need not be normalized at all: most of a history."""
    runs = set()
    for form in forms:
        usable = [r for r in re.findall("[a-z]+", form) if r not in _EXPANDED]
        if not usable:  # digits or expanded words only: any line might hold it
            return None
        runs.add(max(usable, key=len))
    # a run that holds another adds nothing: the shorter one is found wherever it is
    return tuple(sorted(r for r in runs if not any(o != r and o in r for o in runs))) or None


def may_mention(text: str, runs: tuple[str, ...]) -> bool:
    """Whether `raw_key(text)` holds one of `raw_filter`'s runs."""
    key = raw_key(text)
    return any(map(key.__contains__, runs))

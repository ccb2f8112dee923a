"""Regular expressions the grader builds from a fact's words: kept cheap to build and to run.

A sweep builds a few patterns for every rule it plants and runs a few more over every line, so
CPython's regex engine shows in its profile twice: compiling (about a millisecond for a
pattern of a hundred branches) and trying a flat alternation's branches one by one at every
position of a line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_Tree = dict[str, "_Tree"]


def any_of(runs: Iterable[str], opening: bool = False) -> str:
    """A pattern that finds one of `runs` (literal strings) wherever one occurs, the runs laid
    out as a tree of shared prefixes ("acc(?:ount|t)"): CPython's regex engine tries an
    alternation's branches one by one at every position, so a hundred runs in a flat
    alternation cost a hundred tries per character, and the tree a few. A run that extends
    another adds nothing to a search (the shorter one is found wherever it is), so it is left
    out: the pattern tells whether a run occurs, not which.

    `opening`: only a run that no letter (a-z) stands before. Where the runs open with a few
    characters, the test follows the first one ("p(?<![a-z][\\s\\S])in"): the engine skips, in C,
    every position where none of them stands. Where they open with many, nearly every
    position passes that skip, and the test goes first ("(?<![a-z])(?:...)"): most positions
    have a letter before them, and fail it at once."""
    tree: _Tree = {}
    for run in sorted(set(runs)):  # a run comes before the runs that extend it
        node = tree
        for ch in run:
            if "" in node:
                break  # a shorter run ends here
            node = node.setdefault(ch, {})
        else:
            node[""] = {}

    def branch(node: _Tree, after_first: str = "") -> str:
        if "" in node:
            return ""
        alts = [re.escape(ch) + after_first + branch(child) for ch, child in sorted(node.items())]
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    if not tree:
        return "(?!)"
    if opening and "" in tree:  # the empty run: wherever no letter stands before
        return r"(?<![a-z])"
    if opening and len(tree) > _FEW_FIRSTS:
        return r"(?<![a-z])" + branch(tree)
    return branch(tree, r"(?<![a-z][\s\S])" if opening else "")


_FEW_FIRSTS = 6  # first characters past which `any_of`'s opening test goes first (for speed)


class Lazy:
    """A pattern compiled when first used: a frame holds several that only a sentence naming
    the rule in a certain way asks for, and most frames meet none."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    def _pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self._pattern().search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self._pattern().finditer(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lazy) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)

    def __repr__(self) -> str:
        return f"Lazy({self.source!r})"

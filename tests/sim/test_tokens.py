"""Token counting: real cl100k counts, offline, memoized, and the additivity rule that lets
`MemoCounter.count` sum per-line counts instead of re-encoding every joined text."""

from __future__ import annotations

import socket

import pytest
import tiktoken
import tiktoken.registry
from hypothesis import given
from hypothesis import strategies as st

from sim.errors import UserError
from sim.tokens import (
    DEFAULT_ENCODING,
    MemoCounter,
    get_counter,
    tiktoken_counter,
    whitespace_counter,
)
from tests.helpers import raw_count, small_history

# Characters inside a line: letters, digits, punctuation, symbols, other scripts and emoji,
# and spaces/tabs; never a newline (lines are joined with "\n").
_INNER = st.characters(
    blacklist_categories=("Cs",),
    blacklist_characters="\n",
)
_ASCII_MIX = st.sampled_from(
    [
        *"abcxyzABCXYZ0123456789 .,;:!?'\"-_/()[]{}#$%&*+=<>@\\|~`^\t",
        "é",
        "ß",
        "中",
        "文",
        "🙂",
        "ñ",
        "ü",
        "\u0301",
        "\u00a0",
        "\u2028",
        "\r",
    ]
)


def _stripped(s: str) -> str:
    return s.strip()


line_text = (
    st.one_of(
        st.text(_ASCII_MIX, min_size=1, max_size=40),
        st.text(_INNER, min_size=1, max_size=40),
    )
    .map(_stripped)
    .filter(bool)
)


def _generated_lines() -> list[str]:
    """Every line a level's text can hold: L0 lines and every rendering of every unit."""
    history = small_history(seed=3, constraints=5, near_misses=2, superseded=1)
    texts = {r for u in history.units for r in (*u.renderings, u.inverted) if r}
    return sorted(texts)


_HISTORY_LINES = _generated_lines()
history_line = st.sampled_from(_HISTORY_LINES)


@given(st.lists(st.one_of(line_text, history_line), min_size=1, max_size=12))
def test_count_of_line_built_text_is_sum_of_line_counts(lines: list[str]) -> None:
    """sim/tokens.py's rule, on the real tokenizer: a text of stripped, non-empty lines, each
    followed by "\\n", encodes to exactly the sum of its lines' counts (line + newline)."""
    fresh = tiktoken_counter()
    text = "".join(line + "\n" for line in lines)
    assert raw_count(text) == sum(fresh.count_line(line) for line in lines)
    # and the counter's own fast path agrees with the whole encoding
    assert get_counter().count(text) == raw_count(text)


@given(st.text(_ASCII_MIX, max_size=60))
def test_count_of_any_text_matches_the_whole_encoding(text: str) -> None:
    """Texts that are not line-built (blank lines, padding, no final newline) are encoded whole."""
    assert get_counter().count(text) == raw_count(text)


def test_counting_a_line_and_its_newline_apart_is_not_additive() -> None:
    """Why the rule counts each line *with* its newline: ".\\n" is one cl100k token, so counting
    the line and the separator separately over-counts. A counter that did so would be wrong."""
    enc = tiktoken.get_encoding(DEFAULT_ENCODING)
    line = "Do not rotate the credential after step 4."
    apart = len(enc.encode_ordinary(line)) + len(enc.encode_ordinary("\n"))
    assert raw_count(line + "\n") < apart
    split = [
        ln
        for ln in _HISTORY_LINES
        if len(enc.encode_ordinary(ln)) + 1 != len(enc.encode_ordinary(ln + "\n"))
    ]
    assert split, "generated lines ending in punctuation merge with their newline"


def spy_counter() -> tuple[MemoCounter, list[str]]:
    """A line-additive counter whose count is the length, and the strings it encoded."""
    calls: list[str] = []

    def encode_len(s: str) -> int:
        calls.append(s)
        return len(s)

    return MemoCounter("spy", encode_len, additive_lines=True), calls


def test_memo_encodes_each_distinct_string_once() -> None:
    c, calls = spy_counter()
    text = "alpha beta\ngamma\nalpha beta\n"
    assert c.count(text) == len("alpha beta\n") * 2 + len("gamma\n")
    assert c.count(text) == c.count(text)
    assert c.count_line("gamma") == len("gamma\n")
    assert c.distinct_strings == 2
    assert sorted(calls) == ["alpha beta\n", "gamma\n"]
    assert c.count("not line built") == len("not line built")
    assert c.count("not line built") == len("not line built")
    assert c.distinct_strings == 3
    assert len(calls) == 3


def test_cleared_memo_encodes_again_with_the_same_counts() -> None:
    c, calls = spy_counter()
    text = "alpha\nbeta\n"
    before = (c.count(text), c.count("not line built"))
    assert c.distinct_strings == 3
    c.clear()
    assert c.distinct_strings == 0
    assert (c.count(text), c.count("not line built")) == before
    assert len(calls) == 6  # each string encoded again: nothing was answered from a stale memo


def test_memo_without_additivity_encodes_whole_texts() -> None:
    calls: list[str] = []

    def encode_len(s: str) -> int:
        calls.append(s)
        return 1

    c = MemoCounter("whole", encode_len, additive_lines=False)
    assert c.count("a\nb\n") == 1
    assert calls == ["a\nb\n"]


def test_empty_text_counts_zero() -> None:
    assert get_counter().count("") == 0
    assert whitespace_counter().count("") == 0


def test_whitespace_counter_is_the_notes_word_count() -> None:
    c = whitespace_counter()
    assert c.name == "whitespace"
    assert c.count("do not  rotate\tthe credential\n") == 5
    assert c.count("one\ntwo three\n") == 3
    assert get_counter("whitespace").count("a b c") == 3


def test_default_counter_is_real_bpe() -> None:
    c = get_counter()
    assert c.name == f"tiktoken:{DEFAULT_ENCODING}"
    # BPE, not words: one word that splits into several tokens
    assert c.count("antidisestablishmentarianism") > 1
    assert c.count("Do not rotate the credential after step 4.\n") == raw_count(
        "Do not rotate the credential after step 4.\n"
    )


def test_get_counter_is_shared_per_name() -> None:
    assert get_counter() is get_counter(DEFAULT_ENCODING)
    assert get_counter("whitespace") is not get_counter()


@pytest.mark.parametrize("name", ["no_such_encoding", "cl100k"])
def test_unknown_encoding_is_a_user_error(name: str) -> None:
    with pytest.raises(UserError, match=name):
        tiktoken_counter(name)


def test_offline_encoding_loads_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped cl100k file is read from the package; nothing is downloaded."""

    def no_network(*args: object, **kwargs: object) -> socket.socket:
        raise OSError("network access is disabled in this test")

    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})  # force a fresh load
    c = tiktoken_counter()
    assert c.count("Do not rotate the credential after step 4.\n") == 10


@given(st.lists(st.one_of(line_text, history_line), min_size=1, max_size=12))
def test_o200k_counter_matches_the_whole_encoding(lines: list[str]) -> None:
    """o200k (quicktok's offline data) is counted whole: the counter agrees with encoding the
    text in one piece."""
    quicktok = pytest.importorskip("quicktok")
    enc = quicktok.get_encoding("o200k_base")
    text = "".join(line + "\n" for line in lines)
    assert get_counter("o200k_base").count(text) == len(enc.encode_ordinary(text))


def test_o200k_is_not_line_additive() -> None:
    """Why the o200k counter encodes whole texts: its pattern lets punctuation run on across a
    newline, so summing line counts would be wrong (a counter that did would fail here)."""
    quicktok = pytest.importorskip("quicktok")
    enc = quicktok.get_encoding("o200k_base")
    lines = ["<", "/:0"]
    whole = len(enc.encode_ordinary("".join(line + "\n" for line in lines)))
    assert whole != sum(len(enc.encode_ordinary(line + "\n")) for line in lines)
    assert get_counter("o200k_base").count("<\n/:0\n") == whole


def test_cl100k_base_is_served_offline() -> None:
    """`tokenizer = "cl100k_base"` would make tiktoken download its file; it maps to the
    offline copy (same ranks, same counts)."""
    line = "Do not rotate the credential after step 4."
    assert get_counter("cl100k_base").count(line) == raw_count(line)
    assert get_counter("cl100k_base").name == f"tiktoken:{DEFAULT_ENCODING}"

"""Normalization shared by the grader and the anchor checks (sim/text.py)."""

from __future__ import annotations

import pytest

from sim.text import normalize, split_sentences


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Don't rotate the credential", "do not rotate credential"),
        ("DON’T rotate the credential", "do not rotate credential"),  # curly apostrophe
        ("can't", "can not"),
        ("cannot", "can not"),
        ("won't", "will not"),
        ("isn't", "is not"),
        ("after step four", "after step 4"),
        ("step Twelve", "step 12"),
        ("the credential", "credential"),
        ("an API", "api"),
        ("Rotate, the credential!", "rotate credential"),
        ("  spaced\tout \n text ", "spaced out text"),
        ("the user's yes", "users yes"),
    ],
)
def test_surface_variants_normalize_alike(a: str, b: str) -> None:
    assert normalize(a) == normalize(b)


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Use region eu-west-1 for new buckets.", " eu-west-1 "),
        ("Use c6i.large for build runners.", " c6i.large "),
        ("Pin v2.3 now.", " v2.3 "),
        ("port 9464", " 9464 "),
    ],
)
def test_tokens_with_inner_hyphens_and_dots_survive(raw: str, kept: str) -> None:
    assert kept in normalize(raw)


def test_normalized_form_is_padded_for_whole_word_search() -> None:
    n = normalize("Credentials rotated.")
    assert n.startswith(" ") and n.endswith(" ")
    assert " credential " not in n  # "credentials" is another word
    assert " credentials " in n


def test_number_words_only_as_whole_words() -> None:
    assert normalize("someone") == " someone "
    assert normalize("often") == " often "


def test_split_sentences_by_line_and_sentence_end() -> None:
    text = "Do not rotate the credential. This applies after step 4.\nNext line; more\n\n  "
    assert split_sentences(text) == [
        "Do not rotate the credential.",
        "This applies after step 4.",
        "Next line;",
        "more",
    ]


def test_split_sentences_keeps_dotted_tokens_whole() -> None:
    assert split_sentences("Use c6i.large for runners. Then stop.") == [
        "Use c6i.large for runners.",
        "Then stop.",
    ]


def test_split_sentences_of_empty_text() -> None:
    assert split_sentences("") == []
    assert split_sentences("\n \n") == []

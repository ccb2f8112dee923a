"""Normalization shared by the grader and the anchor checks (sim/grading/text.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.grading.text import (
    holds,
    lemma_filter,
    lemma_needs,
    lemmas,
    normalize,
    raw_key,
    split_sentences,
)
from sim.types import Grade
from tests.helpers import grade_one
from tests.sim.grading.declared_rules import PAYROLL


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
        ("the user's yes", "user yes"),
        ("it's fine", "its fine"),
        ("if there's time", "if there is time"),
        ("that's gone", "that is gone"),
        ("let's wait", "let us wait"),
        ("we'll climb it anyway", "we will climb it anyway"),
        ("they’ve lifted it", "they have lifted it"),
        ("you're cleared", "you are cleared"),
        # a speed, however its unit is spelled
        ("fifteen kilometres per hour", "15 km/h"),
        ("gusts of 40 kph", "gusts of 40 km/h"),
        ("20 miles an hour", "20 mph"),
        ("twelve metres per second", "12 m/s"),
        ("a 3 kts stream", "a 3 knots stream"),
    ],
)
def test_surface_variants_normalize_alike(a: str, b: str) -> None:
    assert normalize(a) == normalize(b)


def test_the_yes_as_a_thing_is_approval() -> None:
    # "go-ahead" names the yes; "go ahead" (a permission) stays itself
    assert lemmas(normalize("Marguerite's go-ahead")) == " marguerite approval "
    assert lemmas(normalize("go ahead and purge")) == " go ahead and purge "


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


def test_split_sentences_not_after_a_title() -> None:
    assert split_sentences("Dr. Okafor overrode that. Mr. Li agreed; St. Mary's is next.") == [
        "Dr. Okafor overrode that.",
        "Mr. Li agreed;",
        "St. Mary's is next.",
    ]


def test_split_sentences_of_empty_text() -> None:
    assert split_sentences("") == []
    assert split_sentences("\n \n") == []


# Pieces that normalization rewrites: apostrophes of every kind (deleted, joining letters),
# contractions (expanded to words the raw text lacks), number words (to digits), articles,
# marks and non-ASCII letters (to spaces), case.
_PIECES = [
    "credential", "cred'ential", "CRED’ENTIAL", "signing", "key", "keys", "signing_key",
    "signing-key", "q3", "Q-three", "three", "eu-west-one", "eu-west-1", "don't", "won't",
    "cannot", "can't", "ain't", "shan't", "isn't", "the", "a", "an", "café", "Kelvin", "K",
    "rotate", "after", "step", "four", "4", "`tick`", "‘quote’", ".", ",", ";", "!", "-", "—",
    "\t", "  ", "\n", "ground", "get", "is", "left", "leave", "grinding",
]  # fmt: skip
_FORMS = ["signing key", "credential", "q3 project", "eu-west-1", "not", "4", "key", "cafe",
          "grind", "leave"]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    words=st.lists(st.sampled_from(_PIECES), max_size=14),
    joins=st.lists(st.sampled_from(["", " ", "-", "'", "’"]), min_size=14, max_size=14),
    forms=st.lists(st.sampled_from(_FORMS), min_size=1, max_size=4),
)
def test_the_raw_filters_never_miss_a_form_lemmatization_could_produce(
    words: list[str], joins: list[str], forms: list[str]
) -> None:
    """A line the filters turn away is never graded: they must hold wherever the form does."""
    text = "".join(w + j for w, j in zip(words, joins, strict=False))
    lemma_forms = [lemmas(normalize(f)) for f in forms]
    found = any(f in lemmas(normalize(s)) for s in split_sentences(text) for f in lemma_forms)
    if not found:
        return
    runs = lemma_filter(lemma_forms)
    if runs is not None:
        assert any(r in raw_key(text) for r in runs), (text, forms)
    needs = lemma_needs(lemma_forms)
    if needs is not None:
        assert holds(raw_key(text), needs), (text, forms)


def test_the_raw_filters_skip_lines_without_the_words() -> None:
    forms = [lemmas(normalize("signing keys")), lemmas(normalize("q3 project folders"))]
    runs = lemma_filter(forms)
    assert runs == ("project", "sign")  # each form's longest word, cut past a final e or y
    assert not any(r in raw_key("$ pytest tests/test_cart.py -q: 4 passed") for r in runs)
    assert any(r in raw_key("Do not revoke the SIGN'ING key.") for r in runs)
    needs = lemma_needs(forms)
    assert needs is not None and not holds(raw_key("the signing ceremony"), needs)
    assert holds(raw_key("Signed keys"), needs)
    # an abbreviation that lemmatizes to the word stands for it
    cred = lemma_filter([lemmas(normalize("credential"))]) or ()
    assert any(r in raw_key("never rotate the creds") for r in cred)
    assert lemma_filter([lemmas(normalize("4"))]) is None  # digits could come from "four"
    assert lemma_filter([lemmas(normalize("not"))]) is None  # "not" could come from "don't"


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from(list("aZ ’‘`'.İßΣ-\n")) | st.characters(), max_size=40))
def test_raw_key_is_lowercase_with_every_apostrophe_deleted(text: str) -> None:
    expected = "".join(c for c in text.lower() if c not in "'’‘`")
    assert raw_key(text) == expected


@pytest.mark.parametrize("plural", ["openings", "postings", "readings", "meetings"])
def test_a_gerunds_plural_reads_as_the_gerund(plural: str) -> None:
    # simplemma gives the verb for "opening" and the noun for "openings"
    assert lemmas(f" {plural} ") == lemmas(f" {plural[:-1]} ")


@pytest.mark.parametrize("plural", ["markdowns", "ckpts", "zerotrusts"])
def test_a_plural_the_tables_lack_reads_as_its_singular(plural: str) -> None:
    # simplemma leaves words it does not know as they are: "markdowns" would not find the
    # anchor "markdown"
    assert lemmas(f" {plural} ") == lemmas(f" {plural[:-1]} ")


@pytest.mark.parametrize("word", ["status", "analysis", "glass", "campus"])
def test_a_word_ending_in_s_that_is_no_plural_stays(word: str) -> None:
    assert lemmas(f" {word} ").split() != [word[:-1]]


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("elevator ctrl fw", "elevator controller firmware"),
        ("save a full ckpt", "save a full checkpoint"),
        ("the uplink cmd", "the uplink command"),
        ("vulns in the deps", "vulnerabilities in the dependencies"),
        ("the pilot ep", "the pilot episode"),
        ("maint window", "maintenance window"),
        ("pax manifest", "passenger manifest"),
        ("vax reminders", "vaccine reminders"),
        ("post-PM qual", "after PM qualification"),
    ],
)
def test_technical_abbreviations_read_as_their_words(short: str, long: str) -> None:
    assert lemmas(normalize(short)) == lemmas(normalize(long))


@pytest.mark.parametrize("ordinal", ["third", "seventh", "twelfth"])
def test_every_ordinal_beside_step_reads_as_its_digit(ordinal: str) -> None:
    # the tables lemmatize "seventh" to "seven", which no longer names step 7
    digit = {"third": "3", "seventh": "7", "twelfth": "12"}[ordinal]
    assert lemmas(normalize(f"after the {ordinal} step")).split() == ["after", digit, "step"]


@pytest.mark.parametrize(
    "text",
    ["once stage 3 is done", "after the third phase", "after the 3rd stage", "past phase 3"],
)
def test_a_numbered_stage_or_phase_is_a_step(text: str) -> None:
    as_step = text.replace("stage", "step").replace("phase", "step")
    assert lemmas(normalize(text)) == lemmas(normalize(as_step))
    assert grade_one(f"Do not reprocess the payroll batch {text}.", PAYROLL).grade.at_floor
    assert grade_one(f"Reprocess the payroll batch {text}.", PAYROLL).grade is Grade.INVERTED


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("before the pontil marks get ground", " grind "),
        ("the marks have not yet been ground", " grind "),
        ("the valve is left open", " leave "),
    ],
)
def test_a_participle_after_a_passive_helper_is_the_verb(text: str, verb: str) -> None:
    assert verb in lemmas(normalize(text))


@pytest.mark.parametrize("text", ["on the ground", "a ground fault", "the left lane"])
def test_the_same_word_elsewhere_stays_a_noun(text: str) -> None:
    assert " grind " not in lemmas(normalize(text)) and " leave " not in lemmas(normalize(text))


def test_the_raw_filters_let_a_participle_through_for_its_verb() -> None:
    forms = [lemmas(normalize("grinding"))]
    runs, needs = lemma_filter(forms), lemma_needs(forms)
    assert runs is not None and any(r in raw_key("the marks get ground") for r in runs)
    assert needs is not None and holds(raw_key("the marks get ground"), needs)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("once the batch is through step 4", " once batch is past step 4 "),
        ("keep it locked through step 4", " keep it lock through step 4 "),
    ],
)
def test_being_through_a_step_is_past_it(text: str, read: str) -> None:
    assert lemmas(normalize(text)) == read


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("open them only once Ines says so", " open them only once ines confirms "),
        ("wait until she said so", " wait until she confirms "),
        ("nothing she said so far", " nothing she said so far "),
        ("so the crew said nothing", " so crew said nothing "),
    ],
)
def test_saying_so_is_the_yes(text: str, read: str) -> None:
    assert normalize(text) == read


@pytest.mark.parametrize("arrow", ["->", "→", "⇒", "⟹", "=>"])
def test_every_arrow_reads_then(arrow: str) -> None:
    assert normalize(f"ph < 4 {arrow} no dyeing") == " ph below 4 then no dyeing "


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("then loop in the general counsel", " then loop in the general counsel "),
        ("In general, keep it short", " in general keep it short "),
        ("ask the general manager", " ask general manager "),
    ],
)
def test_the_general_counsel_is_no_hedge(text: str, read: str) -> None:
    assert normalize(text) == read

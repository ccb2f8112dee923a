"""What a summarizer prompt asks for, as a documented feature vector read clause by clause.

A keyword list over the whole file misreads prompts: "focus on" inside a quoted example of what
a user might type, or in "do not focus on any one topic", is not an instruction to rank. So a
prompt is read line by line; quoted spans, example lines ("e.g.", "> ...", "User: ...") and
lines after an "Example" heading are set aside, the rest is cut into clauses, and a cue counts
only in a clause that does not negate it. Each feature keeps the lines that showed it, so
`compsim lint-prompt` can print them and the simulated summarizer's knobs
(sim.summarizers.prompt_knobs) can be traced back to them.

| feature | asks for |
|---|---|
| `keep_rules` | keep the rules / constraints / restrictions (or never drop them) |
| `keep_rules_verbatim` | ... word for word (verbatim, exact wording, unchanged) |
| `rules_section` | a section or heading of its own for rules or constraints |
| `purpose_directed` | summarize for a purpose: the next agent, continuing the task, planning |
| `ranking` | choose by importance: prioritize, focus on, most important, relevant, key |
| `recency` | weight recent turns over older ones |
| `length_cap` | an explicit cap: at most N tokens / words / sentences / lines / bullets |
| `progressive` | extend or update a previous summary |
| `exhaustive` | all / every / each item, verbatim, nothing left out |
| `brevity` | a short summary: concise, brief, one short line each, shorten the wording |

The note's rule decides the verdict: a prompt with `ranking`, `purpose_directed` or `recency`
is re-ranking and must be gated by an explicit floor check; any other is compression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sim.prompts.feature_cues import CUES, RULE_RE, SECTION, VERBATIM
from sim.prompts.feature_cues import RERANKING_FEATURES as RERANKING_FEATURES
from sim.prompts.feature_cues import Feature as Feature

_I = re.I
_NEGATED = re.compile(
    r"\b(?:do not|don't|dont|never|not|no need to|avoid|without|rather than|instead of|nor)\b",
    _I,
)
"""A negation anywhere before a cue in its clause voids it ("don't keep only the important
ones", "do not prioritize some messages over others")."""
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|`[^`\n]*`|(?<!\w)'[^'\n]*[.!?]'(?!\w)")
_EXAMPLE_LINE = re.compile(
    r"^\s*(?:>|e\.g\.|for example\b|example:|user\s*:|assistant\s*:|human\s*:|ai\s*:)", _I
)
_EXAMPLE_HEADING = re.compile(r"^\s*(?:#+\s*)?(?:examples?|sample)\b[^.\n]{0,30}:?\s*$", _I)
_CLAUSE = re.compile(r"[.;!?]\s+|:\s+|\s+[-–—]\s+|,\s+(?=(?:and|but|then|or)\b)|;\s*")


@dataclass(frozen=True, slots=True)
class Evidence:
    """One cue: the feature it shows, the phrase family, and the 1-based line it is on."""

    feature: Feature
    cue: str
    line_no: int
    line: str


@dataclass(frozen=True, slots=True)
class PromptFeatures:
    evidence: tuple[Evidence, ...]

    @property
    def present(self) -> frozenset[Feature]:
        return frozenset(e.feature for e in self.evidence)

    def has(self, feature: Feature) -> bool:
        return any(e.feature is feature for e in self.evidence)

    @property
    def reranking(self) -> bool:
        return bool(self.present & RERANKING_FEATURES)

    @property
    def verdict(self) -> str:
        return "re-ranking" if self.reranking else "compression"

    def vector(self) -> dict[str, bool]:
        """Every feature, in the documented order, present or not."""
        return {f.value: self.has(f) for f in Feature}


_BLOCK_START = re.compile(r"^\s*(?:[-*+•>#]|\d+[.)]|[A-Z][A-Za-z ]{0,30}:|<|\{|\$)")


_CLOSED = re.compile(r"[.!?:]\s*$")
_HEADING = re.compile(r"^\s*(?:#|\*\*|<|\[|\$\w+\s*$|\{\w+\}\s*$|(?:examples?|sample)\b)", _I)


def _logical_lines(prompt: str) -> list[tuple[int, str]]:
    """Hard-wrapped lines joined back into the sentence they continue: a line continues the
    one above when that one ends mid-sentence and this one opens no bullet, heading or quote
    (so a quoted span or "at most 150 / words" cut by the wrap still reads as one)."""
    out: list[tuple[int, str]] = []
    prev_open = False
    for no, line in enumerate(prompt.splitlines() or [prompt], start=1):
        if not line.strip():
            out.append((no, ""))
            prev_open = False
            continue
        if prev_open and out and not _BLOCK_START.match(line):
            first, text = out[-1]
            out[-1] = (first, f"{text} {line.strip()}")
        else:
            out.append((no, line))
        prev_open = not (_CLOSED.search(line) or _HEADING.match(line) or SECTION.match(line))
    return out


def _readable_lines(prompt: str) -> list[tuple[int, str, str]]:
    """(first line number, logical line, its instruction text) with quoted spans blanked;
    example lines and the lines under an "Example" heading (until a blank line) left out."""
    out: list[tuple[int, str, str]] = []
    in_example = False
    for no, line in _logical_lines(prompt):
        if not line.strip():
            in_example = False
            continue
        if _EXAMPLE_HEADING.match(line):
            in_example = True
            continue
        if in_example or _EXAMPLE_LINE.match(line):
            continue
        text = _QUOTED.sub(" ", line)
        text = re.split(r"\b(?:for example|e\.g\.|such as|like)\s*[,:]?\s*$", text, flags=_I)[0]
        out.append((no, line.strip(), text))
    return out


def _negated(clause: str, start: int) -> bool:
    return bool(_NEGATED.search(clause[:start]))


def _line_evidence(no: int, raw: str, text: str) -> list[Evidence]:
    found: list[Evidence] = []
    for clause in _CLAUSE.split(text):
        for feature, cue, pattern in CUES:
            m = pattern.search(clause)
            if m is None:
                continue
            # "never drop a rule" carries its own negation; every other cue is void when negated
            if cue != "never drop a rule" and _negated(clause, m.start()):
                continue
            found.append(Evidence(feature, cue, no, raw))
    if SECTION.match(text):
        found.append(Evidence(Feature.RULES_SECTION, "rules section", no, raw))
    keeps = any(e.feature in (Feature.KEEP_RULES, Feature.RULES_SECTION) for e in found)
    if (keeps or RULE_RE.search(text)) and VERBATIM.search(text):
        found.append(Evidence(Feature.KEEP_RULES_VERBATIM, "rules verbatim", no, raw))
    return found


@lru_cache(maxsize=1024)
def prompt_features(prompt: str) -> PromptFeatures:
    """The feature vector of a prompt, each feature with the lines that show it (one piece of
    evidence per feature, cue and line). Memoized: a sweep sends the same few prompts."""
    seen: dict[tuple[Feature, str, int], Evidence] = {}
    for no, line, text in _readable_lines(prompt):
        for e in _line_evidence(no, line, text):
            seen.setdefault((e.feature, e.cue, e.line_no), e)
    evidence = tuple(seen.values())
    # a section header for rules, or "verbatim" said of them, is also a request to keep them
    implied = [
        Evidence(Feature.KEEP_RULES, "implied by " + e.cue, e.line_no, e.line)
        for e in evidence
        if e.feature in (Feature.RULES_SECTION, Feature.KEEP_RULES_VERBATIM)
    ]
    if implied and not any(e.feature is Feature.KEEP_RULES for e in evidence):
        evidence += (implied[0],)
    return PromptFeatures(evidence)

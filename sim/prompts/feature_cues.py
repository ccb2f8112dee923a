"""The cue table of sim.prompts.features: for each feature, the phrase families that show it.

Each cue is a regular expression over one clause of a prompt's instruction text (quoted spans
and example lines already set aside); its name is what `compsim lint-prompt` prints. A missed
phrasing is fixed by adding a cue here and a labelled prompt to
tests/fixtures/prompts/runtime_prompts.toml.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Feature(StrEnum):
    KEEP_RULES = "keep_rules"
    KEEP_RULES_VERBATIM = "keep_rules_verbatim"
    RULES_SECTION = "rules_section"
    PURPOSE_DIRECTED = "purpose_directed"
    RANKING = "ranking"
    RECENCY = "recency"
    LENGTH_CAP = "length_cap"
    PROGRESSIVE = "progressive"
    EXHAUSTIVE = "exhaustive"
    BREVITY = "brevity"


RERANKING_FEATURES = frozenset({Feature.RANKING, Feature.PURPOSE_DIRECTED, Feature.RECENCY})
"""The note's rule: any of these makes a prompt re-ranking."""

_RULE = (
    r"(?:rules?|constraints?|restrictions?|requirements?|prohibitions?|guardrails?|instructions?)"
)
_I = re.I


def _cue(feature: Feature, cue: str, pattern: str) -> tuple[Feature, str, re.Pattern[str]]:
    return feature, cue, re.compile(pattern, _I)


# (feature, cue name, pattern); a cue names the phrase family it matched, for the lint's output.
CUES: tuple[tuple[Feature, str, re.Pattern[str]], ...] = (
    _cue(
        Feature.RANKING, "prioritize", r"\b(?:de-?)?prioriti[sz](?:e|es|ed|ing)\b|\bpriority to\b"
    ),
    _cue(
        Feature.RANKING,
        "focus on",
        r"\b(?:focus(?:es|ed|ing)?|concentrat(?:e|es|ed|ing))\s+(?:\w+\s+){0,2}?on\b",
    ),
    _cue(Feature.RANKING, "most important", r"\b(?:most|least)\s+(?:important|relevant|salient)\b"),
    _cue(
        Feature.RANKING,
        "keep only what matters",
        r"\bonly\s+(?:keep|include|retain)\b[^.\n]{0,30}\b(?:relevant|important|matters|useful)\b|"
        r"\bkeep only\b[^.\n]{0,30}\b(?:relevant|important|essential|critical)\b",
    ),
    _cue(Feature.RANKING, "emphasize", r"\b(?:emphasi[sz](?:e|es|ing)|highlight(?:s|ing)?)\b"),
    _cue(
        Feature.RANKING,
        "by importance",
        r"\b(?:by|in order of)\s+(?:importance|relevance|salience|priority)\b|"
        r"\bmatters?\s+(?:most|more)\b",
    ),
    _cue(
        Feature.RANKING,
        "relevant to",
        r"\b(?:relevant|useful)\s+(?:to|for)\b|"
        r"\b(?:the|only|most)\s+relevant\b",
    ),
    _cue(
        Feature.RANKING,
        "critical / key / essential",
        r"\b(?:critical|essential|crucial|vital)\s+(?:\w+\s+)?(?:info|information|details?"
        r"|context|state|facts?|points?|decisions?|parts?|items?)\b|"
        r"\bthe\s+(?:critical|essential|crucial|important)\b|"
        r"\bkey\s+(?:decisions?|points?|information|details?|facts?|context|findings?|take"
        r"aways?|files?|steps?|events?)\b",
    ),
    _cue(
        Feature.PURPOSE_DIRECTED,
        "summarize for",
        r"\bsummar(?:i[sz]e|y)\b[^.\n]{0,40}?\bfor\s+(?!at most\b|up to\b)(?:the\s+)?(?:ta"
        r"sk|continuity|next|downstream|planning|the user|a reader|the agent|what|relevanc"
        r"e|\w+ing\b)",
    ),
    _cue(
        Feature.PURPOSE_DIRECTED,
        "for the next agent",
        r"\bfor\s+(?:the|a|another)\s+(?:next|new|future|downstream|fresh)\s+(?:agent|assi"
        r"stant|model|session|instance|engineer|developer)\b",
    ),
    _cue(
        Feature.PURPOSE_DIRECTED,
        "to continue the task",
        r"\b(?:continu(?:e|ed|ing)|resum(?:e|ed|ing)|carry on|pick up)\b[^.\n]{0,30}\b(?:t"
        r"ask|work|conversation|session|where)\b|"
        r"\btask continuity\b|"
        r"\b(?:so that|so)\b[^.\n]{0,40}\b(?:can|could)\s+(?:continue|resume|carry on|pick up)\b",
    ),
    _cue(
        Feature.RECENCY,
        "more about recent",
        r"\b(?:more|most|greater|extra|full)\s+(?:detail|weight|attention|emphasis|space)\b"
        r"[^.\n]{0,40}\b(?:recent|latest|newest|last)\b",
    ),
    _cue(
        Feature.RECENCY,
        "less about older",
        r"\b(?:less|fewer|briefer|shorter)\b[^.\n]{0,30}\b(?:older|oldest|earlier)\b|"
        r"\b(?:compress|condense|shorten|summari[sz]e|drop)\s+(?:the\s+)?(?:older|oldest|e"
        r"arlier)\b",
    ),
    _cue(
        Feature.RECENCY,
        "recent matters more",
        r"\b(?:recent|latest|newer)\s+(?:turns?|messages?|exchanges?|events?|steps?|parts?"
        r")\b[^.\n]{0,30}\b(?:matter|more|in full|weigh)\b|"
        r"\brecency\b",
    ),
    _cue(
        Feature.KEEP_RULES,
        "keep the rules",
        rf"\b(?:keep|preserve|retain|include|copy|carry|list|record|maintain|state|repeat)\b"
        rf"[^.\n]{{0,40}}\b{_RULE}\b",
    ),
    _cue(
        Feature.KEEP_RULES,
        "never drop a rule",
        rf"\b(?:never|not|don't|do not)\s+(?:\w+\s+){{0,2}}?(?:drop|omit|remove|lose|shorte"
        rf"n|reword|paraphrase|summari[sz]e away|leave out)\b[^.\n]{{0,30}}\b{_RULE}\b",
    ),
    _cue(
        Feature.KEEP_RULES,
        "every constraint",
        rf"^\W*(?:\d+[.)]\s*)?(?:every|each|all)\s+(?:\w+\s+){{0,2}}?{_RULE}\b",
    ),
    _cue(
        Feature.LENGTH_CAP,
        "at most N",
        r"\b(?:at most|no more than|not more than|under|within|up to|maximum of|max(?:imum"
        r")?|limit(?:ed)? to|fewer than|less than|fit in(?:to)?|to|in|into)\s+(?:\$\w+|\{\w"
        r"+\}|\d+)(?:\s*[-–]\s*\d+)?\s*(?:tokens?|words?|sentences?|lines?|bullets?|paragr"
        r"aphs?|characters?|chars?)\b|"
        r"\b(?:in|to)\s+(?:\d+|one|two|three|five)\s+(?:sentences?|lines?|bullets?|words?|"
        r"paragraphs?)\b|"
        r"\bbudget of\s+(?:\$\w+|\d+)",
    ),
    _cue(
        Feature.PROGRESSIVE,
        "extend the previous summary",
        r"\b(?:previous|existing|prior|current|running|earlier|last)\s+summary\b|"
        r"\bprogressive(?:ly)?\b|"
        r"\b(?:add(?:ing)? onto|build on|extend|update)\s+(?:the\s+)?(?:summary|memory)\b",
    ),
    _cue(
        Feature.EXHAUSTIVE,
        "all / every",
        r"\b(?:all|every|each)\s+(?:\w+\s+){0,2}?(?:rules?|constraints?|restrictions?|deci"
        r"sions?|details?|facts?|tasks?|files?|file paths?|steps?|changes?|errors?|error m"
        r"essages?|instructions?|requirements?|messages?|items?|commands?|turns?|of them|p"
        r"oints?)\b",
    ),
    _cue(
        Feature.BREVITY,
        "concise / one short line",
        r"\b(?:concise(?:ly)?|brief(?:ly)?|terse(?:ly)?|succinct(?:ly)?|short (?:lines?|se"
        r"ntences?)|one (?:short )?(?:line|sentence) (?:each|per)|shorten the wording|as s"
        r"hort as possible)\b",
    ),
    _cue(
        Feature.EXHAUSTIVE,
        "verbatim / nothing left out",
        r"\b(?:verbatim|word for word|word-for-word|without leaving anything out|"
        r"(?:instead of|rather than) leaving (?:things|anything) out|nothing l"
        r"eft out|do not omit|never omit|in full|exact wording)\b",
    ),
)

VERBATIM = re.compile(
    r"\b(?:verbatim|word for word|word-for-word|exact(?:ly)?\s+(?:as|wording)|unchanged|as written"
    r"|as stated|never (?:shorten|reword|paraphrase)|copied|quote[sd]?)\b",
    _I,
)
RULE_RE = re.compile(rf"\b{_RULE}\b", _I)
SECTION = re.compile(
    rf"^\s*(?:#{{1,6}}\s*|\*\*|<|\[)?\s*(?:\d+[.)]\s*)?(?:the\s+)?(?:user\s+|hard\s+|active\s+)?"
    rf"{_RULE}(?:\s+(?:and|&)\s+\w+)?\s*(?:\*\*|>|\])?\s*(?::|$)",
    _I,
)

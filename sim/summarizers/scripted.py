"""A deterministic scripted backend: the mock model that drives the tests (inspect_ai's
mockllm idea). It answers from the rendered prompt alone, so everything between a strategy and
a real model (templates, max_tokens, the cache, budget re-asks) runs without one.

Scripts:
- `responses`: fixed answers returned in turn (cycled), for protocol tests;
- `rules` (default): lines that read like rules first, then the rest, until about half of
  `max_tokens` whitespace words: a model that stops by itself;
- `echo`: the prompt's lines until `max_tokens` words, then `finish_reason="length"`: a model
  that never stops and is cut by its cap.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from sim.grading.judge import LAST_LINE as JUDGE_LAST_LINE
from sim.summarizers.backend import Completion, GenParams

Script = Literal["rules", "echo"]
_RULE = re.compile(r"\b(?:not|never|must|only|before|after|always|keep|confirm)\b", re.I)


def _judge(prompt: str) -> str:
    """A crude judge: how many of the rule's long words the summary holds (A all, B some,
    D none). Deterministic, for tests of the judge's plumbing, not of judgement."""
    summary = prompt.split("Summary:\n", 1)[-1].split("\n\nRule: ", 1)[0].lower()
    rule = prompt.split("\n\nRule: ", 1)[-1].split("\n", 1)[0].lower()
    words = {w for w in re.findall(r"[a-z]{5,}", rule)}
    held = sum(w in summary for w in words)
    return "A" if words and held == len(words) else "B" if held else "D"


def _words(text: str) -> int:
    return len(text.split())


def _take(lines: list[str], limit: int) -> tuple[str, bool]:
    out: list[str] = []
    used = 0
    for line in lines:
        n = _words(line)
        if used + n > limit:
            return "".join(out), True
        out.append(line + "\n")
        used += n
    return "".join(out), False


@dataclass
class ScriptedModel:
    script: Script = "rules"
    responses: tuple[str, ...] = ()
    max_input_tokens: int = 16_384
    backend: str = "scripted"
    calls: int = field(default=0, init=False)
    prompts: list[str] = field(default_factory=list, init=False, repr=False)

    def identity(self) -> dict[str, str]:
        if self.responses:
            digest = hashlib.sha256(json.dumps(self.responses).encode()).hexdigest()
            return {"model": "scripted:responses", "revision": digest[:16]}
        return {"model": f"scripted:{self.script}", "revision": "1"}

    def complete(self, prompt: str, params: GenParams, rng: np.random.Generator) -> Completion:
        self.calls += 1
        self.prompts.append(prompt)
        prompt_tokens = _words(prompt)
        if self.responses:
            text = self.responses[(self.calls - 1) % len(self.responses)]
            n = _words(text)
            cut = n > params.max_tokens
            if cut:
                text = " ".join(text.split()[: params.max_tokens])
            used = min(n, params.max_tokens)
            return Completion(text, "length" if cut else "stop", prompt_tokens, used)
        lines = [ln.strip() for ln in prompt.splitlines() if ln.strip()]
        if lines and lines[-1] == JUDGE_LAST_LINE:  # the judge grader
            return Completion(_judge(prompt), "stop", prompt_tokens, 1)
        if lines and lines[-1] == "Answer with the letter A or B only.":  # the probe
            ruled = [ln[0] for ln in lines if ln[:2] in ("A)", "B)") and _RULE.search(ln)]
            return Completion((ruled or ["A"])[0], "stop", prompt_tokens, 1)
        if self.script == "echo":
            text, cut = _take(lines, params.max_tokens)
            return Completion(text, "length" if cut else "stop", prompt_tokens, _words(text))
        ordered = [ln for ln in lines if _RULE.search(ln)] + [
            ln for ln in lines if not _RULE.search(ln)
        ]
        text, _ = _take(ordered, max(1, params.max_tokens // 2))
        return Completion(text, "stop", prompt_tokens, _words(text))

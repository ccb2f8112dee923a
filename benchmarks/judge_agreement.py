"""The judge grader against the hand labels: is a model a better reader than the text grader?

    .venv/bin/python benchmarks/judge_agreement.py [--scenario FILE] [--cache FILE]
        [--cache-mode read-write|read-only] [--ids FILE | --draw N --split S --write-ids FILE]

`compsim regrade RUN --grader judge` reports how often a judge model and the text grader
agree on a run; this says which of the two to believe. It takes N cases per class from the
hand-labelled corpus (tests/fixtures/grader_corpus/, the same cases every time: the lowest
SHA-256 of their ids), asks the judge of `--scenario` (its `[grading] judge` table, else its
summarizer; default the real-cassette scenario's Qwen2.5-Coder-1.5B through llama.cpp) the
forced-choice question of sim.grading.judge for each, and prints, per class and overall, the
agreement with the labels of the judge and of the text grader on the same cases, how often
each grades kept a rule the label says is lost or reversed (false kept), and the judge's
confusion (label x judge). Every answer goes through the record/replay cache, so
`--cache benchmarks/cassettes/judge-qwen2.5-coder-1.5b.jsonl --cache-mode read-only` replays
the committed figure in seconds with no model.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from sim.errors import UserError
from sim.files import read_capped
from sim.grading.agreement import Case, label_of, load_cases
from sim.grading.grade import grade_text
from sim.grading.judge import JUDGE_MAX_TOKENS, judge_prompt, parse_judge
from sim.runs.grid import load_grid
from sim.runs.regrade import judge_config
from sim.runs.store import atomic_write
from sim.runs.trial import trial_history
from sim.summarizers.registry import (
    TrialContext,
    build_summarizer,
    counter_for,
    usage,
    usage_delta,
)
from sim.tokens import get_counter

HERE = Path(__file__).resolve().parents[1]
# the corpus's loaders, from the script beside this one (as tests/sim/grading/corpus.py loads it)
_spec = importlib.util.spec_from_file_location(
    "grader_agreement", Path(__file__).with_name("grader_agreement.py")
)
assert _spec is not None and _spec.loader is not None
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
corpus_facts, corpus_files, CLASSES = _bench.corpus_facts, _bench.corpus_files, _bench.CLASSES
DEFAULT_SCENARIO = HERE / "scenarios" / "real_cassette.toml"
DEFAULT_IDS = HERE / "benchmarks" / "cassettes" / "judge-sample.txt"
MAX_IDS_BYTES = 1 << 20


def corpus_cases() -> dict[str, Case]:
    return {c.id: c for path in corpus_files() for c in load_cases(path)}


def draw(cases: dict[str, Case], split: str | None, per_class: int) -> list[str]:
    """`per_class` case ids of each class from `split`, those with the lowest SHA-256 of
    their id: a sample that no grader chose, spread over every corpus file."""
    facts = corpus_facts()
    by_class: dict[str, list[str]] = defaultdict(list)
    for case in cases.values():
        if split is None or case.split == split:
            by_class[facts[case.fact].cls].append(case.id)
    key = lambda i: hashlib.sha256(i.encode()).hexdigest()  # noqa: E731
    return [i for cls in CLASSES for i in sorted(by_class[cls], key=key)[:per_class]]


def read_ids(path: Path, cases: dict[str, Case]) -> list[str]:
    """A sample's case ids, one per line; an unknown id is an error naming it."""
    raw = read_capped(path, "sample", UserError, MAX_IDS_BYTES)
    ids = [line.strip() for line in raw.decode("utf-8", "replace").splitlines() if line.strip()]
    for n, case_id in enumerate(ids, 1):
        if case_id not in cases:
            raise UserError(f"{path}:{n}: id={case_id!r} is no case of the corpus")
    return ids


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:5.1f}% ({k}/{n})" if n else "n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", type=Path, default=DEFAULT_SCENARIO)
    ap.add_argument("--cache", type=Path, default=None, help="record/replay cache")
    ap.add_argument("--cache-mode", choices=("read-write", "read-only", "off"), default=None)
    ap.add_argument("--ids", type=Path, default=DEFAULT_IDS, help="the sample: case ids")
    ap.add_argument("--draw", type=int, default=0, help="draw N cases per class instead")
    ap.add_argument("--split", choices=("train", "heldout", "all"), default="train")
    ap.add_argument("--write-ids", type=Path, default=None, help="keep a drawn sample here")
    args = ap.parse_args(argv)
    try:
        corpus = corpus_cases()
        if args.draw > 0:
            ids = draw(corpus, None if args.split == "all" else args.split, args.draw)
            if args.write_ids is not None:
                atomic_write(args.write_ids, "".join(f"{i}\n" for i in ids).encode())
        else:
            ids = read_ids(args.ids, corpus)
        scenario = load_grid(args.scenario, []).base
        overrides = {
            "cache": str(args.cache) if args.cache else None,
            "cache_mode": args.cache_mode,
        }
        config = judge_config(scenario, overrides)
        counter = counter_for(scenario.summarizer, scenario.tokenizer)
        history = trial_history(scenario, 0)  # any trial: the judge reads only its prompt
        judge = build_summarizer(config, TrialContext(history, counter, scenario.seed, 0, "judge"))
        ask = judge.ask
        if ask is None:
            raise UserError(f"judge: summarizer {config.name!r} cannot answer questions")
        cases = [corpus[i] for i in ids]
        facts, text_counter = corpus_facts(), get_counter()
        before = usage()
        rows = []
        for case in cases:
            fact = facts[case.fact]
            text_got = label_of(grade_text(case.text, [fact], text_counter)[0].grade)
            reply = ask(judge_prompt(case.text, fact), f"judge:{fact.fact_id}", JUDGE_MAX_TOKENS)
            rows.append((fact.cls, case.accept, text_got, parse_judge(reply)))
        calls = usage_delta(usage(), before)
    except UserError as exc:
        print(f"judge_agreement: {exc}", file=sys.stderr)
        return 2
    model = config.model or config.model_path or ""
    where = f"drawn from the {args.split} split" if args.draw > 0 else f"listed in {args.ids}"
    print(f"judge {config.name} {model} on {len(rows)} labelled cases ({where}); model calls "
          f"{calls.get('model_calls', 0)}, cache hits {calls.get('cache_hits', 0)}")  # fmt: skip
    print(
        f"{'class':<14} {'judge = label':>18} {'text = label':>18} {'judge FK':>8} {'text FK':>8}"
    )
    figures: dict[str, dict[str, int]] = {}
    for cls in (*CLASSES, "all"):
        group = [r for r in rows if cls in ("all", r[0])]
        judge_ok = sum(r[3] in r[1] for r in group)
        text_ok = sum(r[2] in r[1] for r in group)
        judge_fk = sum(r[3] == "kept" and "kept" not in r[1] for r in group)
        text_fk = sum(r[2] == "kept" and "kept" not in r[1] for r in group)
        figures[cls] = {"cases": len(group), "judge": judge_ok, "text": text_ok,
                        "judge_false_kept": judge_fk, "text_false_kept": text_fk}  # fmt: skip
        print(f"{cls:<14} {_pct(judge_ok, len(group)):>18} {_pct(text_ok, len(group)):>18} "
              f"{judge_fk:>8} {text_fk:>8}")  # fmt: skip
    confusion = Counter((r[1][0], r[3] or "unanswered") for r in rows)
    print("judge confusion (first accepted label -> judge):")
    for (label, got), n in sorted(confusion.items()):
        print(f"  {label:<9} -> {got:<10} {n}")
    print(json.dumps({"judge": f"{config.name} {model}", "calls": calls, **figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

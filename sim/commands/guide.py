"""What `compsim --help` and `compsim COMMAND --help` tell a user: what each command does for
them, and examples to copy. Kept in one place, like a manual page, so the words read as one
text; the flags themselves are defined beside the code that reads them. Every example here is
parsed by tests/test_docs.py, as the README's and docs/' commands are."""

from __future__ import annotations

import argparse

OVERVIEW = """\
Find where your agent runtime's context compaction silently loses the rules a task depends
on. A rule such as "do not rotate the credential after step 4" can pass every level's token
budget and still disappear: abstracted past use at one level ("credential rotation
deferred"), dropped at the next, and nothing reports it. compsim plants such rules in
agent sessions, runs compaction strategies (yours included) level by level, grades every
rule at every level from the text alone, and reports which were lost, where, and whether
anything noticed."""

START = """\
start here:
  compsim demo                                   the credential-rotation scenario, every strategy
  compsim run scenarios/credential_rotation.toml --compactor mypkg.compaction:summarize
                                                 test your own compactor fn(text, budget_tokens)
  compsim lint-prompt scenarios/prompts/*.txt    does a prompt compress or re-rank?
  compsim bench --out bench-run                  the regression suite, then gate it:
  compsim check bench-run --baseline results/baselines/default.json

exit codes: 0 ok; 1 errored trials, a silent collapse of your compactor, or a regression;
2 bad input (one line naming file, field and value); 3 a gate that needs more trials;
4 a worker died (resume it); 130 Ctrl-C; 143 SIGTERM. 'compsim COMMAND --help' for each
command; the README and docs/ of the repository for the rest."""

# Per command (as typed after `compsim`): (what it does for the user, examples and exit codes).
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": (
        """\
Run the credential-rotation scenario (an 8k-token agent session with a planted "do not
rotate the credential after step 4", compacted to 2k, 512 and 128 tokens) for every
strategy, print the collapse table, and write report.html and plots/ into results/runs/demo
(replacing an earlier demo). `make demo` runs this.""",
        """\
examples:
  compsim demo
  compsim demo --trials 20 --jobs 2 --out results/runs/demo-small

exit codes: 0; 1 some trials raised (error rows); 2 bad input.""",
    ),
    "run": (
        """\
Run a scenario: generate agent sessions with planted rules, compact them level by level
with each strategy, grade every rule at every level, and write a run directory (manifest,
trials.jsonl, summary). Prints the collapse table; with --compactor or --strategy, also a
verdict per compactor of yours. A sweep's cells run in one go; Ctrl-C keeps what finished.""",
        """\
examples:
  compsim run scenarios/credential_rotation.toml
  compsim run scenarios/credential_rotation.toml --compactor examples/my_compactor.py:keep_rules
  compsim run scenarios/depth_sweep.toml --trials 2000 --jobs 2 --out results/runs/depth
  compsim run --resume results/runs/depth
  compsim run scenarios/prompt_comparison.toml --summarizer http \\
      --base-url http://127.0.0.1:8080/v1 --model qwen2.5-1.5b-instruct --cache results/cache.sqlite

exit codes: 0; 1 some trials raised, or a compactor of yours lost a rule with nothing raised;
2 bad input; 4 a worker died; 130 Ctrl-C and 143 SIGTERM (continue with --resume DIR).""",
    ),
    "report": (
        """\
Print a run's tables (collapse, silent and loud rates with intervals, survival per level,
the level to blame, per rule class and depth, and which rule was lost where) and write the
self-contained report.html, with its trace viewer, and plots/ into the run directory. Works
on an unfinished run: what is on disk so far.""",
        """\
examples:
  compsim report results/runs/demo
  compsim report results/runs/depth --no-tables

exit codes: 0; 2 not a run directory.""",
    ),
    "list": (
        """\
List what a scenario file can name: the registered strategies (yours too, once
registered), the summarizer backends, or the scenarios in a folder with their descriptions.""",
        """\
examples:
  compsim list strategies
  compsim list scenarios --dir scenarios""",
    ),
    "lint-prompt": (
        """\
Say whether each summarizer prompt compresses or re-ranks ("prioritize", "focus on",
"summarize for X": a re-ranking level drops rules it judges unimportant), with the lines
that show it and what the offline summarizer changes for it. Given a scenario, warn where a
strategy sends a re-ranking prompt with no floor gate to catch what it drops.""",
        """\
examples:
  compsim lint-prompt scenarios/prompts/continuity.txt
  compsim lint-prompt scenarios/prompts/*.txt scenarios/prompt_comparison.toml --strict

exit codes: 0 (warnings allowed); 1 with --strict when anything was warned; 2 bad input.""",
    ),
    "compare-prompts": (
        """\
After a run whose strategies differ by prompt, one row per prompt and strategy: collapse,
silent and loud rates with intervals, calls and tokens per trial, and with --probe the share
of rules an agent asked at the leaf would break. Writes prompt_comparison.csv and a plot of
silent collapse against tokens.""",
        """\
examples:
  compsim run scenarios/prompt_comparison.toml --out results/runs/prompts
  compsim compare-prompts results/runs/prompts --rank

exit codes: 0; 2 not a finished run directory.""",
    ),
    "bench": (
        """\
Run the regression suite (benchmarks/suite.toml: pinned cases of the ways compaction loses
rules) for the strategies under test, or for your --compactor / --strategy, with the
reference baselines beside them, into one suite run directory for `compsim check`.""",
        """\
examples:
  compsim bench --jobs 2 --out bench-run
  compsim bench --compactor mypkg.compaction:summarize --out bench-run --force
  compsim bench --case note_case -S ladder.L3.budget_tokens=96

exit codes: 0; 1 some trials raised; 2 bad input; 130 Ctrl-C.""",
    ),
    "check": (
        """\
Gate a deployment: compare a suite run with a committed baseline, trial by trial on the same
seeds, and decide every gate expression (metric[selectors]:+tolerance, "higher is worse")
for every strategy under test: PASS, REGRESSED, or INCONCLUSIVE with the trials that would
decide it. Every failure is listed; --format markdown is for a CI job summary.""",
        """\
examples:
  compsim check bench-run --baseline results/baselines/default.json
  compsim check bench-run --fail silent_collapse_rate:+0.00 \\
      --fail 'silent_collapse_rate[*]:+0.00' --fail tokens_emitted:+5% --format markdown

exit codes: 0 every check passed; 1 at least one regressed; 2 bad input (expression,
baseline, run); 3 none regressed but at least one is undecided or missing.""",
    ),
    "baseline": (
        """\
Manage the committed baselines that `compsim check` compares a suite run against.""",
        """\
examples:
  compsim baseline update bench-run --name default""",
    ),
    "baseline update": (
        """\
Write results/baselines/NAME.json from a suite run: the reviewed record of an intended
change. It holds one line per trial, so its diff is the review.""",
        """\
examples:
  compsim baseline update bench-run --name default
  compsim baseline update bench-run --name mine --dir tests/baselines

exit codes: 0; 2 not a suite run, or a bad name.""",
    ),
    "cache": (
        """\
Convert the record/replay cache of real-model calls between SQLite (what a run records
into with --cache) and a JSONL cassette (what a repository commits and replays read-only).""",
        """\
examples:
  compsim cache export results/cache.sqlite benchmarks/cassettes/mine.jsonl
  compsim cache import benchmarks/cassettes/mine.jsonl results/cache.sqlite""",
    ),
    "cache export": (
        """\
Write every call of a SQLite cache to a JSONL cassette, in recording order.""",
        """\
examples:
  compsim cache export results/cache.sqlite benchmarks/cassettes/mine.jsonl

exit codes: 0; 2 a missing or malformed file.""",
    ),
    "cache import": (
        """\
Add a JSONL cassette's calls to a SQLite cache (made if missing; existing rows are kept).""",
        """\
examples:
  compsim cache import benchmarks/cassettes/mine.jsonl results/cache.sqlite

exit codes: 0; 2 a missing or malformed file (with the cassette's line number).""",
    ),
    "calibrate": (
        """\
Fit the simulated summarizer to what a real model did in a recorded run (one strategy, that
is one prompt), level by level, and write the knobs as a params file a scenario then names,
so an offline sweep stands in for that model:
summarizer = {name = "simulated", params = "file:params.toml"}.""",
        """\
examples:
  compsim calibrate results/runs/real-cassette --strategy budget_closed --trials 0-3 \\
      --out scenarios/qwen-compress.params.toml

exit codes: 0; 2 not a run, a strategy or trials that match nothing, or a file that cannot
be written.""",
    ),
    "regrade": (
        """\
A second opinion on a run's grades: ask a judge model, for every level text the run kept
and every planted rule, whether the rule is still there and still means the same, and list
where it and the text grader disagree (judge.jsonl, judge_summary.json; `compsim report`
shows them). Calls go through the record/replay cache.""",
        """\
examples:
  compsim regrade results/runs/demo --summarizer http --base-url http://127.0.0.1:8080/v1 \\
      --model qwen2.5-1.5b-instruct --cache results/cache.sqlite

exit codes: 0; 2 not a run directory, no kept texts, or a judge that is no model.""",
    ),
}


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by its words after `compsim` ("run", "baseline update")."""
    out: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out[name] = sub
                out |= {f"{name} {k}": v for k, v in subparsers(sub).items()}
    return out


def apply(parser: argparse.ArgumentParser) -> None:
    """The overview and examples onto the top-level parser and every command's. A command
    without an entry here keeps its bare flag list (tests/sim/commands/test_help.py fails on
    it); the command line itself never breaks for want of words."""
    parser.description = OVERVIEW
    parser.epilog = START
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    for name, sub in subparsers(parser).items():
        if name not in COMMANDS:
            continue
        description, epilog = COMMANDS[name]
        sub.description = description
        sub.epilog = epilog
        sub.formatter_class = argparse.RawDescriptionHelpFormatter

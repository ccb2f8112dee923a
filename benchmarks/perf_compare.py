"""Two checkouts' sweep speed side by side, in one run: did a change make sweeps faster?

Runs perf.py's workload (the note's ladder, 8 constraints, nine strategies) as fresh-process
sweeps of each checkout in turn, interleaved over --repeat rounds so drift in machine speed
hits both alike, in alternating order, and with --jobs 1 everything pinned to one CPU per round
(perf.pinned: vCPUs of one VM differ in speed, and an unpinned A/A comparison once read 1.37x),
and prints one JSON line: the fastest milliseconds per trial for each, their
ratio, and each one's tokenizer-limit ratio against the same interleaved floor (perf.py's:
tiktoken encoding every distinct text of the sweep once). Both checkouts must produce identical
results for the comparison to mean anything; the script checks that their summary.json files
are byte-identical and says so.

Run: .venv/bin/python benchmarks/perf_compare.py --base /tmp/base [--trials 60] [--jobs 1]
where /tmp/base is e.g. `git worktree add --detach /tmp/base <commit>`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _sweep_s(root: Path, out: Path, trials: int, jobs: int) -> float:
    """One sweep of `root`'s harness in a fresh process, its encoding loaded first."""
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); from pathlib import Path;"
        "from perf import _sweep, WORKLOAD; from sim.tokens import get_counter; get_counter();"
        f"print(_sweep(Path({str(out)!r}), {trials}, {jobs}, WORKLOAD))"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE / "benchmarks"))
    from perf import _distinct_texts, _floor_seconds, cpus, pinned

    texts = _distinct_texts(args.trials)  # this checkout's; identical results, identical texts
    roots = {"base": args.base.resolve(), "head": HERE}
    best = dict.fromkeys([*roots, "floor"], float("inf"))
    on = cpus() if args.jobs == 1 else [None]
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(max(1, args.repeat)):
            order = list(roots.items()) if r % 2 == 0 else list(roots.items())[::-1]
            with pinned(on[r % len(on)]):
                for name, root in order:
                    seconds = _sweep_s(root, Path(tmp) / f"{name}-{r}", args.trials, args.jobs)
                    best[name] = min(best[name], seconds)
                best["floor"] = min(best["floor"], _floor_seconds(texts)[0])
        same = (Path(tmp) / "base-0" / "summary.json").read_bytes() == (
            Path(tmp) / "head-0" / "summary.json"
        ).read_bytes()
    print(
        json.dumps(
            {
                "trials": args.trials,
                "jobs": args.jobs,
                "base_ms_per_trial": round(1000 * best["base"] / args.trials, 1),
                "head_ms_per_trial": round(1000 * best["head"] / args.trials, 1),
                "speedup": round(best["base"] / best["head"], 2),
                "floor_ms_per_trial": round(1000 * best["floor"] / args.trials, 1),
                "base_tokenizer_limit_ratio": round(best["base"] / best["floor"], 2),
                "head_tokenizer_limit_ratio": round(best["head"] / best["floor"], 2),
                "identical_summaries": same,
            }
        )
    )


if __name__ == "__main__":
    main()

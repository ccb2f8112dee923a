"""Instructions per trial of perf.py's sweep, counted by valgrind: a comparison noise cannot move.

On a shared VM the same code's wall time varies by ±20% between runs (docs/performance.md), so
a change worth 5% cannot be seen by timing it. valgrind's cachegrind counts the instructions
a process executes, the same on every run. Each checkout runs perf.py's workload (the note's
ladder, 8 constraints, nine strategies, the simulated summarizer) in a fresh process for LO and
for HI trials; the difference over HI - LO trials is one trial's count, without the start-up
and imports. Instructions are not time (a cache miss costs more than an add), so a change
this counts as cheaper is timed with perf_compare.py too; it orders changes, it does not
replace the clock.

Run: .venv/bin/python benchmarks/perf_instructions.py [--base DIR] [--lo 4] [--hi 24]
where DIR is another checkout (`git worktree add --detach /tmp/base <commit>`). Needs
valgrind on PATH (exit 2 without it); takes about a minute per checkout, both in parallel.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
SWEEP = (
    "import sys; sys.path.insert(0, 'benchmarks');"
    "from perf import NOTE, WORKLOAD; from sim.runs.grid import load_grid;"
    "from sim.runs.trial import run_strategy, trial_history;"
    "from sim.tokens import get_counter; get_counter(); n = int(sys.argv[1]);"
    "s = load_grid(NOTE, [f'trials={n}', *WORKLOAD]).cells[0].scenario\n"
    "for t in range(n):\n"
    "    h = trial_history(s, t)\n"
    "    for name, args in s.strategy_specs(): run_strategy(s, h, t, name, args)\n"
)


def _instructions(root: Path, trials: int) -> int:
    """Instructions one process executes for a sweep of `trials` trials of `root`'s code."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            SWEEP,
            str(trials),
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"perf_instructions: valgrind printed no count for {root}")
    return int(found.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", type=Path, help="another checkout to count beside this one")
    parser.add_argument("--lo", type=int, default=4)
    parser.add_argument("--hi", type=int, default=24)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("perf_instructions: valgrind is not on PATH", file=sys.stderr)
        return 2
    if not 0 < args.lo < args.hi:
        bad = f"--lo {args.lo} --hi {args.hi}"
        print(f"perf_instructions: {bad}: need 0 < lo < hi", file=sys.stderr)
        return 2
    roots = {"head": HERE, **({"base": args.base.resolve()} if args.base else {})}
    jobs = [(name, root, n) for name, root in roots.items() for n in (args.lo, args.hi)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = dict(zip(jobs, pool.map(lambda j: _instructions(j[1], j[2]), jobs), strict=True))
    per_trial = {
        name: (counts[(name, root, args.hi)] - counts[(name, root, args.lo)]) / (args.hi - args.lo)
        for name, root in roots.items()
    }
    out = {f"{name}_minstr_per_trial": round(v / 1e6, 2) for name, v in per_trial.items()}
    if "base" in per_trial:
        out["head_over_base"] = round(per_trial["head"] / per_trial["base"], 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

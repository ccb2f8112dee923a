"""What checking every trial row against its schema (sim.runs.row_schema) costs a reader.

Reports, the gate and the end of every sweep read trials.jsonl through the schema, so a
hand-edited row fails in one line instead of deep in pandas. This script writes a run, then
reads its rows with and without the check, interleaved so both see the same machine load, and
prints the time per row and the ratio; it asserts nothing (timings depend on the machine).

    .venv/bin/python benchmarks/row_check_cost.py [--trials 40] [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from sim.runs.grid import load_grid
from sim.runs.results import TRIALS, iter_jsonl
from sim.runs.row_schema import TrialRow
from sim.runs.runner import run_grid

TINY = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tiny.toml"


def timed(path: Path, checked: bool) -> tuple[float, int]:
    start = time.perf_counter()
    rows = sum(1 for _ in iter_jsonl(path, TrialRow if checked else None))
    return time.perf_counter() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        run_grid(load_grid(TINY, [f"trials={args.trials}"]), out, jobs=1, progress=False)
        plain, checked, rows = [], [], 0
        for _ in range(args.repeat):
            seconds, rows = timed(out / TRIALS, False)
            plain.append(seconds)
            seconds, rows = timed(out / TRIALS, True)
            checked.append(seconds)
    p, c = statistics.median(plain), statistics.median(checked)
    print(f"rows: {rows}, repeats: {args.repeat} (medians)")
    print(f"read without the schema: {p / rows * 1e6:.1f} us/row")
    print(f"read with the schema:    {c / rows * 1e6:.1f} us/row")
    print(f"checked / unchecked:     {c / p:.2f}")


if __name__ == "__main__":
    main()

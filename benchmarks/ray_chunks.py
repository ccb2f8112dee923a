"""Ray vs the local process pool, and how Ray's throughput depends on the batch size.

Prints one JSON line: local Ray start-up time, trials/s of the local pool and of Ray for each
batch size, on the same workload (the note's scenario, short histories so that per-task
overhead shows). Run: .venv/bin/python benchmarks/ray_chunks.py [--trials 120]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence

from sim.runs.grid import load_grid
from sim.runs.sweep import LocalExecutor, TrialSpec, pending_specs


def _chunks(specs: Sequence[TrialSpec], size: int) -> list[list[TrialSpec]]:
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sizes", default="1,5,20,50")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    grid = load_grid(
        "scenarios/credential_rotation.toml",
        [f"trials={args.trials}", "history.target_tokens=2000",
         "strategies=['re_ranking','floor_gated']",
         "ladder=[{name='L1',budget_tokens=512,group_size=3},"
         "{name='L2',budget_tokens=128,group_size=4},{name='L3',budget_tokens=48}]"],
    )  # fmt: skip
    workload = {c.id: c.scenario for c in grid.cells}
    specs = list(pending_specs([c.id for c in grid.cells], args.trials, set(), 0))
    figures: dict[str, object] = {"trials": len(specs), "jobs": args.jobs}

    pool = LocalExecutor(workload, args.jobs)  # the driver runs trials too, as in a sweep
    pool.wait_started()
    sum(1 for _ in pool.submit(_chunks(specs[: args.jobs], 1)))  # warm the workers
    t0 = time.perf_counter()
    n = sum(1 for _ in pool.submit(_chunks(specs, 20)))
    figures["local_pool_trials_per_s"] = round(n / (time.perf_counter() - t0), 1)
    pool.close()

    import ray

    from sim.runs.ray_executor import RayExecutor

    t0 = time.perf_counter()
    ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False,
             configure_logging=False)  # fmt: skip
    figures["ray_start_s"] = round(time.perf_counter() - t0, 2)
    executor = RayExecutor(workload, args.jobs)
    sum(1 for _ in executor.submit(_chunks(specs[: args.jobs], 1)))  # warm the workers
    for size in (int(s) for s in args.sizes.split(",")):
        t0 = time.perf_counter()
        n = sum(1 for _ in executor.submit(_chunks(specs, size)))
        figures[f"ray_batch_{size}_trials_per_s"] = round(n / (time.perf_counter() - t0), 1)
    t0 = time.perf_counter()
    ray.shutdown()
    figures["ray_stop_s"] = round(time.perf_counter() - t0, 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

"""The run store: manifest schema and versions, JSONL tails, load_run frames, repair, out-dir
refusals and the one-writer lock (sim.runs.results, sim.runs.store, sim.runs.manifest)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sim.runs.grid import load_grid
from sim.runs.manifest import build_manifest
from sim.runs.records import ROW_VERSION
from sim.runs.results import (
    FACT_COLUMNS,
    MANIFEST,
    STORE_VERSION,
    TRACES,
    TRIALS,
    RunStoreError,
    iter_jsonl,
    load_run,
    read_manifest,
)
from sim.runs.runner import run_grid
from sim.runs.store import RunWriter, repair

ROOT = Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
STRATEGIES = 3


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("store") / "run"
    run_grid(load_grid(TINY), out, jobs=1, progress=False, traces=2)
    return out


def copy_run(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock"))
    return dst


def test_manifest_round_trips_and_puts_version_first(tiny_run: Path) -> None:
    text = (tiny_run / MANIFEST).read_text()
    assert text.lstrip("{\n ").startswith('"version": 1')
    manifest = read_manifest(tiny_run)
    assert manifest.version == STORE_VERSION
    assert json.loads(manifest.model_dump_json()) == json.loads(text)
    assert [c.id for c in manifest.cells] == [c.id for c in load_grid(TINY).cells]
    cell = manifest.cells[0]
    assert [s.key for s in cell.strategies] == ["re_ranking", "floor_gated", "empty"]
    assert cell.strategies[1].args["max_retries"] == 2  # defaults recorded
    assert cell.summarizer["params"]["rank_noise"] > 0  # every summarizer knob recorded
    assert manifest.git.commit is None or len(manifest.git.commit) == 40
    assert manifest.packages["numpy"]


def _rewrite_manifest(run: Path, **changes: object) -> None:
    data = json.loads((run / MANIFEST).read_text())
    data.update(changes)
    (run / MANIFEST).write_text(json.dumps(data))


def test_newer_or_missing_version_is_a_one_line_error(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "r")
    _rewrite_manifest(run, version=STORE_VERSION + 1)
    with pytest.raises(RunStoreError, match=r"version: store version 2 is newer .* upgrade"):
        load_run(run)
    _rewrite_manifest(run, version="1")
    with pytest.raises(RunStoreError, match="version: missing or not an integer"):
        load_run(run)
    _rewrite_manifest(run, version=1, surprise=True)
    with pytest.raises(RunStoreError, match="surprise: Extra inputs are not permitted"):
        load_run(run)
    with pytest.raises(RunStoreError, match="not a run directory"):
        load_run(tmp_path)


def test_load_run_frames(tiny_run: Path) -> None:
    run = load_run(tiny_run)
    units = run.meta.trials * len(run.cells)
    assert len(run.trials) == units * STRATEGIES == sum(1 for _ in run.rows())
    assert list(run.trials["trial_id"]) == sorted(run.trials["trial_id"])
    assert {"levels", "facts"}.isdisjoint(run.trials.columns)
    assert set(run.trials["cell"]) == set(run.cells)
    assert tuple(run.facts.columns) == FACT_COLUMNS
    facts_per_row = len(run.facts) / len(run.trials)
    assert facts_per_row > 1
    assert set(run.facts["grade"]) <= {"verbatim", "actionable", "degraded", "dropped", "inverted"}
    assert (run.facts["at_floor"] == run.facts["grade"].isin(["verbatim", "actionable"])).all()
    assert {t["trial"] for t in run.traces} == {0, 1}  # --traces 2
    assert {t["cell"] for t in run.traces} == set(run.cells)
    assert all(t["levels"][0]["name"] == "L0" and t["levels"][0]["text"] for t in run.traces)
    assert run.summary is not None and run.summary["complete"]
    assert run.strategies == ["re_ranking", "floor_gated", "empty"]


def test_torn_last_line_is_skipped_and_corruption_before_it_raises(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"v":1,"a":1}\n{"v":1,"a":2}\n{"v":1,"a"')
    assert [r["a"] for r in iter_jsonl(path)] == [1, 2]
    path.write_bytes(b'{"v":1,"a":1}\n{"v":1,"a"\n{"v":1,"a":3}\n')
    with pytest.raises(RunStoreError, match="line 2: not valid JSON"):
        list(iter_jsonl(path))
    path.write_bytes(b'{"v":%d,"a":1}\n' % (ROW_VERSION + 1))
    with pytest.raises(RunStoreError, match="row version 2 is newer"):
        list(iter_jsonl(path))


def test_repair_cuts_a_torn_unit_and_its_traces(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "r")
    lines = (run / TRIALS).read_bytes().splitlines(keepends=True)
    # keep 5 full units, then 2 rows of the sixth and half of its third row
    cut = b"".join(lines[: 5 * STRATEGIES + 2]) + lines[5 * STRATEGIES + 2][:40]
    (run / TRIALS).write_bytes(cut)
    done = repair(run, read_manifest(run))
    assert len(done) == 5
    assert (run / TRIALS).read_bytes() == b"".join(lines[: 5 * STRATEGIES])
    kept = {(t["cell"], t["trial"]) for t in iter_jsonl(run / TRACES)}
    assert kept <= done


def test_repair_refuses_interleaved_units(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "r")
    lines = (run / TRIALS).read_bytes().splitlines(keepends=True)
    (run / TRIALS).write_bytes(b"".join([lines[0], *lines[STRATEGIES:]]))
    with pytest.raises(RunStoreError, match="interleaved"):
        repair(run, read_manifest(run))


def test_out_dir_holding_another_run_is_refused(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "r")
    same = build_manifest(load_grid(TINY), "r", 2)
    other = build_manifest(load_grid(TINY, ["seed=8"]), "r", 2)
    with pytest.raises(RunStoreError, match=r"holds a different run .* use --force"):
        RunWriter.create(run, other)
    with pytest.raises(RunStoreError, match="already holds this run; use --resume"):
        RunWriter.create(run, same)
    with RunWriter.create(run, other, force=True) as writer:
        assert writer.done == set()
    assert read_manifest(run).spec_hash == other.spec_hash
    assert (run / TRIALS).read_bytes() == b""
    stranger = tmp_path / "mine"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("keep me")
    with pytest.raises(RunStoreError, match="not a run directory"):
        RunWriter.create(stranger, other, force=True)
    assert (stranger / "notes.txt").read_text() == "keep me"


def test_one_writer_per_run(tiny_run: Path, tmp_path: Path) -> None:
    run = copy_run(tiny_run, tmp_path / "r")
    with (
        RunWriter.resume(run),
        pytest.raises(RunStoreError, match="in use by another compsim process"),
    ):
        RunWriter.resume(run)
    with RunWriter.resume(run) as again:  # released on close
        assert len(again.done) == again.manifest.units_total


def test_resume_refuses_a_scenario_that_describes_another_run(
    tiny_run: Path, tmp_path: Path
) -> None:
    run = copy_run(tiny_run, tmp_path / "r")
    with pytest.raises(RunStoreError, match="describe a different run"):
        RunWriter.resume(run, build_manifest(load_grid(TINY, ["trials=5"]), "r", 2))

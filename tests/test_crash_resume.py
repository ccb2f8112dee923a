"""Crash safety of `compsim run`: killed with SIGKILL at many moments and resumed, it ends with
the summary an uninterrupted run writes, byte for byte, with no trial counted twice and no
torn file; a second process on the same run is refused by the lock; a full disk or a
read-only output folder is one line, not a traceback, and what was on disk stays intact."""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sim.runs.store
from sim.commands.main import main
from sim.runs.grid import load_grid
from sim.runs.results import MANIFEST, SUMMARY_CSV, SUMMARY_JSON, TRACES, TRIALS
from sim.runs.runner import run_grid

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
TRIALS_PER_CELL = 8
OVERRIDES = [f"trials={TRIALS_PER_CELL}"]
RUN = ["run", str(TINY), "-S", OVERRIDES[0]]
UNITS = 4 * TRIALS_PER_CELL  # tiny.toml has four cells
ROWS = UNITS * 3  # and three strategies
KILLS = 7


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: the same sweep, uninterrupted, in one process."""
    out = tmp_path_factory.mktemp("crash") / "whole"
    run_grid(load_grid(TINY, OVERRIDES), out, jobs=1, progress=False)
    return out


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    _, err = capsys.readouterr()
    return code, err


def rows_of(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / TRIALS).read_bytes().splitlines()]


def assert_complete_and_unique(run: Path, whole: Path) -> None:
    """Every line whole, every trial once, the same rows and summary as the reference."""
    for name in (TRIALS, TRACES):
        data = (run / name).read_bytes()
        assert not data or data.endswith(b"\n"), f"{name} ends torn"
    rows = rows_of(run)
    ids = [r["trial_id"] for r in rows]
    assert len(ids) == len(set(ids)) == ROWS, "a trial is missing or counted twice"
    key = lambda r: r["trial_id"]  # noqa: E731
    assert sorted(rows, key=key) == sorted(rows_of(whole), key=key)
    traces = [json.loads(line)["trial_id"] for line in (run / TRACES).read_bytes().splitlines()]
    assert len(traces) == len(set(traces))
    for name in (SUMMARY_JSON, SUMMARY_CSV):
        assert (run / name).read_bytes() == (whole / name).read_bytes(), name


def spawn(out: Path, jobs: int = 2, extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "sim.commands.main", *RUN, *extra]
    return subprocess.Popen(
        [*argv, "--out", str(out), "--jobs", str(jobs), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # the driver and its workers die together
        cwd=ROOT,
    )


def lines_in(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return -1


def kill_when(proc: subprocess.Popen[bytes], out: Path, rows: int, delay: float) -> int:
    """SIGKILL the whole process group once trials.jsonl holds `rows` lines (-1: once the
    manifest exists) and `delay` more seconds passed; returns the lines on disk then."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        have = lines_in(out / TRIALS) if rows >= 0 else (0 if (out / MANIFEST).exists() else -1)
        if have >= rows:
            break
        time.sleep(0.01)
    time.sleep(delay)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    return lines_in(out / TRIALS)


@pytest.mark.slow
def test_sigkill_at_many_moments_then_resume_equals_an_uninterrupted_run(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seven kills: before the first row, after the first unit, at seeded random units in
    between (with seeded delays of up to 50 ms, so some land mid-write), and two units before
    the end; one process or two workers (the whole process group dies)."""
    rng = np.random.default_rng(20261108)
    middle = sorted(int(u) for u in rng.choice(np.arange(2, UNITS - 3), KILLS - 3, replace=False))
    plan = [(-1, 2, 0.0), (3, 1, 0.0)]
    plan += [(3 * u, 1 + k % 2, float(rng.uniform(0.0, 0.05))) for k, u in enumerate(middle)]
    plan += [(ROWS - 6, 1, 0.0)]
    moments: list[int] = []  # rows on disk when each interrupted run died
    for i, (rows, jobs, delay) in enumerate(plan):
        out = tmp_path / f"kill{i}"
        proc = spawn(out, jobs)
        on_disk = kill_when(proc, out, rows, delay)
        if not (out / SUMMARY_JSON).exists():
            moments.append(on_disk)
        if (out / MANIFEST).exists():
            code, err = cli(["run", "--resume", str(out), "--jobs", "1", "--no-progress"], capsys)
        else:  # killed before the manifest: the folder holds at most the lock, so start over
            code, err = cli([*RUN, "--out", str(out), "--jobs", "1", "--no-progress"], capsys)
        assert code == 0, (i, rows, on_disk, err)
        assert_complete_and_unique(out, whole)
    assert len(set(moments)) >= 5, f"too few distinct moments were interrupted: {moments}"


@pytest.mark.slow
def test_a_second_process_on_a_running_run_is_refused_by_the_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "busy"
    # far more trials than the test needs, so the first run still holds the lock when the
    # second starts (a run of the usual 32 units can finish in 0.3 s); killed below
    proc = spawn(out, jobs=1, extra=("-S", "trials=100000"))
    try:
        kill_when_ready = time.monotonic() + 180
        while not (out / MANIFEST).exists() and time.monotonic() < kill_when_ready:
            time.sleep(0.01)
        if proc.poll() is not None:
            pytest.fail("the first run finished before the second could start")
        argv = RUN
        for second in (
            ["run", "--resume", str(out), "--no-progress"],
            [*argv, "--out", str(out), "--no-progress"],
            [*argv, "--out", str(out), "--force", "--no-progress"],
        ):
            code, err = cli(second, capsys)
            assert code == 2, err
            assert (
                err.strip().splitlines()[-1]
                == f"compsim: error: {out}: in use by another compsim process"
            )
            assert "Traceback" not in err
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert (out / MANIFEST).exists(), "--force cleared a run another process was writing"


# --- full disk, read-only folder ------------------------------------------------------------
class FullDisk(io.RawIOBase):
    """A file on a disk that fills up after `room` more bytes: the write that crosses it
    lands partly (as on a real disk) and raises ENOSPC."""

    def __init__(self, real: Any, room: int) -> None:
        self.real, self.room = real, room

    def write(self, data: Any) -> int:
        data = bytes(data)
        if len(data) > self.room:
            self.real.write(data[: self.room])
            self.real.flush()
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return int(self.real.write(data))

    def flush(self) -> None:
        self.real.flush()

    def fileno(self) -> int:
        return int(self.real.fileno())

    def close(self) -> None:
        self.real.close()


def test_a_full_disk_mid_run_is_one_line_and_resume_finishes_it(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_init = sim.runs.store.RunWriter.__init__
    room = len((whole / TRIALS).read_bytes()) // 3  # the disk fills a third of the way in

    def init(self: sim.runs.store.RunWriter, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        self._trials = FullDisk(self._trials, room)  # type: ignore[assignment]

    out = tmp_path / "full"
    argv = RUN
    with monkeypatch.context() as m:
        m.setattr(sim.runs.store.RunWriter, "__init__", init)
        code, err = cli([*argv, "--out", str(out), "--jobs", "1", "--no-progress"], capsys)
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"compsim: error: {out / TRIALS}: cannot write (No space left on device)"
    )
    assert "continue with: compsim run --resume" in err
    data = (out / TRIALS).read_bytes()
    assert data == (whole / TRIALS).read_bytes()[:room] or len(data) == room  # nothing else
    assert not (out / SUMMARY_JSON).exists()
    code, err = cli(["run", "--resume", str(out), "--jobs", "1", "--no-progress"], capsys)
    assert code == 0, err
    assert_complete_and_unique(out, whole)


def test_a_full_disk_when_writing_the_summary_keeps_the_trials(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "nosummary"
    shutil.copytree(whole, out, ignore=shutil.ignore_patterns(".lock", "summary.*"))
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if SUMMARY_JSON in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    if not Path("/proc/self/fd").exists():
        pytest.skip("needs /proc to name a file descriptor")
    with monkeypatch.context() as m:
        m.setattr(os, "fsync", fsync)
        code, err = cli(["run", "--resume", str(out), "--no-progress"], capsys)
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"compsim: error: {out / SUMMARY_JSON}: cannot write (No space left on device)"
    )
    assert not list(out.glob(".summary*")), "the half-written temp file was left behind"
    assert not (out / SUMMARY_JSON).exists()
    assert (out / TRIALS).read_bytes() == (whole / TRIALS).read_bytes()
    code, err = cli(["run", "--resume", str(out), "--no-progress"], capsys)
    assert code == 0, err
    assert_complete_and_unique(out, whole)


@contextmanager
def read_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`folder` read-only: by its mode where that binds (not for root), else by refusing every
    write under it with EROFS, as a read-only mount would."""
    folder.chmod(0o555)
    probe = folder / ".probe"
    try:
        probe.touch()
    except PermissionError:
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    probe.unlink()
    folder.chmod(0o755)
    inside = str(folder.resolve())

    def refuse(path: Any) -> None:
        if str(Path(os.fsdecode(path)).resolve()).startswith(inside):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fsdecode(path))

    real_open, real_os_open = io.open, os.open
    real_mkdir, real_truncate, real_replace = os.mkdir, os.truncate, os.replace

    def io_open(file: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
        if isinstance(file, str | bytes | os.PathLike) and set(mode) & set("wax+"):
            refuse(file)
        return real_open(file, mode, *a, **k)

    def os_open(path: Any, flags: int, *a: Any, **k: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            refuse(path)
        return real_os_open(path, flags, *a, **k)

    def guarded(real: Any) -> Any:
        def call(path: Any, *a: Any, **k: Any) -> Any:
            refuse(path)
            return real(path, *a, **k)

        return call

    with monkeypatch.context() as m:
        m.setattr(io, "open", io_open)
        m.setattr(os, "open", os_open)
        m.setattr(os, "mkdir", guarded(real_mkdir))
        m.setattr(os, "truncate", guarded(real_truncate))
        m.setattr(os, "replace", guarded(real_replace))
        yield


def test_a_read_only_output_folder_is_one_line_and_leaves_the_run_intact(
    whole: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = tmp_path / "ro" / "run"
    shutil.copytree(whole, run, ignore=shutil.ignore_patterns(".lock", "summary.*"))
    data = (run / TRIALS).read_bytes()
    (run / TRIALS).write_bytes(data[: len(data) // 2])  # an interrupted run, torn mid-line
    before = {p.name: p.read_bytes() for p in run.iterdir()}
    argv = RUN
    with read_only(tmp_path / "ro", monkeypatch):
        for command in (
            ["run", "--resume", str(run), "--no-progress"],
            [*argv, "--out", str(tmp_path / "ro" / "new"), "--no-progress"],
            ["report", str(run), "--no-tables"],
        ):
            code, err = cli(command, capsys)
            assert code == 2, (command, err)
            assert "Traceback" not in err
            last = err.strip().splitlines()[-1]
            assert last.startswith("compsim: error: "), last
            assert "Read-only file system" in last or "Permission denied" in last, last
            assert len(err.strip().splitlines()) <= 2, err
    assert {p.name: p.read_bytes() for p in run.iterdir()} == before
    assert not (tmp_path / "ro" / "new").exists()
    code, err = cli(["run", "--resume", str(run), "--jobs", "1", "--no-progress"], capsys)
    assert code == 0, err
    assert_complete_and_unique(run, whole)

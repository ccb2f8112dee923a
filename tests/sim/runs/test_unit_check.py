"""A trials.jsonl that is not the run's plan is refused by every reader the way `--resume`
refuses it (one check, sim.runs.unit_check), naming the line; a run cut short says
"incomplete: N of M trials; resume with ..." in load_run, the terminal tables, report.html and
the gate."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.runs.grid import load_grid
from sim.runs.results import TRIALS, RunIncompleteWarning, RunStoreError, load_run, read_manifest
from sim.runs.runner import run_grid
from sim.runs.store import repair

ROOT = Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "fixtures" / "tiny.toml"
STRATEGIES, UNITS = 3, 16  # four cells x four trials


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("units") / "run"
    run_grid(load_grid(TINY), out, jobs=1, progress=False, traces=1)
    return out


def _copy(src: Path, dst: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock"))
    lines = (dst / TRIALS).read_bytes().splitlines(keepends=True)
    (dst / TRIALS).write_bytes(b"".join(edit(lines)))
    return dst


def _copied_row(lines: list[bytes]) -> list[bytes]:
    """A row copied into the middle, at a unit boundary: the report said "trials 5" where 4 ran."""
    return [*lines[: 2 * STRATEGIES], lines[0], *lines[2 * STRATEGIES :]]


def _foreign_row(lines: list[bytes]) -> list[bytes]:
    row = json.loads(lines[0])
    row["trial"] = 999
    return [*lines, (json.dumps(row) + "\n").encode()]


def _inside_a_unit(lines: list[bytes]) -> list[bytes]:
    return [lines[0], lines[0], *lines[1:]]


CASES = [
    (_copied_row, 7, "duplicate row: trial 0 of cell"),
    (_foreign_row, 49, "trial 999 is outside the plan (0..3): a foreign row"),
    (_inside_a_unit, 2, "repeats line 1"),
]


@pytest.mark.parametrize(("edit", "line", "why"), CASES)
def test_every_reader_refuses_what_resume_refuses(
    tiny_run: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit,  # type: ignore[no-untyped-def]
    line: int,
    why: str,
) -> None:
    run = _copy(tiny_run, tmp_path / "r", edit)
    where = f"{run / TRIALS}: line {line}: "
    with pytest.raises(RunStoreError) as resume:
        repair(run, read_manifest(run))
    assert str(resume.value).startswith(where) and why in str(resume.value)
    with pytest.raises(RunStoreError) as loaded:
        load_run(run)
    assert str(loaded.value) == str(resume.value)  # one check, one message
    for argv in (["report", str(run), "--no-tables"], ["check", str(run), "--baseline", str(run)]):
        assert main(argv) == 2
        _, err = capsys.readouterr()
        assert err == f"compsim: error: {resume.value}\n", argv
    assert not (run / "report.html").exists()


def _interrupted(tiny_run: Path, tmp_path: Path) -> Path:
    run = _copy(tiny_run, tmp_path / "cut", lambda lines: lines[: 5 * STRATEGIES])
    (run / "summary.json").unlink()
    (run / "summary.csv").unlink()
    return run


def test_load_run_warns_and_flags_an_interrupted_run(tiny_run: Path, tmp_path: Path) -> None:
    run_dir = _interrupted(tiny_run, tmp_path)
    text = f"incomplete: 5 of {UNITS} trials; resume with compsim run --resume {run_dir}"
    with pytest.warns(RunIncompleteWarning) as caught:
        run = load_run(run_dir)
    assert [str(w.message) for w in caught] == [text]
    assert run.incomplete and (run.units_done, run.units_total) == (5, UNITS)
    assert run.incomplete_text == text
    assert "incomplete: 5 of 16 trials" in repr(run)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a whole run loads without a word
        whole = load_run(tiny_run)
    assert not whole.incomplete and whole.incomplete_text is None


def test_report_and_gate_say_a_run_is_incomplete(
    tiny_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _interrupted(tiny_run, tmp_path)
    text = f"incomplete: 5 of {UNITS} trials; resume with compsim run --resume {run}"
    assert main(["report", str(run)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0] == text and "warning" not in err
    html = (run / "report.html").read_text()
    header = html.split("</header>")[0]
    assert f'<p class="warn">{text}</p>' in header
    assert main(["check", str(run), "--baseline", str(tiny_run)]) == 2
    assert capsys.readouterr().err == f"compsim: error: {run}: {text}\n"
    assert main(["report", str(tiny_run), "--no-tables"]) == 0
    assert "incomplete" not in capsys.readouterr().out
    assert "incomplete" not in (tiny_run / "report.html").read_text().split("</header>")[0]

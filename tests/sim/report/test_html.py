"""The HTML report: self-contained, every piece of scenario or model text escaped, the trace
viewer's data safe inside its script element; rendered in headless Chromium when available."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from sim.report.html import render_report, table, write_report
from sim.report.viewer import SCRIPT, script_json, trace_payload
from tests.sim.report.fixtures import (
    CELL,
    SWEEP_CELLS,
    FakeRun,
    manifest,
    sweep_manifest,
    sweep_run,
    tiny_run,
)

HOSTILE = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
)
EVIL = " ".join(HOSTILE)


def _json_block(html: str) -> Any:
    m = re.search(r'<script type="application/json" id="trace-data">(.*?)</script>', html, re.S)
    assert m, "trace data block missing"
    return json.loads(m.group(1))


def _hostile_run() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    rows, traces = tiny_run()
    for r in rows:
        r["cell"] = r["cell"] + EVIL
    for t in traces:
        t["cell"] = t["cell"] + EVIL
        t["facts"][0]["text"] = EVIL
        t["levels"][1]["text"] = EVIL + "\n" + t["levels"][1]["text"]
        grade = next(iter(t["levels"][1]["grades"].values()))
        grade["sentence"] = EVIL
    meta = manifest(run_id=EVIL)
    meta["scenario"] = {**meta["scenario"], "description": EVIL}
    meta["cells"][0]["id"] = CELL + EVIL
    return rows, traces, meta


def test_hostile_text_appears_only_escaped() -> None:
    rows, traces, meta = _hostile_run()
    html = render_report(rows, traces, meta, plots=False)
    for bad in ("<script>alert", "<img src=x", "onerror=alert(1)>"):
        assert bad not in html
    assert len(re.findall(r"<script", html, re.I)) == 2  # the data block and the viewer
    assert not re.search(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", html, re.I)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # in markup (spec, tables)
    assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    data = _json_block(html)  # round trip: the viewer gets the exact text back
    assert data["traces"][0]["facts"][0]["text"] == EVIL
    assert EVIL in data["texts"][data["traces"][0]["levels"][1]["text"]]


def test_script_json_cannot_close_its_element() -> None:
    text = script_json({"a": "</script><!-- & -->"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & -->"}


def test_viewer_inserts_data_as_text_only() -> None:
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in SCRIPT
    assert "textContent" in SCRIPT and "createTextNode" in SCRIPT


def test_report_is_self_contained_and_its_csp_admits_only_its_own_code() -> None:
    rows, traces = tiny_run()
    html = render_report(rows, traces, manifest(), plots=False)
    assert "http://" not in html and "https://" not in html
    assert not re.search(r"""\b(src|href)\s*=\s*["'](?!data:|#)""", html)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp and "default-src 'none'" in csp.group(1)
    inline = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert inline == [SCRIPT]
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp.group(1)


def test_trace_payload_shares_texts_and_opens_on_a_lost_fact() -> None:
    _, traces = tiny_run()
    payload = trace_payload(traces)
    levels = sum(len(t["levels"]) for t in traces)
    assert len(payload["texts"]) < levels  # one L0 shared by every strategy of the trial
    start = payload["traces"][payload["start"]["trace"]]
    leaf = start["levels"][-1]["grades"][payload["start"]["fact"]][0]
    assert leaf not in ("verbatim", "actionable")
    l0 = payload["traces"][0]["levels"][0]
    assert l0["budget"] is None and all(g[0] for g in l0["grades"].values())


def test_write_report_writes_one_file_with_tables_and_viewer(tmp_path: Path) -> None:
    rows, traces = tiny_run()
    path = write_report(FakeRun(tmp_path, rows, traces), tmp_path / "report.html", plots=False)
    html = path.read_text(encoding="utf-8")
    for anchor in ('id="rates"', 'id="survival-table"', 'id="blame"', 'id="traces"'):
        assert anchor in html
    assert not list(tmp_path.glob("*.tmp"))


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium not installed (Debian: apt-get install -y chromium)")
    rows, traces = tiny_run()
    page = write_report(FakeRun(tmp_path, rows, traces), tmp_path / "report.html")
    shot = tmp_path / "shot.png"
    trial = traces[0]["trial_id"]
    cmd = [
        exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}",
        "--window-size=1400,1000", f"{page.as_uri()}#trial={trial}&fact=f1",
    ]  # fmt: skip
    assert page.read_text(encoding="utf-8").count('src="data:image/png;base64,') == 5
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000  # a blank page is ~6 kB
    dom = subprocess.run(
        [*cmd[:-3], "--dump-dom", cmd[-1]], check=True, capture_output=True, timeout=120
    ).stdout.decode()
    assert 'class="tv-col"' in dom  # the viewer's script ran under the page's CSP
    assert "<mark" in dom


def test_tables_escape_cells_and_drop_an_empty_cell_column() -> None:
    html = table(["cell", "strategy", "n"], [["", "<b>x</b>", 3]], numeric=2)
    assert "<th>cell</th>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert '<td class="n">3</td>' in html
    kept = table(["cell", "strategy"], [["depths=[0.5]", "a"]])
    assert "<th>cell</th>" in kept and 'class="n"' not in kept


def _dom(exe: str, tmp_path: Path, page: Path, fragment: str) -> str:
    cmd = [
        exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"{page.as_uri()}#{fragment}",
    ]  # fmt: skip
    return subprocess.run(cmd, check=True, capture_output=True, timeout=120).stdout.decode()


def _text(dom: str, node_id: str) -> tuple[str, bool]:
    """(text, hidden) of the element with `node_id` in a dumped DOM."""
    m = re.search(rf'<p id="{node_id}"([^>]*)>(.*?)</p>', dom, re.S)
    assert m, node_id
    return m[2], "hidden" in m[1]


@pytest.mark.slow
def test_sweep_deep_links_take_the_readme_form_and_say_when_a_trial_is_missing(
    tmp_path: Path,
) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium not installed (Debian: apt-get install -y chromium)")
    rows, traces = sweep_run()
    page = write_report(FakeRun(tmp_path, rows, traces, sweep_manifest()), tmp_path / "r.html",
                        plots=False)  # fmt: skip
    cell = SWEEP_CELLS[3]
    quoted = urllib.parse.quote(cell, safe="")
    for fragment in (
        f"trial=000000:budget_open&fact=f2&cell={quoted}",  # the README's form
        f"trial={urllib.parse.quote(cell + '/000000:budget_open', safe='')}&fact=f2",
    ):
        dom = _dom(exe, tmp_path, page, fragment)
        meta, _ = _text(dom, "tv-meta")
        assert meta == f"strategy budget_open · cell {cell}", fragment
        assert _text(dom, "tv-fact-text")[0].startswith("Fact f2 ")
        assert _text(dom, "tv-missing")[1], "no message for a link that was found"
        assert dom.index('id="traces"') < dom.index('id="spec"')  # the viewer comes first
    gone = _text(_dom(exe, tmp_path, page, f"trial=000099:re_ranking&cell={quoted}"),
                 "tv-missing")  # fmt: skip
    assert not gone[1] and "asks for trial 000099:re_ranking in cell" in gone[0]
    assert "holds no trace" in gone[0] and "Showing " in gone[0]
    no_fact = _text(_dom(exe, tmp_path, page, f"trial=000000:re_ranking&fact=f9&cell={quoted}"),
                    "tv-missing")  # fmt: skip
    assert not no_fact[1] and "has no fact f9" in no_fact[0]
    many = _text(_dom(exe, tmp_path, page, "trial=000000:re_ranking&fact=f1"), "tv-missing")
    assert not many[1] and f"is in {len(SWEEP_CELLS)} cells" in many[0]

"""Security properties: templates cannot run code, nothing is unpickled, an API key is written
nowhere, names cannot climb out of their folder, hostile text reaches the HTML report only
escaped, and real-model backends refuse remote code, pickle weights and unverified TLS."""

from __future__ import annotations

import json
import logging
import re
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.commands.main import main
from sim.commands.run import RUNS_DIR, default_out
from sim.errors import ScenarioError, UserError
from sim.prompts.templates import PromptError, check_template, render
from sim.regression.suite import load_suite
from sim.report.html import write_report
from sim.report.plots import _slug
from sim.runs.grid import grid_from_data
from sim.runs.results import load_run
from sim.runs.scenario import parse_scenario
from sim.summarizers.backend import GenParams
from sim.summarizers.http import BackendError, HttpChatModel, HttpSettings
from tests.sim.summarizers.stub_server import Reply, Seen, Stub, ok

ROOT = Path(__file__).resolve().parents[1]
SENTINEL = "sk-test-SENTINEL-7f3a9c2e41d8"
SCENARIO = """name = "secrets"
seed = 5
trials = 3
strategies = ["budget_closed", "floor_gated"]
[history]
target_tokens = 700
near_misses = 1
[constraints]
count = 1
[[ladder]]
name = "L1"
budget_tokens = 300
group_size = 3
[[ladder]]
name = "L2"
budget_tokens = 100
"""


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out + err


# --- templates --------------------------------------------------------------------------------
def test_templates_cannot_reach_attributes_or_call_anything() -> None:
    out = render(
        "{x.__class__} {0.__init__.__globals__} $level\n$input",
        text="T",
        budget_tokens=5,
        level="L1",
    )
    assert out == "{x.__class__} {0.__init__.__globals__} L1\nT"
    for text in ("${__import__}('os')\n$input", "$input.__class__.__mro__ ${input.__class__}"):
        with pytest.raises(PromptError):
            check_template(text, "<t>")


def test_substituted_text_is_never_substituted_again() -> None:
    """A history (or a model's summary) holding placeholders or format fields stays as it is."""
    hostile = "$budget_tokens ${level} $pinned_facts {input} {0} %(x)s ${__import__}('os')"
    out = render("Summarize for $level:\n$input", text=hostile, budget_tokens=9, level="L2")
    assert out == f"Summarize for L2:\n{hostile}"


SOURCES = sorted([*(ROOT / "sim").rglob("*.py"), *(ROOT / "strategies").rglob("*.py")])
UNSAFE = re.compile(
    r"^\s*(?:import|from)\s+(?:pickle|cPickle|marshal|shelve|dill|cloudpickle|joblib)\b"
    r"|\b(?:pickle|marshal|shelve|dill|cloudpickle|joblib)\.(?:loads?|open|Unpickler)\b"
    r"|\btorch\.load\(|allow_pickle\s*=\s*True|\byaml\.load\(|(?<![.\w])(?:eval|exec)\(",
    re.M,
)


def test_no_pickle_marshal_shelve_eval_or_exec_in_the_package() -> None:
    assert len(SOURCES) > 50
    found = [(p.name, m.group(0).strip()) for p in SOURCES for m in UNSAFE.finditer(p.read_text())]
    assert found == []
    assert UNSAFE.search("import pickle\n") and UNSAFE.search("x = eval('1')")  # it can fail


def test_real_models_refuse_remote_code_and_pickle_weights() -> None:
    for name in ("sim/summarizers/local.py", "sim/summarizers/packaged.py", "sim/tokens.py"):
        path = ROOT / name
        if not path.exists():
            continue
        text = path.read_text()
        assert "trust_remote_code=True" not in text and '"trust_remote_code": True' not in text
        calls = text.count("from_pretrained(")
        assert calls == 0 or "trust_remote_code" in text, name
    assert (
        'model_kwargs["use_safetensors"] = True' in (ROOT / "sim/summarizers/local.py").read_text()
    )


# --- secrets --------------------------------------------------------------------------------
def hostile_server(seen: Seen) -> Reply:
    """A model behind a server that echoes the Authorization header: into an error body now
    and then (that trial becomes an error row), into the summary itself on every third call."""
    auth = seen.headers.get("authorization", "")
    if seen.path.endswith("/models"):  # the fail-fast probe before the first trial
        return Reply(200, {"object": "list", "data": [{"id": "stub-model"}]})
    count = len(SEEN)
    SEEN.append(auth)
    if count % 23 == 7:
        return Reply(401, {"error": {"message": f"invalid credentials: {auth}"}})
    prompt = seen.body["messages"][0]["content"]
    keep = [ln for ln in prompt.splitlines() if "not" in ln or "before" in ln]
    words = " ".join(keep).split()[: max(1, seen.body["max_tokens"] // 2)]
    tail = f" (debug: {auth})" if count % 3 == 0 else ""
    return ok(" ".join(words) + tail)


SEEN: list[str] = []


def files_under(*roots: Path) -> Iterator[Path]:
    for root in roots:
        yield from (p for p in root.rglob("*") if p.is_file())


@pytest.mark.slow
def test_an_api_key_is_written_nowhere(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sweep against a local OpenAI-compatible endpoint with the cache on, then the report:
    the sentinel key is in no file of the run, the cache, the HTML report, the plots, the
    terminal output or the logs; yet the server did receive it (the test can fail)."""
    monkeypatch.setenv("COMPSIM_SENTINEL_KEY", SENTINEL)
    caplog.set_level(logging.DEBUG)
    scenario = tmp_path / "secrets.toml"
    scenario.write_text(SCENARIO)
    run, cache = tmp_path / "run", tmp_path / "cache" / "calls.sqlite"
    with Stub(default=hostile_server) as stub:
        flags = ["--summarizer", "http", "--base-url", stub.base_url, "--model", "stub-model"]
        flags += ["--api-key-env", "COMPSIM_SENTINEL_KEY", "--cache", str(cache)]
        code, said = cli(["run", str(scenario), *flags, "--out", str(run), "--jobs", "1"], capsys)
        assert code in (0, 1), said  # 1: the 401s are error rows
        assert any(SENTINEL in s.headers.get("authorization", "") for s in stub.seen)
        code2, said2 = cli(["report", str(run)], capsys)
        assert code2 == 0, said2
    rows = [json.loads(line) for line in (run / "trials.jsonl").read_text().splitlines()]
    assert any(r["error"] and "[redacted]" in r["error"] for r in rows)  # the 401 bodies
    assert (run / "report.html").exists() and cache.exists()
    scanned = list(files_under(run, cache.parent))
    assert len(scanned) >= 6
    for path in scanned:
        assert SENTINEL.encode() not in path.read_bytes(), path
    assert SENTINEL not in said + said2 + caplog.text


def test_keys_are_named_never_given(tmp_path: Path) -> None:
    data: dict[str, Any] = {
        "name": "k",
        "strategies": ["budget_closed"],
        "ladder": [{"name": "L1", "budget_tokens": 50}],
    }
    for table in (
        {"name": "http", "base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key": SENTINEL},
        {
            "name": "http",
            "base_url": "http://127.0.0.1:9/v1",
            "model": "m",
            "api_key_env": SENTINEL,
        },
        {"name": "http", "base_url": f"http://u:{SENTINEL}@127.0.0.1:9/v1", "model": "m"},
    ):
        with pytest.raises(UserError) as info:
            scenario = parse_scenario({**data, "summarizer": table}, tmp_path / "k.toml")
            HttpChatModel(
                HttpSettings(scenario.summarizer.base_url or "", scenario.summarizer.model or "")
            )
        assert SENTINEL not in str(info.value)


# --- output paths ---------------------------------------------------------------------------
BASE: dict[str, Any] = {
    "name": "paths",
    "strategies": ["budget_closed"],
    "ladder": [{"name": "L1", "budget_tokens": 50}],
}


@pytest.mark.parametrize(
    "name", ["../escape", "..", ".", "/etc/passwd", "a/b", "a\\b", "a\x00b", ".hidden", "", "~"]
)
def test_scenario_names_that_could_escape_are_rejected(name: str, tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="name"):
        parse_scenario({**BASE, "name": name}, tmp_path / "s.toml")


@given(st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,40}", fullmatch=True))
def test_every_accepted_name_stays_inside_the_runs_folder(name: str) -> None:
    grid = grid_from_data({**BASE, "name": name}, str(ROOT / "s.toml"))
    out = default_out(grid, 3)
    assert out.parent == RUNS_DIR and len(out.parts) == len(RUNS_DIR.parts) + 1
    assert (ROOT / out).resolve().parent == (ROOT / RUNS_DIR).resolve()


@pytest.mark.parametrize("cell", ["../../x", "/etc/passwd", "a/../b", "..", "x\x00y", "ladder=../"])
def test_plot_files_of_any_cell_stay_in_the_plots_folder(cell: str) -> None:
    stem = "depth_heatmap-03-" + _slug(cell)  # the one kind whose file names a cell
    assert "/" not in stem and "\\" not in stem and "\x00" not in stem
    assert not stem.startswith(".") and Path(stem).name == stem


def test_suite_case_names_cannot_climb_out_of_the_suite_run(tmp_path: Path) -> None:
    (tmp_path / "case.toml").write_text(
        'name = "c"\nstrategies = ["budget_closed"]\n[[ladder]]\nname = "L1"\nbudget_tokens = 50\n'
    )
    for bad in ("..", "../up", "/abs", ".x"):
        (tmp_path / "suite.toml").write_text(
            f'name = "s"\nversion = 1\nstrategies = ["budget_closed"]\n'
            f'[[cases]]\nname = "{bad}"\nfile = "case.toml"\nversion = 1\n'
        )
        with pytest.raises(UserError, match=r"cases\.0\.name"):
            load_suite(tmp_path / "suite.toml")


@pytest.mark.parametrize("flag", ["--out", "--resume"])
def test_nul_bytes_in_output_paths_are_refused(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", str(ROOT / "tests/fixtures/tiny.toml"), "--out", f"{tmp_path}/a\x00b"]
    if flag == "--resume":
        argv = ["run", "--resume", f"{tmp_path}/a\x00b"]
    code, said = cli(argv, capsys)
    assert code == 2 and "a NUL byte cannot be part of a path" in said
    assert list(tmp_path.iterdir()) == []


# --- the HTML report --------------------------------------------------------------------------
EVIL_FACT = (
    'Never purge the <script>alert(1)</script> archive "><img src=x onerror=alert(2)> '
    "before javascript:alert(3) noon."
)


def test_hostile_fact_texts_reach_the_report_only_escaped(tmp_path: Path) -> None:
    """A real run whose planted fact and description carry markup and a javascript: URL."""
    text = SCENARIO.replace('name = "secrets"', 'name = "html"').replace(
        "trials = 3", 'trials = 1\ndescription = "<script>alert(4)</script>"'
    )
    text += (
        "[[constraints.planted]]\n"
        f"text = {json.dumps(EVIL_FACT)}\n"
        'anchors = { action = ["purge"], object = ["archive"], condition = ["before"] }\n'
        "turn = 2\n"
    )
    scenario = tmp_path / "html.toml"
    scenario.write_text(text)
    code = main(
        ["run", str(scenario), "--out", str(tmp_path / "run"), "--jobs", "1", "--no-progress"]
    )
    assert code == 0
    run = load_run(tmp_path / "run")
    assert any(f["text"] == EVIL_FACT for t in run.traces for f in t["facts"])
    html = write_report(run, tmp_path / "report.html", plots=False).read_text()
    for raw in ("<script>alert", "<img src=x", "onerror=alert(2)>"):
        assert raw not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html or "\\u003cscript" in html
    assert not re.search(r"""(href|src|action|formaction)\s*=\s*["']?\s*javascript:""", html, re.I)
    assert not re.search(r"""\b(src|href)\s*=\s*["'](?!data:|#)""", html)
    assert "http://" not in html and "https://" not in html and "@import" not in html
    assert "default-src 'none'" in html


# --- the HTTP client ------------------------------------------------------------------------
def _self_signed(tmp_path: Path) -> tuple[Path, Path]:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    try:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
             "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out", str(cert),
             "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs the openssl command to make a certificate")
    return cert, key


class _Ok(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"choices": [{"message": {"content": "fine"}, "finish_reason": "stop"}]})
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: Any) -> None:
        pass


def test_tls_is_verified_and_a_bad_certificate_is_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = _self_signed(tmp_path)
    server = HTTPServer(("127.0.0.1", 0), _Ok)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"https://127.0.0.1:{server.server_address[1]}/v1"
    slept: list[float] = []
    try:
        model = HttpChatModel(HttpSettings(url, "m", max_retries=3), sleep=slept.append)
        with pytest.raises(BackendError, match="TLS error"):
            model.complete("hi", GenParams(5), np.random.default_rng(0))
        assert model.requests == 1 and slept == []  # a bad certificate does not heal
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the same server, now trusted
        trusted = HttpChatModel(HttpSettings(url, "m"), sleep=slept.append)
        assert trusted.complete("hi", GenParams(5), np.random.default_rng(0)).text == "fine"
    finally:
        server.shutdown()
        server.server_close()


def test_http_settings_bound_every_call() -> None:
    """Connect and read timeouts are finite by default and in every scenario (a hang cannot
    last past them); redirects to other hosts and retries are covered in test_http.py."""
    settings = HttpSettings("http://127.0.0.1:9/v1", "m")
    assert 0 < settings.connect_timeout_s <= 60 and 0 < settings.read_timeout_s <= 7200
    with pytest.raises(ScenarioError, match="read_timeout_s"):
        parse_scenario(
            {**BASE, "summarizer": {"name": "http", "base_url": "http://x/v1", "model": "m",
                                    "read_timeout_s": 0}},
            ROOT / "s.toml",
        )  # fmt: skip


# --- secrets, round two: the key echoed back escaped -----------------------------------------
ESCAPED_KEY = "sk-T/e+s=t%2F-é-ключ-SENTINEL-4b7d"
"""A sentinel holding `/ + = %` and non-ASCII: every one is escaped by some server."""


def _echoes(header: str) -> list[tuple[str, str]]:
    """The header as a server may send it back: the stub, like most servers, decodes header
    bytes as Latin-1, so both that view and the UTF-8 original are echoed."""
    import base64
    import html
    from urllib.parse import quote, quote_plus

    original = header.encode("latin-1").decode("utf-8")
    out = []
    for base in (original, header):
        out += [
            ("raw", base),
            ("json", json.dumps(base)[1:-1].replace("/", "\\/")),
            ("json-utf8", json.dumps(base, ensure_ascii=False)[1:-1].replace("/", "\\/")),
            ("percent", quote(base, safe="")),
            ("form", quote_plus(base)),
            ("base64", base64.b64encode(base.encode()).decode()),
            ("base64url", base64.urlsafe_b64encode(base.encode()).decode()),
            ("html", html.escape(base)),
        ]
    return out


def escaping_server(seen: Seen) -> Reply:
    """Each call echoes the Authorization header in the next encoding, into the summary, a
    401 body written as raw JSON text (so `\\/` reaches the client as sent), a malformed 200
    body or a 503 body (retried, then quoted in the trial's error)."""
    auth = seen.headers.get("authorization", "")
    if seen.path.endswith("/models"):  # the fail-fast probe before the first trial
        ESCAPED_SEEN.append(auth)
        return Reply(200, json.dumps({"data": [{"id": "stub-model"}]}).encode())
    count = len(ESCAPED_SEEN)
    ESCAPED_SEEN.append(auth)
    echoes = _echoes(auth)
    _, echo = echoes[count % len(echoes)]
    if count % 11 == 3:
        return Reply(401, f'{{"error": {{"message": "bad credentials: {echo}"}}}}'.encode())
    if count % 13 == 5:
        return Reply(200, f"<html>debug {echo}</html>".encode())
    if count % 17 == 6:
        return Reply(503, f'{{"detail": "overloaded; you sent {echo}"}}'.encode())
    prompt = seen.body["messages"][0]["content"]
    keep = [ln for ln in prompt.splitlines() if "not" in ln or "before" in ln]
    words = " ".join(keep).split()[: max(1, seen.body["max_tokens"] // 2)]
    body = json.dumps(ok(" ".join(words) + " (debug: ECHO)").body).replace("ECHO", echo)
    return Reply(200, body.encode())


ESCAPED_SEEN: list[str] = []


def _key_forms(key: str) -> list[bytes]:
    """Independent of sim.summarizers.redact: the byte strings that would mean a leak."""
    forms = {form for _, header in [("", key.encode().decode("latin-1"))] for _, form in
             _echoes(header)}  # fmt: skip
    forms |= {json.dumps(key)[1:-1], json.dumps(key.encode().decode("latin-1"))[1:-1]}
    return sorted({f.encode("utf-8") for f in forms if "SENTINEL" in f or len(f) > 30})


@pytest.mark.slow
def test_an_api_key_echoed_in_any_encoding_is_written_nowhere(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sentinel goes through every backend path (summaries, 401 bodies, malformed and
    retried replies) echoed raw, JSON-escaped, percent- and form-encoded, base64 and HTML; no
    file of the run, the cache or the report and no output holds it in any of those forms."""
    monkeypatch.setenv("COMPSIM_SENTINEL_KEY", ESCAPED_KEY)
    caplog.set_level(logging.DEBUG)
    scenario = tmp_path / "secrets.toml"
    scenario.write_text(SCENARIO.replace("trials = 3", "trials = 6"))
    run, cache = tmp_path / "run", tmp_path / "cache" / "calls.sqlite"
    ESCAPED_SEEN.clear()
    with Stub(default=escaping_server) as stub:
        flags = ["--summarizer", "http", "--base-url", stub.base_url, "--model", "stub-model"]
        flags += ["--api-key-env", "COMPSIM_SENTINEL_KEY", "--cache", str(cache)]
        flags += ["-S", "summarizer.max_retries=1"]
        code, said = cli(["run", str(scenario), *flags, "--out", str(run), "--jobs", "1"], capsys)
        assert code in (0, 1), said
        code2, said2 = cli(["report", str(run)], capsys)
        assert code2 == 0, said2
    # the server did receive the key, whole, and echoed it in every encoding
    assert any(a.encode("latin-1") == f"Bearer {ESCAPED_KEY}".encode() for a in ESCAPED_SEEN)
    assert len(ESCAPED_SEEN) >= 2 * len(_echoes(ESCAPED_SEEN[0]))
    rows = [json.loads(line) for line in (run / "trials.jsonl").read_text().splitlines()]
    assert any(r["error"] and "[redacted]" in r["error"] for r in rows)
    assert any(not r["error"] for r in rows)
    forms = _key_forms(ESCAPED_KEY)
    assert len(forms) >= 12
    scanned = list(files_under(run, cache.parent))
    assert len(scanned) >= 6
    for path in scanned:
        data = path.read_bytes()
        for form in forms:
            assert form not in data, (path, form)
    for form in forms:
        assert form.decode() not in said + said2 + caplog.text

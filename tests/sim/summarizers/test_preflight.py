"""Fail fast: the endpoint probe before the first trial, and the total deadline of a call."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from sim.commands.main import main
from sim.summarizers.backend import GenParams
from sim.summarizers.http import BackendError, HttpChatModel, HttpSettings
from sim.summarizers.preflight import EndpointError, check_endpoint
from tests.sim.summarizers.stub_server import Reply, Stub, ok

MODELS = {"object": "list", "data": [{"id": "tiny-chat", "object": "model"}]}


def _model(url: str, **kw: object) -> HttpChatModel:
    return HttpChatModel(HttpSettings(base_url=url, model="tiny-chat", **kw))  # type: ignore[arg-type]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_served_model_passes() -> None:
    with Stub() as stub:
        stub.plan.append(Reply(200, MODELS))
        check_endpoint(_model(stub.base_url))
        assert stub.seen[0].path == "/v1/models"


def test_refused_connection_is_one_line_naming_the_url() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    with pytest.raises(EndpointError, match=r"^http://127\.0\.0\.1:\d+/v1: cannot connect"):
        check_endpoint(_model(url, connect_timeout_s=2.0))


@pytest.mark.parametrize("status", [401, 403])
def test_rejected_key(status: int) -> None:
    with Stub() as stub:
        stub.plan.append(Reply(status, b'{"error": "bad key"}'))
        with pytest.raises(EndpointError, match=f"HTTP {status}: the server refused"):
            check_endpoint(_model(stub.base_url))


def test_unknown_model_names_what_is_served() -> None:
    with Stub() as stub:
        stub.plan.append(Reply(200, {"data": [{"id": "other-model"}]}))
        with pytest.raises(EndpointError, match=r"'tiny-chat' is not served; it serves 'other"):
            check_endpoint(_model(stub.base_url))


def test_without_a_model_list_a_one_token_completion_is_asked() -> None:
    with Stub() as stub:
        stub.plan.extend([Reply(404, b"no such route"), ok("OK")])
        check_endpoint(_model(stub.base_url))
        assert [s.path for s in stub.seen] == ["/v1/models", "/v1/chat/completions"]
        assert stub.seen[1].body["max_tokens"] == 1
        stub.plan.extend([Reply(404, b"no such route"), Reply(404, b"model not found")])
        with pytest.raises(EndpointError, match="'tiny-chat' is not served"):
            check_endpoint(_model(stub.base_url))


def test_compsim_run_fails_fast_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    args = ["run", "scenarios/prompt_comparison.toml", "--summarizer", "http", "--base-url", url,
            "--model", "m", "--no-progress", "--trials", "3"]  # fmt: skip
    assert main(args) == 2  # the probe's line, not a trial's "gave up after 5 attempts"
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"compsim: error: {url}: cannot connect (Connection refused)"


@pytest.fixture
def dripping() -> Iterator[str]:
    """A server that sends a status line, then one byte every 0.2 s for 60 s (without the
    deadline the read would last that long and then fail as an incomplete read)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    stop = threading.Event()

    def serve() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except TimeoutError:
                continue
            with conn:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
                until = time.monotonic() + 60
                while not stop.is_set() and time.monotonic() < until:
                    try:
                        conn.sendall(b" ")
                    except OSError:
                        break
                    time.sleep(0.2)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.getsockname()[1]}/v1"
    stop.set()
    t.join(5)
    srv.close()


def test_total_deadline_stops_a_dripping_server(dripping: str) -> None:
    m = _model(dripping, read_timeout_s=1.0, deadline_s=1.5, max_retries=0)
    with pytest.raises(BackendError, match=r"no complete reply within 1\.5 s \(the deadline\)"):
        m.complete("p", GenParams(max_tokens=4), np.random.default_rng(0))

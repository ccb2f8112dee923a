"""The HTTP backend against a local stub: request shape, retries, timeouts, bad replies,
redirects, and the API key staying in the Authorization header only."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from sim.errors import UserError
from sim.summarizers.backend import GenParams
from sim.summarizers.http import BackendError, HttpChatModel, HttpSettings
from tests.sim.summarizers.stub_server import Reply, Stub, ok

PARAMS = GenParams(max_tokens=40, temperature=0.0, seed=1234)


def model(stub: Stub, delays: list[float] | None = None, **kw: object) -> HttpChatModel:
    sink = delays if delays is not None else []
    settings = HttpSettings(base_url=stub.base_url, model="tiny-chat", **kw)  # type: ignore[arg-type]
    return HttpChatModel(settings, sleep=sink.append)


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def test_request_shape_and_usage() -> None:
    with Stub() as stub:
        stub.plan.append(ok("Do not rotate the credential after step 4.", "stop", 11, 9))
        got = model(stub).complete("Summarize: hi", PARAMS, rng())
    assert got.text == "Do not rotate the credential after step 4."
    assert (got.finish_reason, got.prompt_tokens, got.completion_tokens) == ("stop", 11, 9)
    (seen,) = stub.seen
    assert seen.path == "/v1/chat/completions"
    assert seen.body["model"] == "tiny-chat"
    assert seen.body["messages"] == [{"role": "user", "content": "Summarize: hi"}]
    assert seen.body["max_tokens"] == 40
    assert seen.body["temperature"] == 0.0
    assert seen.body["seed"] == 1234
    assert "authorization" not in seen.headers


def test_length_stop_is_reported() -> None:
    with Stub() as stub:
        stub.plan.append(ok("a b c", "length"))
        assert model(stub).complete("p", PARAMS, rng()).cut


def test_429_and_5xx_are_retried_with_capped_backoff() -> None:
    delays: list[float] = []
    with Stub() as stub:
        stub.plan.extend([Reply(429, b"slow down"), Reply(503, b"busy"), Reply(500, b"")])
        stub.plan.append(ok("fine"))
        m = model(stub, delays, backoff_base_s=1.0, backoff_cap_s=3.0)
        assert m.complete("p", PARAMS, rng()).text == "fine"
    assert len(stub.seen) == 4
    assert len(delays) == 3
    # exponential with jitter in [0.5, 1) of the step, capped
    assert 0.5 <= delays[0] < 1.0
    assert 1.0 <= delays[1] < 2.0
    assert 1.5 <= delays[2] < 3.0


def test_backoff_jitter_is_seeded() -> None:
    runs = []
    for _ in range(2):
        delays: list[float] = []
        with Stub() as stub:
            stub.plan.extend([Reply(503), Reply(503), ok("x")])
            model(stub, delays).complete("p", PARAMS, np.random.default_rng(7))
        runs.append(delays)
    assert runs[0] == runs[1]


def test_retry_after_header_is_honoured_and_capped() -> None:
    delays: list[float] = []
    with Stub() as stub:
        stub.plan.extend(
            [Reply(429, headers={"Retry-After": "2"}), Reply(429, headers={"Retry-After": "999"})]
        )
        stub.plan.append(ok("x"))
        model(stub, delays, backoff_cap_s=5.0).complete("p", PARAMS, rng())
    assert delays == [2.0, 5.0]


def test_gives_up_after_max_retries() -> None:
    with (
        Stub(default=lambda seen: Reply(502, b"bad gateway")) as stub,
        pytest.raises(BackendError, match=r"gave up after 3 attempts \(HTTP 502: bad gateway\)"),
    ):
        model(stub, max_retries=2).complete("p", PARAMS, rng())
    assert len(stub.seen) == 3


def test_read_timeout_is_retried() -> None:
    with Stub() as stub:
        stub.plan.extend([Reply(200, b"{}", delay_s=1.0), ok("after timeout")])
        m = model(stub, read_timeout_s=0.2)
        assert m.complete("p", PARAMS, rng()).text == "after timeout"
    assert len(stub.seen) == 2


def test_client_errors_fail_at_once() -> None:
    with Stub() as stub:
        stub.plan.append(Reply(400, b'{"error": "max_tokens too large"}'))
        with pytest.raises(BackendError, match="HTTP 400"):
            model(stub).complete("p", PARAMS, rng())
    assert len(stub.seen) == 1


@pytest.mark.parametrize(
    "body",
    [b"not json", b'{"choices": []}', b'{"choices": [{"message": {"content": null}}]}'],
)
def test_malformed_replies_are_errors(body: bytes) -> None:
    with Stub() as stub:
        stub.plan.append(Reply(200, body))
        with pytest.raises(BackendError, match="malformed response"):
            model(stub).complete("p", PARAMS, rng())


def test_redirect_to_another_host_is_refused() -> None:
    with Stub() as stub:
        elsewhere = stub.base_url.replace("127.0.0.1", "127.0.0.2") + "/chat/completions"
        stub.plan.append(Reply(307, headers={"Location": elsewhere}))
        with pytest.raises(BackendError, match="refusing redirect to another host"):
            model(stub).complete("p", PARAMS, rng())
    assert len(stub.seen) == 1


def test_same_host_307_is_followed() -> None:
    with Stub() as stub:
        stub.plan.extend([Reply(307, headers={"Location": "/v2/chat/completions"}), ok("moved")])
        assert model(stub).complete("p", PARAMS, rng()).text == "moved"
    assert [s.path for s in stub.seen] == ["/v1/chat/completions", "/v2/chat/completions"]


def test_key_comes_from_the_named_variable_and_stays_in_the_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "sk-test-0123456789abcdef"
    monkeypatch.setenv("COMPSIM_TEST_KEY", secret)
    with Stub() as stub:
        stub.plan.extend([ok("x"), Reply(400, b"bad request")])
        m = model(stub, api_key_env="COMPSIM_TEST_KEY")
        m.complete("p", PARAMS, rng())
        with pytest.raises(BackendError) as err:
            m.complete("p", PARAMS, rng())
    assert stub.seen[0].headers["authorization"] == f"Bearer {secret}"
    assert secret not in repr(m)
    assert secret not in str(m.identity())
    assert secret not in str(err.value)


def test_missing_key_variable_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPSIM_NO_SUCH_KEY", raising=False)
    with pytest.raises(UserError, match="COMPSIM_NO_SUCH_KEY is not set"):
        HttpChatModel(HttpSettings("http://127.0.0.1:9/v1", "m", api_key_env="COMPSIM_NO_SUCH_KEY"))


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://127.0.0.1/v1", "not an http"),
        ("http://user:pw@127.0.0.1/v1", "credentials in the URL"),
    ],
)
def test_bad_base_urls(url: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        HttpChatModel(HttpSettings(url, "m"))


def test_concurrency_limit_bounds_requests_in_flight() -> None:
    with Stub(default=lambda seen: Reply(200, ok("x").body, delay_s=0.3)) as stub:
        m = model(stub, max_concurrency=2)
        threads = [threading.Thread(target=m.complete, args=("p", PARAMS, rng())) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert len(stub.seen) == 6
    assert 1 <= stub.max_in_flight <= 2


class _KeepAlive:
    """An HTTP/1.1 server that counts TCP connections; `close_after` closes each connection
    after that many replies (as a server with a short keep-alive does)."""

    def __init__(self, close_after: int = 0) -> None:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.connections = 0
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                owner.connections += 1
                self.served = 0

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                raw = json.dumps(ok("kept").body).encode()
                self.served += 1
                self.send_response(200)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)
                if close_after and self.served >= close_after:
                    self.close_connection = True  # closes without a Connection: close header

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def test_one_thread_keeps_its_connection_alive() -> None:
    srv = _KeepAlive()
    m = HttpChatModel(HttpSettings(base_url=srv.url, model="m"))
    texts = [m.complete("p", PARAMS, rng()).text for _ in range(5)]
    srv.server.shutdown()
    assert texts == ["kept"] * 5
    assert srv.connections == 1


def test_a_connection_the_server_closed_is_replaced() -> None:
    srv = _KeepAlive(close_after=2)
    m = HttpChatModel(HttpSettings(base_url=srv.url, model="m", max_retries=0))
    texts = [m.complete("p", PARAMS, rng()).text for _ in range(5)]
    srv.server.shutdown()
    assert texts == ["kept"] * 5  # no error although the server hung up twice
    assert srv.connections == 3

"""Hostile servers, round two: a reply trickled a byte at a time cannot outlive the call's
total deadline (class 3), and a key with `/ + = %`, non-ASCII or control characters is sent
whole or refused, and never comes back out of an error (class 1)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

from sim.errors import UserError
from sim.summarizers.backend import GenParams
from sim.summarizers.http import BackendError, HttpChatModel, HttpSettings
from tests.sim.summarizers.stub_server import Reply, Stub, ok

PARAMS = GenParams(max_tokens=40, temperature=0.0, seed=1)
KEY = "sk-T/e+s=t%2F-é-ключ-SENTINEL-77aa"


@contextmanager
def trickler(total_s: float, close_delimited: bool) -> Iterator[str]:
    """A server that sends a valid reply one byte every 0.25 s (about `total_s` in all):
    every single read is quick, so only a total deadline stops it."""
    body = json.dumps(ok("fine").body).encode()
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    head += b"Connection: close\r\n\r\n" if close_delimited else (
        f"Content-Length: {len(body)}\r\n\r\n".encode()
    )  # fmt: skip
    data = head + body
    step = max(1, len(data) // max(1, int(total_s / 0.25)))
    srv = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                srv.settimeout(0.2)
                conn, _ = srv.accept()
            except OSError:
                continue
            with conn:
                conn.recv(65536)
                try:
                    for i in range(0, len(data), step):
                        if stop.is_set():
                            break
                        conn.sendall(data[i : i + step])
                        time.sleep(0.25)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/v1"
    finally:
        stop.set()
        thread.join(5)
        srv.close()


@pytest.mark.parametrize("close_delimited", [False, True], ids=["content-length", "close"])
def test_a_trickling_server_is_cut_at_the_total_deadline(close_delimited: bool) -> None:
    """Without a total deadline the call succeeds after ~30 s (each byte is within the read
    timeout); with it, the call fails with a timeout instead of returning a cut body."""
    with trickler(30.0, close_delimited) as url:
        settings = HttpSettings(url, "m", connect_timeout_s=0.5, read_timeout_s=1.0, max_retries=0)
        with pytest.raises(BackendError, match=r"TimeoutError: no complete reply within 1\.5 s"):
            HttpChatModel(settings, sleep=lambda _: None).complete(
                "hi", PARAMS, np.random.default_rng(0)
            )


def test_a_non_ascii_key_is_sent_whole_and_never_echoed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTILE_KEY", KEY)
    with Stub() as stub:
        echoed = json.dumps({"error": "bad key " + KEY}).replace("/", "\\/")
        stub.plan.append(Reply(401, echoed.encode()))
        settings = HttpSettings(stub.base_url, "m", api_key_env="HOSTILE_KEY", max_retries=0)
        with pytest.raises(BackendError) as info:
            HttpChatModel(settings).complete("hi", PARAMS, np.random.default_rng(0))
    sent = stub.seen[0].headers["authorization"].encode("latin-1")
    assert sent == f"Bearer {KEY}".encode()
    message = str(info.value)
    assert "[redacted]" in message and "SENTINEL" not in message and "\\u" not in message


@pytest.mark.parametrize(
    "bad", ["sk-a\r\nX-Injected: 1", "sk-esc\x1b[2J", "sk-tab\there", "sk-\x7f"]
)
def test_a_key_with_control_characters_is_refused_unshown(
    bad: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOSTILE_KEY", bad)
    with pytest.raises(UserError, match="control character") as info:
        HttpChatModel(HttpSettings("http://127.0.0.1:9/v1", "m", api_key_env="HOSTILE_KEY"))
    assert bad not in str(info.value) and "sk-" not in str(info.value)


def test_an_echo_cut_by_the_error_snippet_leaves_no_part_of_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The error shows the first 200 characters of a body: a key that straddles that edge
    must not leave its first half behind."""
    monkeypatch.setenv("HOSTILE_KEY", KEY)
    for pad in range(170, 200, 3):
        with Stub() as stub:
            stub.plan.append(Reply(400, ("x" * pad + json.dumps(KEY)).encode()))
            settings = HttpSettings(stub.base_url, "m", api_key_env="HOSTILE_KEY", max_retries=0)
            with pytest.raises(BackendError) as info:
                HttpChatModel(settings).complete("hi", PARAMS, np.random.default_rng(0))
        assert "sk-T" not in str(info.value), pad

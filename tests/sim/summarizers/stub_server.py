"""A scripted OpenAI-compatible stub on 127.0.0.1 for protocol tests: each request pops the
next planned reply (status, body, headers, delay); every request is recorded."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: bytes | dict[str, Any] = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def ok(
    text: str, finish: str = "stop", prompt_tokens: int = 7, completion_tokens: int = 3
) -> Reply:
    return Reply(
        200,
        {
            "id": "x",
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish,
                }
            ],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        },
    )


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class Stub:
    """`plan` replies in order; when it runs out, `default` (a callable of the request) answers."""

    def __init__(self, default: Any = None) -> None:
        self.plan: deque[Reply] = deque()
        self.seen: list[Seen] = []
        self.default = default
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with stub._lock:
                    stub.seen.append(seen)
                    reply = stub.plan.popleft() if stub.plan else stub.default(seen)
                    stub.in_flight += 1
                    stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
                try:
                    if reply.delay_s:
                        time.sleep(reply.delay_s)
                finally:
                    with stub._lock:
                        stub.in_flight -= 1
                data = (
                    reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                )
                try:
                    self.send_response(reply.status)
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_GET(self) -> None:  # /models (the fail-fast probe) takes the same plan
                self.do_POST()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> Stub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

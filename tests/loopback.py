"""A loopback HTTP server for fetch tests: in-memory payloads, ranges, and failures on request."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class ServerState:
    """What the test server serves, how it misbehaves per path, and what it was asked."""

    payloads: dict[str, bytes] = field(default_factory=dict)
    cut_first: dict[str, int] = field(default_factory=dict)
    fail_first: set[str] = field(default_factory=set)
    always_fail: set[str] = field(default_factory=set)
    ignore_range: set[str] = field(default_factory=set)
    seen: list[tuple[str, str | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ranges(self, path: str) -> list[str | None]:
        """Return the Range header of every request made for path, in order."""
        return [rng for seen_path, rng in self.seen if seen_path == path]


class Handler(BaseHTTPRequestHandler):
    """Serve in-memory payloads with Range support and per-path failure modes."""

    def log_message(self, format: str, *args: object) -> None:
        """Keep the test output free of access logs."""

    def do_GET(self) -> None:
        """Answer one GET according to the path's configured behaviour."""
        state: ServerState = self.server.state  # type: ignore[attr-defined]
        rng = self.headers.get("Range")
        with state.lock:
            state.seen.append((self.path, rng))
            count = len(state.ranges(self.path))
        body = state.payloads.get(self.path)
        if body is None:
            self.send_error(404)
            return
        if self.path in state.always_fail or (self.path in state.fail_first and count == 1):
            self.send_error(500)
            return
        start, status = 0, 200
        if rng and self.path not in state.ignore_range:
            start, status = int(re.fullmatch(r"bytes=(\d+)-", rng)[1]), 206
            if start >= len(body):
                self._send_416(len(body))
                return
        self.send_response(status)
        self.send_header("Content-Length", str(len(body) - start))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        self.end_headers()
        if self.path in state.cut_first and count == 1:
            # Promise the whole body, send part of it, then drop the connection.
            self.wfile.write(body[start : start + state.cut_first[self.path]])
            self.close_connection = True
            return
        self.wfile.write(body[start:])

    def _send_416(self, total: int) -> None:
        """Answer a range that starts at or past the end of the payload."""
        self.send_response(416)
        self.send_header("Content-Range", f"bytes */{total}")
        self.send_header("Content-Length", "0")
        self.end_headers()


@dataclass
class Server:
    """A running test server: its base URL and its state."""

    base: str
    state: ServerState

    def url(self, path: str) -> str:
        """Return the full URL of path on this server."""
        return self.base + path


@contextmanager
def serve(state: ServerState) -> Iterator[Server]:
    """Run the loopback server in a thread for the block; shut it down after."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.state = state  # type: ignore[attr-defined]
    # A short poll interval so shutdown() in teardown returns at once, not after 0.5 s.
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield Server(base=f"http://127.0.0.1:{httpd.server_address[1]}", state=state)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)

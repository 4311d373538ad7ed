"""A real HTTP server on loopback that answers with scripted or recorded replies.

Providers are tested through their official SDKs over real HTTP: the SDK
builds and sends the request, this server records it and answers with the
next reply (JSON, an NDJSON stream, an SSE stream, or an error status). The
tests then assert on what the SDK actually sent.

It also misbehaves on demand, the way real servers and proxies do: a body
that is not what its content type says (``body`` with ``content_type``), a
stream line that is not JSON (an SSE event given as ``{"raw": "..."}``), a
stream cut off mid-way (``cut``), and keep-alive comments that trickle in
before the answer (``keepalive_every`` / ``keepalive_for``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata

RECORDINGS = Path(__file__).parent / "recordings"


@dataclass
class Reply:
    """One HTTP answer; exactly one of ``json``, ``ndjson``, ``sse``, ``text``, ``body`` is used.

    Attributes:
        body: Raw text sent as is, under ``content_type`` (an HTML page with
            status 200, a JSON content type over a body that is not JSON).
        cut: Drop the connection before the response is complete, as a
            crashed server or proxy does: a stream after its pieces (without
            the chunk that ends it), any other body half way through.
        keepalive_every: Seconds between keep-alive lines sent for
            ``keepalive_for`` seconds before the answer: SSE comments
            (``: keep-alive``) before a stream, newlines (which JSON allows)
            before any other body.
    """

    status: int = 200
    json: Any = None
    ndjson: list[Any] | None = None
    sse: list[dict[str, Any]] | None = None
    text: str | None = None
    body: str | None = None
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    cut: bool = False
    keepalive_every: float = 0.0
    keepalive_for: float = 0.0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reply:
        return cls(
            status=data.get("status", 200),
            json=data.get("json"),
            ndjson=data.get("ndjson"),
            sse=data.get("sse"),
            text=data.get("text"),
            headers=data.get("headers", {}),
        )


@dataclass
class Received:
    """One request as it arrived."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


def load_recording(name: str) -> dict[str, Any]:
    """A recorded exchange from ``tests/recordings/NAME.json``."""
    data: dict[str, Any] = json.loads((RECORDINGS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def replies(recording: dict[str, Any]) -> list[Reply]:
    return [Reply.from_dict(item["response"]) for item in recording["exchanges"]]


class ReplayServer:
    """Serves ``replies`` in order, one per request; records every request.

    A request beyond the script gets a 599 so that a test that sends more
    than it expected fails loudly instead of hanging.
    """

    def __init__(self, replies: list[Reply] | None = None) -> None:
        self.replies: list[Reply] = list(replies or [])
        self.received: list[Received] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with server._lock:
                    server.received.append(
                        Received(
                            self.command,
                            self.path,
                            {k.lower(): v for k, v in self.headers.items()},
                            body,
                        )
                    )
                    reply = server.replies.pop(0) if server.replies else None
                if reply is None:
                    reply = Reply(status=599, json={"error": "no reply scripted for this request"})
                self._send(reply)

            do_GET = do_POST = do_DELETE = _handle

            def _send(self, reply: Reply) -> None:
                if reply.ndjson is not None:
                    self._send_stream(
                        reply,
                        "application/x-ndjson",
                        (json.dumps(item) + "\n" for item in reply.ndjson),
                    )
                    return
                if reply.sse is not None:
                    self._send_stream(reply, "text/event-stream", _sse_lines(reply.sse))
                    return
                if reply.body is not None:
                    payload, kind = reply.body.encode(), reply.content_type
                elif reply.text is not None:
                    payload, kind = reply.text.encode(), "text/plain"
                else:
                    payload, kind = json.dumps(reply.json).encode(), "application/json"
                if reply.keepalive_every > 0:  # whitespace trickles in before the body
                    self._send_stream(reply, kind, iter([payload.decode()]))
                    return
                self.send_response(reply.status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if reply.cut:  # half the promised body, then the connection drops
                    self.wfile.write(payload[: len(payload) // 2])
                    self._drop()
                    return
                self.wfile.write(payload)

            def _send_stream(self, reply: Reply, kind: str, pieces: Iterator[str]) -> None:
                self.send_response(reply.status)
                self.send_header("Content-Type", kind)
                self.send_header("Transfer-Encoding", "chunked")
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                try:
                    self._keep_alive(reply)
                    for piece in pieces:
                        self._write_chunk(piece)
                    if reply.cut:
                        self._drop()
                        return
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:  # the client gave up (its deadline passed): nothing to send
                    self.close_connection = True

            def _write_chunk(self, piece: str) -> None:
                data = piece.encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _keep_alive(self, reply: Reply) -> None:
                if reply.keepalive_every <= 0:
                    return
                line = ": keep-alive\n\n" if reply.sse is not None else "\n"
                end = time.monotonic() + reply.keepalive_for
                while time.monotonic() < end:
                    self._write_chunk(line)
                    time.sleep(reply.keepalive_every)

            def _drop(self) -> None:
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


def _sse_lines(events: list[dict[str, Any]]) -> Iterator[str]:
    for event in events:
        if "raw" in event:  # sent exactly as written: a broken line, a comment
            yield event["raw"]
            continue
        lines = []
        if "event" in event:
            lines.append(f"event: {event['event']}")
        data = event["data"]
        lines.append(f"data: {data if isinstance(data, str) else json.dumps(data)}")
        yield "\n".join(lines) + "\n\n"


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# -- what provider tests send as tools --------------------------------------------

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "when": {
            "type": "object",
            "properties": {"day": {"type": "string"}},
            "required": ["day"],
            "additionalProperties": False,
        },
    },
    "required": ["city"],
    "additionalProperties": False,
}


@dataclass
class DefinitionOnly:
    """A ToolCallback for provider tests: providers read the definition, never run it."""

    tool_definition: ToolDefinition
    tool_metadata: ToolMetadata = field(default_factory=ToolMetadata)

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        raise AssertionError("a provider must never run a tool")

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        raise AssertionError("a provider must never run a tool")


WEATHER = DefinitionOnly(ToolDefinition("weather", "Weather for a city.", WEATHER_SCHEMA))

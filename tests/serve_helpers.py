"""Running ``support-bot serve`` for tests: in a thread, or as a real process, on loopback.

The app runs on a real uvicorn server bound to 127.0.0.1 and the tests talk
HTTP to it with httpx, so the guards, the SSE framing and the client
disconnects are the real ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from springtail import ChatModel
from support_bot._store_base import BusinessStore
from support_bot.serve import ServeConfig, create_app
from support_bot.serve._command import uvicorn_config

__all__ = [
    "Served",
    "free_port",
    "post_decisions",
    "post_turn",
    "serve_in_thread",
    "serve_process",
    "wait_ready",
]


DURABLE_ENV = "SERVE_TESTS_DURABLE"
"""Set (to anything) to run the in-thread serve tests on durable turns."""


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    """A running service: its base URL and the store behind it (or its process)."""

    url: str
    store: BusinessStore | None = None
    log: list[str] = field(default_factory=list)
    process: subprocess.Popen[str] | None = None

    def client(self, **kwargs: Any) -> httpx.Client:
        """A client with its own cookie jar, i.e. its own browser session.

        It sends ``Content-Type: application/json`` on every request, as the
        page does (the service refuses a POST without it).
        """
        headers = {"content-type": "application/json", **kwargs.pop("headers", {})}
        return httpx.Client(base_url=self.url, timeout=30.0, headers=headers, **kwargs)


@contextlib.contextmanager
def serve_in_thread(
    store: BusinessStore,
    model: ChatModel | None,
    *,
    load_model: Callable[[], ChatModel] | None = None,
    **config: Any,
) -> Iterator[Served]:
    """The app on a uvicorn server in a background thread, ready (or only up) when yielded.

    ``load_model`` replaces ``model``; the server is then awaited on ``/healthz``
    only, so a test can watch a model that fails to load.
    """
    port = free_port()
    if os.environ.get(DURABLE_ENV) and "durable" not in config and "://" not in store.location:
        # The whole in-thread suite on durable turns, as support-bot serve --durable
        # runs them: the system database beside the store, one executor name (the
        # server that replaces a stopped one takes its turns over).
        from springtail.durable import sqlite_system_database
        from support_bot.serve._durable import DBOS_FILENAME, DurableSettings

        folder = Path(store.location).parent
        config["durable"] = DurableSettings(sqlite_system_database(folder / DBOS_FILENAME), "test")
    settings = ServeConfig(port=port, **config)

    def given() -> ChatModel:
        assert model is not None
        return model

    app = create_app(
        config=settings, store=store, load_model=load_model or given, model_label="test"
    )
    server = uvicorn.Server(uvicorn_config(app, settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    served = Served(f"http://127.0.0.1:{port}", store)
    try:
        wait_ready(served.url, path="/healthz" if load_model else "/readyz")
        yield served
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        if settings.durable is not None:
            from support_bot.serve._durable_turns import stop_dbos

            stop_dbos()


def wait_ready(
    url: str,
    timeout: float = 90.0,
    process: subprocess.Popen[str] | None = None,
    path: str = "/readyz",
) -> None:
    """Wait until ``path`` (``/readyz``: the model is loaded) answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"serve exited with {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}{path}", timeout=2).status_code == 200:
                return
        time.sleep(0.05)
    raise TimeoutError(f"{url} did not become ready")


@contextlib.contextmanager
def serve_process(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Iterator[Served]:
    """``support-bot serve --port P ARGS`` as a real process, stopped afterwards."""
    port = free_port()
    command = [sys.executable, "-m", "support_bot", "serve", "--port", str(port), *args]
    process = subprocess.Popen(
        command,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    served = Served(f"http://127.0.0.1:{port}", process=process)
    try:
        try:
            wait_ready(served.url, process=process)
        except (RuntimeError, TimeoutError) as exc:
            process.kill()
            out, _ = process.communicate()
            raise RuntimeError(f"{exc}; its output:\n{out}") from None
        yield served
    finally:
        process.terminate()
        try:
            out, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            out, _ = process.communicate()
        served.log.extend(out.splitlines())


def parse_sse(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(event, data)`` pairs from the lines of a server-sent event stream."""
    name, data = "message", list[str]()
    for line in lines:
        if not line:
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", []
        elif line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))


def post_turn(
    client: httpx.Client,
    conversation_id: str,
    text: str,
    *,
    on_event: Callable[[str, dict[str, Any]], None] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """Send a message and read its whole event stream."""
    path = f"/api/conversations/{conversation_id}/messages"
    return post_events(client, path, {"text": text}, on_event=on_event)


def post_decisions(
    client: httpx.Client, conversation_id: str, decisions: dict[str, bool]
) -> list[tuple[str, dict[str, Any]]]:
    """Send the decisions for a paused turn and read the resumed turn's event stream."""
    path = f"/api/conversations/{conversation_id}/approvals"
    return post_events(client, path, {"decisions": decisions})


def post_events(
    client: httpx.Client,
    path: str,
    body: dict[str, Any],
    *,
    on_event: Callable[[str, dict[str, Any]], None] | None = None,
) -> list[tuple[str, dict[str, Any]]]:
    """POST ``body`` and read the whole event stream it answers with."""
    events: list[tuple[str, dict[str, Any]]] = []
    with client.stream("POST", path, json=body) as response:
        if response.status_code != 200:
            response.read()
            raise AssertionError(f"{response.status_code}: {response.text}")
        for name, data in parse_sse(response.iter_lines()):
            events.append((name, data))
            if on_event is not None:
                on_event(name, data)
            if name in ("done", "error"):
                break
    return events

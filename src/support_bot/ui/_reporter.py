"""Drawing one turn: a spinner while the model thinks, a line per tool call, the answer.

On a terminal the answer is streamed as rendered markdown (rich ``Live``)
and the spinner names the tool that is running. Without a terminal (pipes,
CI) the same events become plain lines, so logs stay readable and no
escape codes leak into files.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import IO

from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.status import Status
from rich.text import Text

__all__ = ["ConsoleReporter", "short"]

LineReader = Callable[[str], str | None]
"""Shows a prompt and returns the line typed, or ``None`` at end of input."""


def short(text: str, limit: int = 80) -> str:
    """One line, at most ``limit`` characters: enough to recognise a result."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _arguments(raw: str) -> str:
    try:
        value = json.loads(raw) if raw.strip() else {}
    except ValueError:
        return short(raw, 60)
    if isinstance(value, dict):
        pairs = (f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in value.items())
        return short(", ".join(pairs), 60)
    return short(raw, 60)


class ConsoleReporter:
    """A ``Reporter`` for the terminal and for pipes.

    Args:
        out: Where the answer goes.
        tools_out: Where tool lines go (``None`` hides them).
        interactive: Draw spinners and live markdown (a real terminal).
        approve_all: ``--yes``: approve every tool that asks, and say so.
        read_line: How to ask the user for an approval.
    """

    def __init__(
        self,
        out: Console,
        tools_out: Console | None,
        *,
        interactive: bool,
        approve_all: bool,
        read_line: LineReader,
    ) -> None:
        self._out = out
        self._tools_out = tools_out
        self._interactive = interactive
        self._approve_all = approve_all
        self._read_line = read_line
        self._lock = threading.RLock()
        self._status: Status | None = None
        self._live: Live | None = None
        self._parts: list[str] = []
        self._streamed_plain = False
        self._arguments: dict[str, str] = {}

    # -- turn boundaries ---------------------------------------------------------

    def begin_turn(self) -> None:
        """Start a new answer."""
        with self._lock:
            self._parts = []
            self._streamed_plain = False

    def end_turn(self) -> None:
        """Leave the finished answer on screen."""
        with self._lock:
            self._stop_status()
            if self._live is not None:
                self._live.update(Markdown("".join(self._parts)), refresh=True)
                self._live.stop()
                self._live = None
            elif self._streamed_plain and not "".join(self._parts).endswith("\n"):
                self._write_plain("\n")
            if self._interactive:
                self._out.print()

    # -- Reporter ------------------------------------------------------------------

    def thinking(self) -> None:
        """Spin while the model works (terminal only)."""
        self._spin("Thinking…")

    def tool_started(self, call_id: str, name: str, arguments: str) -> None:
        """Name the running tool in the spinner."""
        shown = _arguments(arguments)
        with self._lock:
            self._arguments[call_id] = shown
            self._freeze_live()
            if self._streamed_plain and self._parts and not self._parts[-1].endswith("\n"):
                self._write_plain("\n")
                self._parts.append("\n")
        self._spin(f"Running {name}({shown})…")

    def tool_finished(
        self,
        call_id: str,
        name: str,
        result: str,
        is_error: bool,
        duration_s: float,
        approval_wait_s: float = 0.0,
    ) -> None:
        """One line per call: name, arguments, run time (and approval wait), a short result."""
        shown = self._arguments.pop(call_id, "")
        if self._tools_out is None:
            self.thinking()
            return
        mark, style = ("✗", "red") if is_error else ("✓", "green")
        line = Text()
        line.append(f"  {mark} ", style=style)
        line.append(name, style="bold")
        line.append(f"({shown})")
        if approval_wait_s > 0:
            line.append(f" approved in {approval_wait_s:.2f}s, ran", style="dim")
        line.append(f" {duration_s:.2f}s → ", style="dim")
        line.append(short(result))
        with self._lock:
            self._tools_out.print(line, soft_wrap=True, highlight=False)
        self.thinking()  # the model reads the result next

    def text(self, delta: str) -> None:
        """Append to the answer: live markdown on a terminal, plain text otherwise."""
        if not delta:
            return
        with self._lock:
            self._stop_status()
            self._parts.append(delta)
            if not self._interactive:
                self._streamed_plain = True
                self._write_plain(delta)
                return
            if self._live is None:
                self._live = Live(
                    Markdown(""),
                    console=self._out,
                    refresh_per_second=12,
                    vertical_overflow="visible",
                )
                self._live.start()
            self._live.update(Markdown("".join(self._parts)))

    def approve(self, name: str, arguments: str) -> bool:
        """Ask before a tool that requires approval; ``--yes`` answers for the user."""
        described = f"{name}({_arguments(arguments)})"
        target = self._tools_out or self._out
        if self._approve_all:
            with self._lock:
                target.print(f"  ✓ approved {described} (--yes)", highlight=False)
            return True
        with self._lock:
            self._stop_status()
            self._freeze_live()
            answer = self._read_line(f"Allow {described}? [y/N] ")
        allowed = (answer or "").strip().lower() in {"y", "yes"}
        if answer is None:
            target.print(f"  ✗ {name} not approved (no answer; use --yes to approve)")
        elif not allowed:
            target.print(f"  ✗ {name} not approved")
        self.thinking()
        return allowed

    # -- helpers ---------------------------------------------------------------------

    def _spin(self, message: str) -> None:
        if not self._interactive:
            return
        with self._lock:
            if self._live is not None:
                return  # the answer is already streaming; keep it on screen
            if self._status is None:
                self._status = Status(message, console=self._out, spinner="dots")
                self._status.start()
            else:
                self._status.update(message)

    def _freeze_live(self) -> None:
        # Text streamed before a tool call stays on screen; what follows starts below it.
        if self._live is not None:
            self._live.update(Markdown("".join(self._parts)), refresh=True)
            self._live.stop()
            self._live = None
            self._parts = []

    def _stop_status(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None

    def _write_plain(self, text: str) -> None:
        file: IO[str] = self._out.file
        file.write(text)
        file.flush()

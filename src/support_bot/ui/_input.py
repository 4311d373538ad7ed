"""Reading what the user types: prompt_toolkit on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

__all__ = ["PlainLineReader", "PromptLineReader", "TerminalLineReader"]


class PromptLineReader:
    """The chat prompt on a terminal: line editing and a persistent input history."""

    def __init__(self, history_path: Path) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory

        self._session: PromptSession[str] = PromptSession(history=FileHistory(str(history_path)))

    def __call__(self, prompt: str) -> str | None:
        """The line typed; ``None`` on Ctrl-D; ``""`` on Ctrl-C (abandon the line)."""
        try:
            return self._session.prompt(prompt)
        except EOFError:
            return None
        except KeyboardInterrupt:
            return ""


class TerminalLineReader:
    """A one-off question on the terminal (approvals), safe from any thread."""

    def __call__(self, prompt: str) -> str | None:
        """The answer typed; ``None`` on Ctrl-D."""
        try:
            return input(prompt)
        except EOFError:
            return None


class PlainLineReader:
    """Lines from a pipe or file (``support-bot < requests.txt``); no prompts drawn.

    The prompt is echoed to ``echo`` (stderr) only for approvals, so a log of
    the run shows what was asked.
    """

    def __init__(self, stream: IO[str] | None = None, echo: IO[str] | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdin
        self._echo = echo

    def __call__(self, prompt: str) -> str | None:
        """The next line without its newline; ``None`` at end of input."""
        if self._echo is not None:
            self._echo.write(prompt)
            self._echo.flush()
        line = self._stream.readline()
        if not line:
            return None
        if self._echo is not None:
            self._echo.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\r\n")

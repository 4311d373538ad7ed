"""The one exception an MCP connection raises when its server cannot be used."""

from __future__ import annotations

__all__ = ["McpServerError"]


class McpServerError(Exception):
    """An MCP server would not start, could not be reached, or stopped.

    The message is one sentence that names the server and says what went
    wrong (with the last line the server wrote on stderr, when there is one),
    so a command-line program can print it as is. During a turn the tool
    loop never sees this exception: a tool call on a dead server becomes an
    error result the model reads.

    Attributes:
        server: The server's name.
    """

    def __init__(self, server: str, message: str) -> None:
        super().__init__(message)
        self.server = server

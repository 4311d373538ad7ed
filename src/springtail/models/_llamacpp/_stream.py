"""Streaming a reply's text: what may be shown yet, and where stop sequences cut it.

A reply may turn out to be a tool call (its JSON must never reach the user)
or run into a stop sequence that arrives split across tokens, so text is
passed on only once neither can still happen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from springtail.models._llamacpp._parse import ReplyKind, classify

__all__ = ["Sink", "StopScanner", "StreamGate"]

Sink = Callable[[str], None]


class StopScanner:
    """Cuts the text at the first stop sequence, holding back what may begin one."""

    def __init__(self, stops: Sequence[str]) -> None:
        self._stops = [s for s in stops if s]
        self._held = ""
        self.stopped = False

    def feed(self, piece: str) -> tuple[str, bool]:
        """Text safe to pass on, and whether a stop sequence was reached."""
        if not self._stops:
            return piece, False
        text = self._held + piece
        cut = min((i for i in (text.find(s) for s in self._stops) if i >= 0), default=-1)
        if cut >= 0:
            self._held = ""
            self.stopped = True
            return text[:cut], True
        keep = 0
        for stop in self._stops:
            for n in range(min(len(stop) - 1, len(text)), 0, -1):
                if text.endswith(stop[:n]):
                    keep = max(keep, n)
                    break
        self._held = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep], False

    def rest(self) -> str:
        """What was held back when generation ended without a stop sequence."""
        held, self._held = self._held, ""
        return held


class StreamGate:
    """Passes text deltas on once the reply is known to be prose; holds calls back.

    With ``code`` (the plan's prompt) a reply that opens like code is a call
    too (``classify``).
    """

    def __init__(self, sink: Sink | None, *, code: bool = False) -> None:
        self._sink = sink
        self._code = code
        self._parts: list[str] = []
        self._sent = 0
        self._kind = ReplyKind.UNDECIDED

    @property
    def kind(self) -> ReplyKind:
        """What the reply is, as far as its beginning tells."""
        return self._kind

    def feed(self, delta: str) -> None:
        if not delta:
            return
        self._parts.append(delta)
        if self._kind is ReplyKind.UNDECIDED:
            self._kind = classify(self.text(), code=self._code)
        if self._kind is ReplyKind.TEXT:
            self.flush()

    def text(self) -> str:
        return "".join(self._parts)

    def flush(self) -> None:
        """Send whatever has not been sent (prose that never left the undecided state)."""
        if self._sink is None:
            return
        pending = "".join(self._parts[self._sent :])
        self._sent = len(self._parts)
        if pending:
            self._sink(pending)

"""Streaming a reply's text: what may be shown yet, and where stop sequences cut it.

A reply may turn out to be a tool call (its JSON must never reach the user)
or run into a stop sequence that arrives split across tokens, so text is
passed on only once neither can still happen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from springtail.models._llamacpp._parse import ReplyKind, classify

__all__ = ["Sink", "StopScanner", "StreamGate", "named_tool"]

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
        self._names: Collection[str] = ()
        self.named: str | None = None
        """The tool the held first sentence named: the reply is that call, not prose."""

    @property
    def kind(self) -> ReplyKind:
        """What the reply is, as far as its beginning tells."""
        return self._kind

    def hold_first_sentence(self, names: Collection[str]) -> None:
        """Hold prose until its first sentence ends; if that names one of ``names``, a call.

        A model torn between calling and answering may describe the call it
        means ("To find her appointments, I need to call the
        ``list_appointments`` function with …"): that sentence is never shown.
        """
        self._names = names

    def ended_as_call(self) -> bool:
        """At the reply's end, whether a first sentence still held names a tool: a call.

        A reply of one sentence ("… you can use the ``search_notes``
        function.") ends before anything follows its full stop.
        """
        if self._kind is not ReplyKind.TEXT or not self._names:
            return False
        self.named = named_tool(self.text(), self._names)
        self._names = ()
        if self.named is None:
            return False
        self._kind = ReplyKind.CALLS
        return True

    def feed(self, delta: str) -> None:
        if not delta:
            return
        self._parts.append(delta)
        if self._kind is ReplyKind.UNDECIDED:
            self._kind = classify(self.text(), code=self._code)
        if self._kind is ReplyKind.TEXT and self._names:
            sentence = _first_sentence(self.text())
            if sentence is None:
                return
            self.named = named_tool(sentence, self._names)
            self._names = ()
            if self.named is not None:
                self._kind = ReplyKind.CALLS
                return
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


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


def _first_sentence(text: str) -> str | None:
    """The text's first sentence, once it has ended (``None`` while it goes on)."""
    start = len(text) - len(text.lstrip())
    end = _SENTENCE_END.search(text, start)
    return None if end is None else text[: end.end()]


def named_tool(text: str, names: Collection[str]) -> str | None:
    """The first of ``names`` that ``text`` writes as a tool, not as a word, if any.

    A name with an underscore (``list_appointments``) is one wherever it
    stands; a one-word name (``today``) only in backticks or called
    (``today()``), since prose uses the word.
    """
    for name in names:
        escaped = re.escape(name)
        if "_" in name and re.search(rf"(?<![\w]){escaped}(?![\w])", text):
            return name
        if re.search(rf"`{escaped}(\(\))?`|(?<![\w]){escaped}\(", text):
            return name
    return None

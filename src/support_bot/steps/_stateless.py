"""What the steps without chat memory (1, 2, 3 and 5) share: their bookkeeping.

Each sends every request alone through one ChatClient, exactly as the book's
programs do; they differ only in their tools, their client, how a request is
dressed (``StatelessStep._request``) and whether the answer streams. The
conversation id, the transcript behind ``/history`` and ``/new`` live here
once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from springtail import AssistantMessage, ChatClient, Message, ToolCallback, UserMessage
from springtail.client import ChatClientRequestSpec
from support_bot.steps._answers import answer_at_once, answer_streamed
from support_bot.steps._base import StepEnv

__all__ = ["StatelessStep", "Transcript"]


@dataclass
class Transcript:
    """The exchanges of a step without chat memory, kept only for ``/history``.

    These steps send the model one request at a time (no memory); the
    transcript is the UI's record, not context.
    """

    messages: list[Message] = field(default_factory=list)

    def add(self, question: str, answer: str) -> None:
        """Record one exchange."""
        self.messages += [UserMessage(question), AssistantMessage(answer)]

    def clear(self) -> None:
        """Forget the exchanges (``/new``)."""
        self.messages.clear()


class StatelessStep:
    """A step that answers each request alone: no memory, a transcript for ``/history``.

    Subclasses set ``name`` (and ``streams``), pass their tools and
    client to ``__init__``, give an ``intro`` and, where a request
    carries more than its text, override ``_request``.
    """

    name: str
    streams: ClassVar[bool] = False
    """Stream the answer as it is written (tool lines from the events), or show it at once."""

    def __init__(self, env: StepEnv, tools: Sequence[ToolCallback], client: ChatClient) -> None:
        self._env = env
        self._tools = list(tools)
        self._client = client
        self._transcript = Transcript()
        self._conversation_id = env.conversation_id

    @property
    def tools(self) -> Sequence[ToolCallback]:
        """The tools this step offers the model."""
        return self._tools

    @property
    def conversation_id(self) -> str:
        """Shown, and handed to tools through the tool context; these steps have no memory."""
        return self._conversation_id

    def ask(self, text: str) -> str:
        """One request, on its own; recorded in the transcript."""
        show = answer_streamed if self.streams else answer_at_once
        answer = show(self._request(text), self._env.reporter)
        self._transcript.add(text, answer)
        return answer

    def history(self) -> list[Message]:
        """This session's exchanges."""
        return list(self._transcript.messages)

    def new_conversation(self, conversation_id: str) -> None:
        """Start over under a new id."""
        self._conversation_id = conversation_id
        self._transcript.clear()

    def _request(self, text: str) -> ChatClientRequestSpec:
        """The request for ``text``; by default the text alone."""
        return self._client.prompt(text)

    def _tool_context(self) -> dict[str, Any]:
        """What tools may read from the request: who asks, in which conversation."""
        return {"user_name": self._env.user_name, "conversation_id": self._conversation_id}

"""An answer carries its turn's calls and results, so a later turn sees what the tools did.

With chat memory outside the tool loop (``MessageChatMemoryAdvisor`` at its
default order, the way most applications add memory), a conversation keeps
each request and its final answer, not the calls and results in between.
Shown only those, the 1.5B model sees an assistant that answers from nothing,
and imitates it: a later request that needs a tool ("And in GBP?", "what's
on my to-do list?") was answered in prose, with an invented figure, in 1-2 s.
The values an earlier result gave (the order it placed, the price it quoted)
were gone too.

So the reply that answers after results carries its turn's messages in
``AssistantMessage.metadata["turn"]`` (JSON, as all metadata), and a prompt
whose earlier answer follows its request directly shows that turn whole
again (``expand``), rendered exactly as it was while the turn ran: the
later prompt starts with the tokens already in the KV cache, the model sees
that it called tools before, and the earlier results are variables a new
plan may use (``_plan.PlanState.earlier``). When memory keeps the calls
itself (memory inside the loop), the answer follows a tool result and
nothing is expanded, so nothing is shown twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)

__all__ = ["MAX_TRANSCRIPT_CHARS", "TURN_KEY", "expand", "transcript", "with_transcript"]

TURN_KEY = "turn"
"""``AssistantMessage.metadata`` key of an answer: its turn's calls and results."""

MAX_TRANSCRIPT_CHARS = 16_000
"""A turn whose results are longer than this is not carried (it would crowd the context)."""

_KEPT_METADATA = ("plan", "lines")
"""What a call message's metadata keeps in a transcript: the plan and its line names."""


def transcript(messages: Sequence[Message]) -> list[dict[str, Any]] | None:
    """The messages of the last turn (after its request) as JSON, or ``None`` with no results."""
    start = _turn_start(messages)
    turn = messages[start:]
    if not any(isinstance(m, ToolResponseMessage) for m in turn):
        return None
    encoded: list[dict[str, Any]] = []
    size = 0
    for message in turn:
        if isinstance(message, AssistantMessage):
            metadata = {k: message.metadata[k] for k in _KEPT_METADATA if k in message.metadata}
            encoded.append(
                {
                    "text": message.text,
                    "calls": [[c.id, c.name, c.arguments] for c in message.tool_calls],
                    "metadata": metadata,
                }
            )
        elif isinstance(message, ToolResponseMessage):
            responses = [[r.id, r.name, r.response_data, r.is_error] for r in message.responses]
            size += sum(len(r.response_data) for r in message.responses)
            encoded.append({"responses": responses})
    return encoded if size <= MAX_TRANSCRIPT_CHARS else None


def with_transcript(metadata: Mapping[str, Any], messages: Sequence[Message]) -> dict[str, Any]:
    """An answer's metadata, with its turn's transcript when the turn had results."""
    carried = transcript(messages)
    return {**metadata, TURN_KEY: carried} if carried is not None else dict(metadata)


def expand(messages: Sequence[Message]) -> list[Message]:
    """The conversation with each carried turn shown whole again before its answer.

    Only an answer that follows its request directly (memory kept the
    request and the answer alone) is expanded; a transcript that does not
    read back is ignored, and the answer stays as it is.
    """
    out: list[Message] = []
    for message in messages:
        if (
            isinstance(message, AssistantMessage)
            and not message.tool_calls
            and out
            and isinstance(out[-1], UserMessage)
        ):
            out.extend(_decoded(message.metadata.get(TURN_KEY)))
        out.append(message)
    return out


def _decoded(data: object) -> list[Message]:
    if not isinstance(data, list):
        return []
    messages: list[Message] = []
    try:
        for entry in data:
            if "responses" in entry:
                messages.append(
                    ToolResponseMessage(
                        tuple(
                            ToolResponse(str(i), str(n), str(d), bool(e))
                            for i, n, d, e in entry["responses"]
                        )
                    )
                )
            else:
                calls = tuple(ToolCall(str(i), str(n), str(a)) for i, n, a in entry["calls"])
                metadata = entry.get("metadata")
                messages.append(
                    AssistantMessage(
                        str(entry.get("text", "")),
                        calls,
                        dict(metadata) if isinstance(metadata, dict) else {},
                    )
                )
    except (TypeError, ValueError, KeyError):
        return []  # a transcript written by something else: the answer stands alone
    return messages


def _turn_start(messages: Sequence[Message]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if isinstance(messages[index], UserMessage):
            return index + 1
    return 0

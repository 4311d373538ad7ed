"""springtail's DBOS workflow: one turn of a registered durable client.

The workflow is registered with DBOS when this module is imported, as DBOS
asks of every workflow (before ``DBOS.launch()``). Its inputs are only what
can be stored: the client's registered name and the turn's request. The
client itself (model, tools, memory) lives in the process, found by name, so
a process that recovers a turn must have built the same durable client
before it launched DBOS.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from dbos import DBOS

from springtail.client import ChatClient, ToolCallStarted
from springtail.client._aggregate import StreamAggregator
from springtail.durable._stream import EVENTS_STREAM, streaming
from springtail.memory import ChatMemory
from springtail.messages import ChatResponse

__all__ = [
    "TURN_WORKFLOW",
    "DurableClient",
    "TurnRequest",
    "register",
    "registered",
    "turn_workflow",
    "unregister",
]

TURN_WORKFLOW: Final[str] = "springtail.durable.turn"


class DurableClient(Protocol):
    """What the workflow needs of a ``DurableChatClient``: its name and the client it runs."""

    @property
    def name(self) -> str: ...

    @property
    def durable_view(self) -> ChatClient: ...


_clients: dict[str, DurableClient] = {}
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class TurnRequest:
    """What a durable turn is asked, as DBOS stores it with the workflow.

    Attributes:
        text: The user's message.
        conversation_id: The conversation (the chat memory's id).
        tool_context: Values for the tools' ``ToolContext``; they are stored,
            so they must pickle (no connections or handles).
        params: Advisor params for the request, stored likewise.
        stream: Stream the turn: its events go to the workflow's DBOS stream
            ``EVENTS_STREAM`` as they happen.
    """

    text: str
    conversation_id: str
    tool_context: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    stream: bool = False


def register(client: DurableClient) -> None:
    """Make ``client`` the one the turns of its name run with, in this process."""
    with _lock:
        _clients[client.name] = client


def unregister(client: DurableClient) -> None:
    """Forget ``client``, if it is the one registered under its name."""
    with _lock:
        if _clients.get(client.name) is client:
            del _clients[client.name]


def registered(name: str) -> DurableClient:
    """The durable client registered under ``name``.

    Raises:
        LookupError: none is, which means the process recovered a turn before
            building the client that runs it.
    """
    with _lock:
        client = _clients.get(name)
    if client is None:
        raise LookupError(
            f"No DurableChatClient named {name!r} in this process, so its turn cannot run. "
            "Build every DurableChatClient before DBOS.launch(): launching recovers the "
            "unfinished turns, and each needs its client."
        )
    return client


@DBOS.workflow(name=TURN_WORKFLOW)
async def turn_workflow(client_name: str, request: TurnRequest) -> ChatResponse:
    """Run one turn of the durable client ``client_name``; its steps are checkpointed."""
    client = registered(client_name).durable_view
    spec = client.prompt(request.text).advisor_param(
        ChatMemory.CONVERSATION_ID, request.conversation_id
    )
    if request.tool_context:
        spec.tool_context(request.tool_context)
    if request.params:
        spec.advisor_params(request.params)
    if not request.stream:
        reply = await spec.acall()
        return reply.chat_response()
    token = streaming.set({})
    try:
        answer = StreamAggregator()
        async for response in spec.astream().chat_client_responses():
            if response.event is None:
                answer.add(response.chat_response)
            elif isinstance(response.event, ToolCallStarted):
                answer = StreamAggregator()  # the text so far belonged to a reply with tool calls
    finally:
        streaming.reset(token)
    await DBOS.close_stream_async(EVENTS_STREAM)
    return answer.response()

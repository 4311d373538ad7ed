"""DurableChatClient: a ChatClient whose turns are DBOS workflows."""

from __future__ import annotations

import copy
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from typing import Any, cast

from dbos import DBOS, Queue, SetWorkflowID, WorkflowHandle, WorkflowHandleAsync

from springtail.client import (
    ChatClient,
    MessageChatMemoryAdvisor,
    StreamEvent,
    ToolCallingAdvisor,
)
from springtail.durable._steps import DurableToolCallingManager, ModelStepAdvisor, StepMemory
from springtail.durable._stream import EVENTS_STREAM
from springtail.durable._workflow import TurnRequest, register, turn_workflow, unregister
from springtail.execution import ToolCallingManager
from springtail.messages import ChatResponse

__all__ = ["DurableChatClient", "turn_workflow_id"]


def turn_workflow_id(conversation_id: str, turn: str | int) -> str:
    """The workflow id of a turn: the conversation id plus the turn, ``"c1:turn-3"``-style.

    A stable id makes starting a turn idempotent: a request that is retried
    with the same turn joins the workflow that is already running (or hands
    back its result) instead of running the turn twice.
    """
    if not conversation_id:
        raise ValueError("conversation_id must not be empty")
    return f"{conversation_id}:{turn}"


class DurableChatClient:
    """Runs a ``ChatClient``'s turns as DBOS workflows, so a turn survives a crash.

    Args:
        client: The client whose model, tools, advisors and memory the turns
            use. Its ``MessageChatMemoryAdvisor`` reads and writes through
            steps; its ``ToolCallingAdvisor`` (or the one it would add) runs
            tools as steps.
        name: The name the turns find this client by. A process that
            recovers turns must have built a client of the same name, with the
            same model and tools, before ``DBOS.launch()``.
        queue: Run turns on this DBOS queue (from ``DBOS.register_queue``);
            its concurrency and rate limits then hold across every process
            sharing the system database. ``None`` starts each turn at once in
            the calling process.

    Each model call is a step, and so is each tool call; a completed step is
    never run again after a crash, its recorded result is used. A model call
    that was running when the process died is made again. A tool that was
    running is run again only when it is declared ``@tool(idempotent=True)``;
    otherwise the model is told that the call was interrupted and may or may
    not have happened. The application owns ``DBOS(config)`` and
    ``DBOS.launch()``; importing ``springtail.durable`` registers the
    workflow.
    """

    __slots__ = ("_client", "_name", "_queue", "_view")

    def __init__(
        self, client: ChatClient, *, name: str = "default", queue: Queue | None = None
    ) -> None:
        if not isinstance(client, ChatClient):
            raise TypeError(f"DurableChatClient needs a ChatClient, got {type(client).__name__}")
        if not name:
            raise ValueError("name must not be empty")
        self._client = client
        self._name = name
        self._queue = queue
        self._view = _durable_view(client)
        register(self)

    @property
    def name(self) -> str:
        """The name turns find this client by."""
        return self._name

    @property
    def client(self) -> ChatClient:
        """The client as the application built it."""
        return self._client

    @property
    def durable_view(self) -> ChatClient:
        """The client the workflow runs: the same one with its steps checkpointed."""
        return self._view

    @property
    def queue(self) -> Queue | None:
        """The queue turns run on, or ``None`` (at once, in the calling process)."""
        return self._queue

    def close(self) -> None:
        """Stop this process from running turns of this client's name."""
        unregister(self)

    def __repr__(self) -> str:
        return f"DurableChatClient(name={self._name!r}, client={self._client!r})"

    def _request(
        self,
        text: str,
        conversation_id: str,
        tool_context: Mapping[str, Any] | None,
        params: Mapping[str, Any] | None,
        stream: bool = False,
    ) -> TurnRequest:
        return TurnRequest(
            text, conversation_id, dict(tool_context or {}), dict(params or {}), stream
        )

    async def astart(
        self,
        text: str,
        *,
        conversation_id: str,
        turn: str | int | None = None,
        tool_context: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        stream: bool = False,
    ) -> WorkflowHandleAsync[ChatResponse]:
        """Start a turn (or join the one of that id) and return its workflow handle.

        Args:
            text: The user's message.
            conversation_id: The conversation the turn belongs to.
            turn: Names the turn within the conversation; the same turn started
                twice runs once. Default: a new random one.
            tool_context: ``ToolContext`` values (stored with the turn).
            params: Advisor params (stored with the turn).
            stream: Write the turn's events to its DBOS stream (read them with
                [`aevents`][]).
        """
        workflow_id = turn_workflow_id(conversation_id, turn if turn is not None else _new_turn())
        request = self._request(text, conversation_id, tool_context, params, stream)
        with SetWorkflowID(workflow_id):
            if self._queue is not None:
                return await self._queue.enqueue_async(turn_workflow, self._name, request)
            return await DBOS.start_workflow_async(turn_workflow, self._name, request)

    async def acall(
        self,
        text: str,
        *,
        conversation_id: str,
        turn: str | int | None = None,
        tool_context: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> ChatResponse:
        """Run a turn durably and return the final response (see [`astart`][])."""
        handle = await self.astart(
            text,
            conversation_id=conversation_id,
            turn=turn,
            tool_context=tool_context,
            params=params,
        )
        return await handle.get_result()

    def start(
        self,
        text: str,
        *,
        conversation_id: str,
        turn: str | int | None = None,
        tool_context: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        stream: bool = False,
    ) -> WorkflowHandle[ChatResponse]:
        """The sync form of [`astart`][]; the turn runs on DBOS's own event loop."""
        workflow_id = turn_workflow_id(conversation_id, turn if turn is not None else _new_turn())
        request = self._request(text, conversation_id, tool_context, params, stream)
        # DBOS runs an async workflow started from sync code on its own event
        # loop, and its sync handle gives the result, not a coroutine.
        workflow = cast(Callable[[str, TurnRequest], ChatResponse], turn_workflow)
        with SetWorkflowID(workflow_id):
            if self._queue is not None:
                return self._queue.enqueue(workflow, self._name, request)
            return DBOS.start_workflow(workflow, self._name, request)

    def call(
        self,
        text: str,
        *,
        conversation_id: str,
        turn: str | int | None = None,
        tool_context: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> ChatResponse:
        """The sync form of [`acall`][]; the turn runs on DBOS's own event loop."""
        handle = self.start(
            text,
            conversation_id=conversation_id,
            turn=turn,
            tool_context=tool_context,
            params=params,
        )
        return handle.get_result()

    async def astream(
        self,
        text: str,
        *,
        conversation_id: str,
        turn: str | int | None = None,
        tool_context: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """Run a turn durably, yielding its events as they happen.

        The same events as ``StreamResponse.events()``: text deltas as the
        model streams them, each tool call's start, approval and end. They are
        read from the turn's DBOS stream, so stopping the iteration does not
        stop the turn, and [`aevents`][] reads them again from anywhere.
        """
        handle = await self.astart(
            text,
            conversation_id=conversation_id,
            turn=turn,
            tool_context=tool_context,
            params=params,
            stream=True,
        )
        async for event in self.aevents(handle.workflow_id):
            yield event

    async def aevents(self, workflow_id: str, *, offset: int = 0) -> AsyncIterator[StreamEvent]:
        """The events of the streamed turn ``workflow_id``, from ``offset``, until it ends.

        Works in any process on the system database, during the turn and after
        it: a page that reconnects reads from the offset it had reached.
        """
        async for value in DBOS.read_stream_async(workflow_id, EVENTS_STREAM, offset=offset):
            yield value

    def events(self, workflow_id: str, *, offset: int = 0) -> Iterator[StreamEvent]:
        """The sync form of [`aevents`][]."""
        yield from DBOS.read_stream(workflow_id, EVENTS_STREAM, offset=offset)

    async def aresult(self, workflow_id: str) -> ChatResponse:
        """Wait for the turn ``workflow_id`` (started in any process) and return its answer."""
        handle: WorkflowHandleAsync[ChatResponse] = await DBOS.retrieve_workflow_async(workflow_id)
        return await handle.get_result()


def _new_turn() -> str:
    return uuid.uuid4().hex[:16]


def _durable_view(client: ChatClient) -> ChatClient:
    """``client`` with its memory and tool loop checkpointed, and its model calls as steps."""
    defaults = client._defaults
    advisors: list[Any] = []
    has_loop = False
    for advisor in defaults.advisors:
        if isinstance(advisor, MessageChatMemoryAdvisor):
            advisor = _memory_advisor(advisor)
        elif isinstance(advisor, ToolCallingAdvisor):
            advisor = _tool_loop(advisor)
            has_loop = True
        advisors.append(advisor)
    if not has_loop and defaults.auto_register:
        advisors.append(_tool_loop(ToolCallingAdvisor(ToolCallingManager())))
    advisors.append(ModelStepAdvisor())
    builder = client.mutate()
    builder._advisors = advisors
    return builder.build()


def _memory_advisor(advisor: MessageChatMemoryAdvisor) -> MessageChatMemoryAdvisor:
    durable = copy.copy(advisor)
    durable._memory = StepMemory(advisor.chat_memory)
    # Approvals wait in the workflow, not as a paused turn in the memory.
    durable._pausable = False
    return durable


def _tool_loop(advisor: ToolCallingAdvisor) -> ToolCallingAdvisor:
    durable = copy.copy(advisor)
    durable._manager = DurableToolCallingManager.like(advisor.tool_calling_manager)
    return durable

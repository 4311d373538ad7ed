"""The checkpointed steps of a durable turn: model calls, tool calls, memory reads and writes.

Each wrapper runs the thing it wraps as one DBOS step when it is called
inside a DBOS workflow, and runs it plainly otherwise, so a durable client
still works in a test that never launched DBOS. A completed step is never
run again: DBOS hands back its recorded output when the workflow is
recovered. A step that was running when the process died has no record, so
DBOS runs it again; that is right for a model call, and for a tool only
when the tool says so (``ToolMetadata.idempotent``). To see that a tool was
running, a small *started* step is recorded just before the tool's own
step: a recovered workflow that finds the started step but not the tool's
result knows the call was in flight.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final

from dbos import DBOS

from springtail.client._advisor import (
    LOWEST_PRECEDENCE,
    CallAdvisorChain,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
)
from springtail.durable._approval import DurableApprover
from springtail.durable._stream import StreamWriter, write_text
from springtail.execution import ToolCallingManager
from springtail.execution._resolvers import ToolCallbackResolver
from springtail.memory import ChatMemory
from springtail.messages import ChatResponse, Message, Prompt
from springtail.tools import (
    ToolCallback,
    ToolContext,
    ToolDefinition,
    ToolExecutionError,
    ToolMetadata,
)

__all__ = [
    "INTERRUPTED_NOTICE",
    "MODEL_STEP",
    "TOOL_STARTED_STEP",
    "TOOL_STEP",
    "DurableToolCallingManager",
    "ModelStepAdvisor",
    "StepMemory",
    "StepTool",
    "ToolInterruptedError",
    "in_workflow",
]

MODEL_STEP: Final[str] = "springtail.model"
TOOL_STARTED_STEP: Final[str] = "springtail.tool.started"
TOOL_STEP: Final[str] = "springtail.tool"
MEMORY_GET_STEP: Final[str] = "springtail.memory.get"
MEMORY_ADD_STEP: Final[str] = "springtail.memory.add"
MEMORY_CLEAR_STEP: Final[str] = "springtail.memory.clear"

INTERRUPTED_NOTICE: Final[str] = (
    "The call of {name} was interrupted: the process running it stopped before it "
    "answered. It may or may not have taken effect. Check its effect before calling it "
    "again, or tell the user that it is unknown."
)
"""What the model reads for a tool call that a crash interrupted and that may not be retried."""


def in_workflow() -> bool:
    """Whether the caller runs inside a DBOS workflow (and outside any step)."""
    return DBOS.workflow_id is not None and DBOS.step_id is None


class ToolInterruptedError(RuntimeError):
    """A non-idempotent tool call was in flight when the process running it died.

    The durable turn does not run such a call again (it might do twice what
    should happen once); the model reads this error's message instead.
    """


@dataclass(frozen=True, slots=True)
class _ToolOutcome:
    """A tool step's recorded outcome: the answer, or the failure's message and type."""

    text: str
    failed: bool = False
    error_type: str = ""


class ModelStepAdvisor:
    """The innermost advisor of a durable turn: each model call is one step.

    Sitting just before the model, it sees every call the tool loop makes,
    and records each response; a recovered turn gets the recorded responses
    back instead of calling the model again. A stream is recorded whole:
    its chunks go out once the model's stream has ended.
    """

    __slots__ = ()

    @property
    def name(self) -> str:
        """The advisor's name, for logs."""
        return "DurableModelStep"

    @property
    def order(self) -> int:
        """Innermost: right before the model, after every other advisor."""
        return LOWEST_PRECEDENCE - 1

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        """Call the model as a step (plainly outside a workflow)."""
        if not in_workflow():
            return await chain.next_call(request)

        async def model_call() -> ChatResponse:
            return (await chain.next_call(request)).chat_response

        response: ChatResponse = await DBOS.run_step_async({"name": MODEL_STEP}, model_call)
        return ChatClientResponse(response, request.context)

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        """Stream the model as a step: its chunks are recorded, then passed on.

        The readers of the turn's event stream get each chunk's text as the
        model streams it; the tool loop gets the chunks once the call ended.
        """
        if not in_workflow():
            async for response in chain.next_stream(request):
                yield response
            return

        async def model_stream() -> list[ChatResponse]:
            chunks: list[ChatResponse] = []
            async for response in chain.next_stream(request):
                if response.event is None:
                    chunks.append(response.chat_response)
                    await write_text(response.chat_response.text)  # live, for the readers
            return chunks

        chunks: list[ChatResponse] = await DBOS.run_step_async({"name": MODEL_STEP}, model_stream)
        for chunk in chunks:
            yield ChatClientResponse(chunk, request.context)


class StepMemory:
    """A chat memory whose reads and writes are steps of the running durable turn.

    A recovered turn reads the history it read the first time (so its prompt
    is the same) and does not save again what it saved before the crash (so
    the conversation holds each message once).
    """

    __slots__ = ("_memory",)

    CONVERSATION_ID: ClassVar[str] = ChatMemory.CONVERSATION_ID

    def __init__(self, memory: ChatMemory) -> None:
        self._memory = memory

    @property
    def memory(self) -> ChatMemory:
        """The memory this wrapper records the use of."""
        return self._memory

    def add(self, conversation_id: str, messages: Sequence[Message]) -> None:
        """Save ``messages`` once, however often the turn is recovered."""
        if DBOS.workflow_id is None or DBOS.step_id is not None:
            self._memory.add(conversation_id, messages)
            return
        DBOS.run_step({"name": MEMORY_ADD_STEP}, self._memory.add, conversation_id, list(messages))

    def get(self, conversation_id: str) -> list[Message]:
        """The history, as the turn first read it."""
        if DBOS.workflow_id is None or DBOS.step_id is not None:
            return self._memory.get(conversation_id)
        history: list[Message] = DBOS.run_step(
            {"name": MEMORY_GET_STEP}, self._memory.get, conversation_id
        )
        return history

    def clear(self, conversation_id: str) -> None:
        """Forget the conversation, once."""
        if DBOS.workflow_id is None or DBOS.step_id is not None:
            self._memory.clear(conversation_id)
            return
        DBOS.run_step({"name": MEMORY_CLEAR_STEP}, self._memory.clear, conversation_id)


class StepTool:
    """A tool whose every call is a step of the running durable turn.

    Args:
        callback: The tool.

    The call's ``ToolContext`` carries an idempotency key, the turn's
    workflow id and the tool step's number, the same on every retry.
    """

    __slots__ = ("_callback", "_metadata")

    def __init__(self, callback: ToolCallback) -> None:
        self._callback = callback
        # The step always runs on the event loop; a sync tool goes to a thread inside it.
        self._metadata = replace(callback.tool_metadata, is_async=True)

    @property
    def tool_definition(self) -> ToolDefinition:
        """The wrapped tool's definition."""
        return self._callback.tool_definition

    @property
    def tool_metadata(self) -> ToolMetadata:
        """The wrapped tool's metadata (run on the loop: the step awaits the tool)."""
        return self._metadata

    @property
    def callback(self) -> ToolCallback:
        """The wrapped tool."""
        return self._callback

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Run the tool plainly (the tool loop uses ``acall``)."""
        return self._callback.call(tool_input, tool_context)

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        """Run the tool as a step: once, or again only when it is idempotent."""
        if not in_workflow():
            return await self._run(tool_input, tool_context)
        token = uuid.uuid4().hex
        recorded: str = await DBOS.run_step_async({"name": TOOL_STARTED_STEP}, _started, token)
        interrupted = recorded != token and not self._callback.tool_metadata.idempotent
        definition = self._callback.tool_definition

        async def tool_step() -> _ToolOutcome:
            if interrupted:
                text = INTERRUPTED_NOTICE.format(name=definition.name)
                return _ToolOutcome(text, True, ToolInterruptedError.__name__)
            key = f"{DBOS.workflow_id}:{DBOS.step_id}"
            context = (tool_context or ToolContext()).with_idempotency_key(key)
            try:
                return _ToolOutcome(await self._run(tool_input, context))
            except ToolExecutionError as error:
                cause = error.cause if error.cause is not None else error
                return _ToolOutcome(str(error), True, type(cause).__name__)
            except Exception as error:
                return _ToolOutcome(str(error), True, type(error).__name__)

        outcome: _ToolOutcome = await DBOS.run_step_async({"name": TOOL_STEP}, tool_step)
        if not outcome.failed:
            return outcome.text
        cause = (
            ToolInterruptedError(outcome.text)
            if outcome.error_type == ToolInterruptedError.__name__
            else _RecordedToolError(outcome.text, outcome.error_type)
        )
        raise ToolExecutionError(definition, cause)

    async def _run(self, tool_input: str, tool_context: ToolContext | None) -> str:
        callback = self._callback
        if callback.tool_metadata.is_async:
            return await callback.acall(tool_input, tool_context)
        return await asyncio.to_thread(callback.call, tool_input, tool_context)

    def __repr__(self) -> str:
        return f"StepTool({self._callback!r})"


class _RecordedToolError(RuntimeError):
    """A tool failure as the turn recorded it: its message, and the original type's name."""

    def __init__(self, message: str, error_type: str) -> None:
        super().__init__(message)
        self.error_type = error_type


def _started(token: str) -> str:
    """The started step: its first run records ``token``; a recovered run gets that one back."""
    return token


def _wrapped(callback: ToolCallback) -> ToolCallback:
    return callback if isinstance(callback, StepTool) else StepTool(callback)


class _StepToolResolver:
    """A resolver whose tools run as steps."""

    __slots__ = ("_resolver",)

    def __init__(self, resolver: ToolCallbackResolver) -> None:
        self._resolver = resolver

    def resolve(self, name: str) -> ToolCallback | None:
        found = self._resolver.resolve(name)
        return _wrapped(found) if found is not None else None


class DurableToolCallingManager(ToolCallingManager):
    """A tool calling manager whose calls are steps, one at a time, in the model's order.

    DBOS numbers a workflow's steps in the order they start, and a recovered
    workflow must start them in the same order; calls that ran concurrently
    could start in another order the second time. So a durable turn runs the
    calls of one response one after another, in the order the model wrote
    them.
    """

    @classmethod
    def like(cls, manager: ToolCallingManager) -> DurableToolCallingManager:
        """A durable manager with ``manager``'s settings."""
        if isinstance(manager, DurableToolCallingManager):
            return manager
        settings: dict[str, Any] = manager.settings
        settings["max_concurrency"] = 1
        settings["listeners"] = (*settings["listeners"], StreamWriter())
        settings["approver"] = DurableApprover(settings["approver"], settings["approval_timeout"])
        resolver = settings["resolver"]
        if resolver is not None:
            settings["resolver"] = _StepToolResolver(resolver)
        return cls(**settings)

    async def aexecute_tool_calls(
        self, prompt: Prompt, chat_response: ChatResponse, **kwargs: Any
    ) -> Any:
        """Run the calls with every offered tool wrapped as a step."""
        options = prompt.options
        if options is not None and options.tool_callbacks:
            wrapped = tuple(_wrapped(cb) for cb in options.tool_callbacks)
            prompt = prompt.with_options(options.copy_with(tool_callbacks=wrapped))
        return await super().aexecute_tool_calls(prompt, chat_response, **kwargs)

"""One chat turn of the web service, as a stream of events.

The service runs the same conversation as the terminal's ``final`` step
(the same tools, system prompt, memory window and advisor order, built by
``support_bot.steps.final.final_client``); what differs is where things go. Each
turn runs in its own task and reports :class:`TurnEvent` values on a queue
that the HTTP response turns into server-sent events. A tool that needs
approval (``product_reserve``) makes the turn publish ``approval_requested``
and wait for :meth:`ChatService.decide`, or for the timeout, which counts as
a denial the model reads like any other. Only the waiting turn waits.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from springtail import (
    ChatMemory,
    ChatMemoryError,
    ChatModel,
    ChatOptions,
    DefaultToolExecutionExceptionProcessor,
    LlamaCppChatModel,
    MessageWindowChatMemory,
    ModelError,
    Prompt,
    SystemMessage,
    TextDelta,
    ToolCall,
    ToolCallFinished,
    ToolCallingManager,
    ToolCallStarted,
    ToolDefinition,
)
from support_bot._store_base import BusinessStore, StoreError
from support_bot.serve._config import ServeConfig
from support_bot.serve._gate import ModelGate
from support_bot.serve._memory import TurnBufferedMemory
from support_bot.steps._base import SYSTEM_PROMPT
from support_bot.steps.final import MEMORY_WINDOW, final_client
from support_bot.tools import all_tools

__all__ = [
    "ChatService",
    "ConversationBusyError",
    "ServeTurn",
    "TooManyTurnsError",
    "TurnEvent",
]

log = logging.getLogger("support_bot.serve")

TERMINAL_EVENTS = frozenset({"done", "error"})
"""Events after which a turn's stream ends."""


class ConversationBusyError(Exception):
    """A turn of this conversation is already running on this process."""


class TooManyTurnsError(Exception):
    """This session or client has as many turns in progress as it may; try again later."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


RETRY_AFTER_S = 5
"""What a refused turn's ``Retry-After`` says: about one turn of a small model."""


class _SavedUncountedError(Exception):
    """The turn's messages were saved but its count was not, and undoing the save failed."""


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """One server-sent event: its name and JSON-able data."""

    name: str
    data: dict[str, Any]


@dataclass(eq=False)
class ServeTurn:
    """A web turn while it runs: the events queued for its client and the approvals it awaits."""

    conversation_id: str
    text: str
    owner: str = ""
    client: str = ""
    events: asyncio.Queue[TurnEvent] = field(default_factory=asyncio.Queue)
    approvals: dict[str, asyncio.Future[bool]] = field(default_factory=dict)
    in_gate: bool = False

    def emit(self, event: str, /, **data: Any) -> None:
        """Publish an event to the client."""
        self.events.put_nowait(TurnEvent(event, data))

    def on_position(self, position: int) -> None:
        """The turn is queued for the model at ``position`` (1 = next)."""
        self.emit("queued", position=position)


_current_turn: ContextVar[ServeTurn | None] = ContextVar(
    "support_bot_serve_current_turn", default=None
)


class ChatService:
    """Runs turns for every conversation of one process, over one model and one store."""

    def __init__(
        self,
        *,
        model: ChatModel,
        store: BusinessStore,
        config: ServeConfig,
        user_name: str = "web user",
    ) -> None:
        self._store = store
        self._config = config
        self._user_name = user_name
        self._repository = store.chat_memory_repository()
        self.memory = TurnBufferedMemory(
            MessageWindowChatMemory(repository=self._repository, max_messages=MEMORY_WINDOW)
        )
        manager = ToolCallingManager(
            exception_processor=DefaultToolExecutionExceptionProcessor(
                always_throw=False, rethrow=(StoreError,)
            ),
            approver=self._approve,
        )
        self._model = model
        self._tools = all_tools(store)
        self._client = final_client(model, tools=self._tools, memory=self.memory, manager=manager)
        self.gate = ModelGate(config.model_capacity)
        self._active: dict[str, ServeTurn] = {}

    def warm_up(self) -> None:
        """Evaluate the system prompt and the tool definitions once, before taking requests.

        Only the embedded model gains (its KV cache then holds the prefix every
        turn begins with: about 20 s on 2 cores the first time); it blocks, so
        call it from a worker thread. A failure is logged, not fatal: the first
        turn then pays the evaluation instead.
        """
        if not isinstance(self._model, LlamaCppChatModel):
            return
        prompt = Prompt(
            [SystemMessage(SYSTEM_PROMPT)], ChatOptions(tool_callbacks=tuple(self._tools))
        )
        try:
            self._model.prepare(prompt).result()
        except Exception:
            log.warning("warming the embedded model up failed", exc_info=True)

    def start(
        self, conversation_id: str, text: str, *, owner: str = "", client: str = ""
    ) -> ServeTurn:
        """Claim the conversation for a new turn (run it with :meth:`run`).

        Args:
            conversation_id: The conversation.
            text: The user's message.
            owner: The browser session's digest: it may have
                ``max_turns_per_session`` turns in progress.
            client: The client's address: it may have as many turns in
                progress as the model serves at once and
                ``max_queued_turns_per_client`` more.

        Raises:
            ConversationBusyError: a turn of this conversation is running here.
            TooManyTurnsError: the session or the client has its share of turns.
        """
        if conversation_id in self._active:
            raise ConversationBusyError(conversation_id)
        config = self._config
        active = self._active.values()
        if owner and sum(t.owner == owner for t in active) >= config.max_turns_per_session:
            raise TooManyTurnsError(
                f"This browser session already has {config.max_turns_per_session} answers in "
                f"progress; wait for one to finish (about {RETRY_AFTER_S} s).",
                RETRY_AFTER_S,
            )
        client_cap = config.model_capacity + config.max_queued_turns_per_client
        if client and sum(t.client == client for t in active) >= client_cap:
            raise TooManyTurnsError(
                f"This client already has {client_cap} answers in progress or waiting for the "
                f"model; wait for one to finish (about {RETRY_AFTER_S} s).",
                RETRY_AFTER_S,
            )
        turn = ServeTurn(conversation_id, text, owner=owner, client=client)
        self._active[conversation_id] = turn
        return turn

    async def run(self, turn: ServeTurn) -> None:
        """Run the turn to its end, publishing events; saves it only when it completes."""
        token = _current_turn.set(turn)
        try:
            await self._run(turn)
        except asyncio.CancelledError:
            log.info("turn of %s cancelled; nothing saved", turn.conversation_id)
            raise
        except ModelError as exc:
            turn.emit("error", message=f"The model failed: {exc} Nothing was saved.")
        except _SavedUncountedError as exc:
            log.error("turn of %s: %s", turn.conversation_id, exc)
            turn.emit(
                "error",
                message="The database failed while saving: the answer is in the conversation's "
                "history but not in its turn count. Try the next message later.",
            )
        except (StoreError, ChatMemoryError) as exc:
            log.warning("turn of %s: database failure: %s", turn.conversation_id, exc)
            turn.emit("error", message=f"{_sentence(exc)} Nothing was saved; try again.")
        except Exception:
            log.exception("turn of %s failed", turn.conversation_id)
            turn.emit(
                "error",
                message="Something went wrong on the server; nothing was saved. Try again.",
            )
        finally:
            _current_turn.reset(token)
            self._active.pop(turn.conversation_id, None)
            for pending in turn.approvals.values():
                pending.cancel()

    async def _run(self, turn: ServeTurn) -> None:
        cid = turn.conversation_id
        started = time.perf_counter()
        with self.memory.turn() as buffer:
            await self.gate.acquire(turn.on_position)
            turn.in_gate = True
            parts: list[str] = []
            arguments: dict[str, str] = {}
            try:
                turn.emit("started")
                spec = (
                    self._client.prompt(turn.text)
                    .advisor_param(ChatMemory.CONVERSATION_ID, cid)
                    .tool_context({"user_name": self._user_name, "conversation_id": cid})
                )
                async for event in spec.astream().events():
                    if isinstance(event, TextDelta):
                        if event.text:
                            parts.append(event.text)
                            turn.emit("text", delta=event.text)
                    elif isinstance(event, ToolCallStarted):
                        arguments[event.id] = event.arguments
                        turn.emit(
                            "tool_started",
                            id=event.id,
                            name=event.tool_name,
                            arguments=event.arguments,
                        )
                    elif isinstance(event, ToolCallFinished):
                        turn.emit(
                            "tool_finished",
                            id=event.id,
                            name=event.tool_name,
                            arguments=arguments.get(event.id, ""),
                            result=event.result,
                            is_error=event.is_error,
                            duration_s=round(event.duration_s, 4),
                        )
            finally:
                if turn.in_gate:
                    turn.in_gate = False
                    self.gate.release()
            # All or nothing: the turn's messages reach the memory in one write.
            title = " ".join(turn.text.split())[:60]
            await asyncio.shield(asyncio.to_thread(self._save, buffer, cid, title))
        turn.emit("done", answer="".join(parts), duration_s=round(time.perf_counter() - started, 4))

    def _save(self, buffer: Any, conversation_id: str, title: str) -> None:
        """The turn's messages and its count, together or not at all.

        They live in two tables (the chat memory's and the conversations'),
        written by two components, so they cannot share one transaction here.
        The messages go first, in one write; if counting the turn then fails,
        the conversation's messages are put back as they were. Only if that
        also fails are the two apart (logged, and the client is told).
        """
        before = self._repository.find_by_conversation_id(conversation_id)
        self.memory.commit(buffer)
        try:
            self._store.count_turn(conversation_id, title)
        except Exception as exc:
            try:
                self._repository.save_all(conversation_id, before)
            except Exception as undo:
                raise _SavedUncountedError(
                    f"the turn's messages were saved but counting it failed ({exc}), and "
                    f"putting the conversation back failed too ({undo})"
                ) from exc
            raise

    async def _approve(self, call: ToolCall, definition: ToolDefinition) -> bool:
        """The manager's approver: ask the web client and wait, out of the model's gate."""
        turn = _current_turn.get()
        if turn is None:
            return False
        approval_id = secrets.token_urlsafe(12)
        decision: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        turn.approvals[approval_id] = decision
        timeout = self._config.approval_timeout_s
        turn.emit(
            "approval_requested",
            approval_id=approval_id,
            id=call.id,
            name=call.name,
            arguments=call.arguments,
            timeout_s=timeout,
        )
        if turn.in_gate:  # a person may take minutes: let queued turns use the model
            turn.in_gate = False
            self.gate.release()
        reason = "user"
        try:
            approved = await asyncio.wait_for(decision, timeout)
        except TimeoutError:
            approved, reason = False, "timeout"
        finally:
            turn.approvals.pop(approval_id, None)
        await self.gate.acquire(turn.on_position)
        turn.in_gate = True
        turn.emit("approval_decided", approval_id=approval_id, approved=approved, reason=reason)
        return approved

    def decide(self, conversation_id: str, approval_id: str, approved: bool) -> bool:
        """Answer a pending approval; ``False`` when none is pending under this id here."""
        turn = self._active.get(conversation_id)
        decision = turn.approvals.get(approval_id) if turn is not None else None
        if decision is None or decision.done():
            return False
        decision.set_result(approved)
        return True

    def running(self, conversation_id: str) -> bool:
        """Whether a turn of this conversation is running here."""
        return conversation_id in self._active

    @property
    def active_turns(self) -> Sequence[str]:
        """Conversations with a running turn."""
        return tuple(self._active)


def _sentence(exc: Exception) -> str:
    """The store's own sentence, ending with a full stop."""
    text = str(exc).strip() or "The database failed."
    return text if text.endswith((".", "!", "?")) else text + "."

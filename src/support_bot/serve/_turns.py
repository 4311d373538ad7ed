"""One chat turn of the web service, as a stream of events.

The service runs the same conversation as the terminal's ``final`` step
(the same tools, system prompt, memory window and advisor order, built by
``support_bot.steps.final.final_client``); what differs is where things go. Each
turn runs in its own task and reports ``TurnEvent`` values on a queue
that the HTTP response turns into server-sent events. A tool that needs
approval (``product_reserve``) does not hold the turn: springtail's tool loop
defers it and pauses the turn, which is stored with the conversation in the
shared database; the turn ends (``approval_requested`` then ``done``), and a
later decision, posted to any process, resumes it as a turn of its own
(``ChatService.resume``). After ``--approval-timeout`` seconds the call
counts as denied.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from springtail import (
    ApprovalConflictError,
    ApprovalPendingError,
    ChatMemory,
    ChatMemoryError,
    ChatModel,
    ChatOptions,
    DefaultToolExecutionExceptionProcessor,
    LlamaCppChatModel,
    MessageWindowChatMemory,
    ModelError,
    PausedTurn,
    PendingApproval,
    Prompt,
    SystemMessage,
    TextDelta,
    ToolCallFinished,
    ToolCallingManager,
    ToolCallStarted,
    TurnPaused,
    defer_approval,
)
from support_bot._store_base import BusinessStore, StoreError
from support_bot.serve._approvals import decided_events, pending_json
from support_bot.serve._config import ServeConfig
from support_bot.serve._durable_turns import DurableTurns
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
    """A web turn while it runs: the events queued for its client.

    A turn answers a message (``text``), or resumes a paused turn with the
    user's decisions (``resume``, taken from the store already; ``by_user``
    names the calls the user decided, the others expired).
    """

    conversation_id: str
    text: str
    owner: str = ""
    client: str = ""
    events: asyncio.Queue[TurnEvent] = field(default_factory=asyncio.Queue)
    in_gate: bool = False
    resume: PausedTurn | None = None
    by_user: set[str] = field(default_factory=set)
    workflow_id: str = ""
    decisions: dict[str, bool] = field(default_factory=dict)

    def emit(self, event: str, /, **data: Any) -> None:
        """Publish an event to the client."""
        self.events.put_nowait(TurnEvent(event, data))

    def on_position(self, position: int) -> None:
        """The turn is queued for the model at ``position`` (1 = next)."""
        self.emit("queued", position=position)


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
        window = MessageWindowChatMemory(repository=self._repository, max_messages=MEMORY_WINDOW)
        self.memory = TurnBufferedMemory(window)
        manager = ToolCallingManager(
            exception_processor=DefaultToolExecutionExceptionProcessor(
                always_throw=False, rethrow=(StoreError,)
            ),
            approver=defer_approval,  # a reservation waits, stored, for the page's decision
            approval_timeout=config.approval_timeout_s,
        )
        self._model = model
        self._tools = all_tools(store)
        self._client = final_client(model, tools=self._tools, memory=self.memory, manager=manager)
        self.gate = ModelGate(config.model_capacity)
        self._active: dict[str, ServeTurn] = {}
        self._durable: DurableTurns | None = None
        if config.durable is not None:
            # A durable turn saves each message once, as a step, into the real memory:
            # the turn goes on when its client leaves, so nothing is held back.
            durable_client = final_client(model, tools=self._tools, memory=window, manager=manager)
            self._durable = DurableTurns(durable_client, config)

    @property
    def durable(self) -> bool:
        """Whether turns run as DBOS workflows (``--durable``)."""
        return self._durable is not None

    def launch(self) -> None:
        """Launch DBOS, which finishes the unfinished turns of this executor (blocking)."""
        if self._durable is not None:
            self._durable.launch()

    def close(self) -> None:
        """Stop running turns here; the process stops DBOS once the server's loop ended."""
        if self._durable is not None:
            self._durable.close()

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
        """Claim the conversation for a new turn (run it with ``run``).

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

    def release(self, turn: ServeTurn) -> None:
        """Give up a claimed turn that will not run (its decision was refused)."""
        if self._active.get(turn.conversation_id) is turn:
            del self._active[turn.conversation_id]

    def waiting(self, conversation_id: str) -> tuple[PendingApproval, ...]:
        """The calls the conversation waits for (blocking I/O: call it off the event loop)."""
        if self._durable is not None:
            return self._durable.waiting(conversation_id)
        paused = self.memory.paused_turn(conversation_id)
        return paused.waiting() if paused is not None else ()

    def pending(self, conversation_id: str) -> list[dict[str, Any]]:
        """The calls the conversation waits for, as JSON (blocking I/O)."""
        if self._durable is not None:
            return self._durable.pending(conversation_id)
        return pending_json(self.memory.paused_turn(conversation_id))

    def take(self, turn: ServeTurn, decisions: Mapping[str, bool]) -> None:
        """Take the conversation's paused turn with the user's decisions, for ``turn`` to resume.

        Blocking I/O (run it off the event loop). This is the compare-and-set:
        of two processes given the same decision at once, one gets the turn.

        Raises:
            ApprovalConflictError: nothing waits, or a decision names a call that does not.
            ValueError: a call that waits has no decision.
        """
        if self._durable is not None:
            self._durable.decide(turn, decisions)
            return
        turn.resume = self.memory.take_paused_turn(turn.conversation_id, decisions)
        turn.by_user = set(decisions)

    async def run(self, turn: ServeTurn) -> None:
        """Run the turn to its end, publishing events; saves it only when it completes."""
        try:
            await self._run(turn)
        except asyncio.CancelledError:
            if self._durable is not None:
                log.info("client of %s left; the turn goes on", turn.conversation_id)
            else:
                log.info("turn of %s cancelled; nothing saved", turn.conversation_id)
            raise
        except ModelError as exc:
            turn.emit("error", message=f"The model failed: {exc} Nothing was saved.")
        except (ApprovalPendingError, ApprovalConflictError) as exc:  # lost a race to another
            turn.emit("error", message=str(exc))
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
            self._active.pop(turn.conversation_id, None)

    async def _run(self, turn: ServeTurn) -> None:
        if self._durable is not None:
            await self._durable.run(turn, self._store, self._user_name)
            self.release(turn)
            return
        cid = turn.conversation_id
        started = time.perf_counter()
        with self.memory.turn() as buffer:
            await self.gate.acquire(turn.on_position)
            turn.in_gate = True
            parts: list[str] = []
            arguments: dict[str, str] = {}
            paused: PausedTurn | None = None
            try:
                if turn.resume is not None:
                    for name, data in decided_events(turn.resume, turn.by_user):
                        turn.emit(name, **data)
                turn.emit("started")
                spec = (
                    self._client.prompt().resume(turn.resume)
                    if turn.resume is not None
                    else self._client.prompt(turn.text)
                )
                spec = spec.advisor_param(ChatMemory.CONVERSATION_ID, cid).tool_context(
                    {"user_name": self._user_name, "conversation_id": cid}
                )
                async for event in spec.astream().events():
                    if isinstance(event, TurnPaused):
                        paused = event.paused_turn
                    elif isinstance(event, TextDelta):
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
            # A resumed turn continues a counted one; only a message counts a turn.
            title = " ".join(turn.text.split())[:60] if turn.resume is None else None
            await asyncio.shield(asyncio.to_thread(self._save, buffer, cid, title))
        self.release(turn)  # saved: a decision may come now, to this process too
        if paused is not None:  # stored now: any process can take the decision
            for data in pending_json(paused):
                turn.emit("approval_requested", **data)
        turn.emit(
            "done",
            answer="".join(parts),
            duration_s=round(time.perf_counter() - started, 4),
            paused=paused is not None,
        )

    def _save(self, buffer: Any, conversation_id: str, title: str | None) -> None:
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
            if title is not None:
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
        self.memory.commit_paused(buffer)  # last: a turn that waits has all its messages

    def running(self, conversation_id: str) -> bool:
        """Whether a turn of this conversation is running here (durable: in any process).

        Blocking I/O when durable (the system database is asked).
        """
        if conversation_id in self._active:
            return True
        return self._durable is not None and self._durable.running(conversation_id)

    @property
    def active_turns(self) -> Sequence[str]:
        """Conversations with a running turn."""
        return tuple(self._active)


def _sentence(exc: Exception) -> str:
    """The store's own sentence, ending with a full stop."""
    text = str(exc).strip() or "The database failed."
    return text if text.endswith((".", "!", "?")) else text + "."

"""A web turn as a DBOS workflow: started on the turns queue, its events read from its stream.

The turn is the workflow ``<conversation id>:<random turn id>`` of springtail's
``DurableChatClient``. The page's events come from the workflow's DBOS
stream, not from the task that started it: a client that leaves stops only
its reading, the turn goes on and saves its messages (each once, as steps);
a serve that starts after a crash finishes it, and the page sees its
messages in the conversation.

The turn is counted (and the conversation named) before the workflow
starts, so a recovered turn never counts twice; a turn that then fails
still counts, as a turn the user sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from springtail import (
    ApprovalConflictError,
    ChatClient,
    PendingApproval,
    TextDelta,
    ToolCall,
    ToolCallDecision,
    ToolCallFinished,
    ToolCallStarted,
)
from springtail.client import ToolApprovalRequested

if TYPE_CHECKING:
    from springtail.durable import DurableChatClient, WaitingCall
    from support_bot._store_base import BusinessStore
    from support_bot.serve._config import ServeConfig

__all__ = ["DurableTurns", "stop_dbos"]


class ServeTurn(Protocol):
    """What a durable turn reads and writes of serve's turn (``_turns.ServeTurn``).

    A protocol rather than an import: ``_turns`` builds ``DurableTurns``, and
    the modules of ``serve`` import no cycle, type hints included.
    """

    conversation_id: str
    text: str
    workflow_id: str
    decisions: dict[str, bool]

    def emit(self, event: str, /, **data: Any) -> None:
        """Publish an event to the client."""


log = logging.getLogger("support_bot.serve")


class DurableTurns:
    """Runs the service's turns as DBOS workflows on the turns queue.

    Args:
        client: The service's client over the real chat memory (no turn buffer).
        config: The service's settings; ``config.durable`` must be set.
    """

    def __init__(self, client: ChatClient, config: ServeConfig) -> None:
        from springtail.durable import DurableChatClient
        from support_bot.serve._durable import CLIENT_NAME, configure

        settings = config.durable
        if settings is None:
            raise ValueError("DurableTurns needs config.durable")
        self._config = config
        self._client = client
        configure(settings)
        # Built before DBOS.launch(): the turns it recovers find their client by name.
        self._durable: DurableChatClient = DurableChatClient(client, name=CLIENT_NAME)

    def launch(self) -> None:
        """Launch DBOS (recovering this executor's turns), then open the turns queue."""
        from dbos import DBOS

        from springtail.durable import DurableChatClient
        from support_bot.serve._durable import CLIENT_NAME, QUEUE_NAME, QUEUE_POLLING_S

        DBOS.launch()
        queue = DBOS.register_queue(
            QUEUE_NAME,
            worker_concurrency=self._config.model_capacity,
            polling_interval_sec=QUEUE_POLLING_S,
            on_conflict="always_update",
        )
        self._durable.close()
        self._durable = DurableChatClient(self._client, name=CLIENT_NAME, queue=queue)

    def close(self) -> None:
        """Stop running turns of this service; DBOS itself stays up (see ``stop_dbos``)."""
        self._durable.close()

    def _unfinished(self, conversation_id: str) -> list[str]:
        """The conversation's turns that have not ended, oldest first (blocking I/O)."""
        from dbos import DBOS

        statuses = DBOS.list_workflows(
            workflow_id_prefix=f"{conversation_id}:",
            status=["PENDING", "ENQUEUED"],
            sort_desc=False,
            load_input=False,
            load_output=False,
        )
        return [status.workflow_id for status in statuses]

    def _waiting(self, conversation_id: str) -> list[tuple[str, WaitingCall]]:
        from dbos import DBOS

        from springtail.durable import APPROVAL_EVENT, WaitingCall

        found: list[tuple[str, WaitingCall]] = []
        for workflow_id in self._unfinished(conversation_id):
            call = DBOS.get_event(workflow_id, APPROVAL_EVENT, timeout_seconds=0)
            if isinstance(call, WaitingCall):
                found.append((workflow_id, call))
        return found

    def running(self, conversation_id: str) -> bool:
        """Whether a turn of the conversation runs, in any process, not waiting for a person."""
        waiting = {workflow_id for workflow_id, _ in self._waiting(conversation_id)}
        return any(wid not in waiting for wid in self._unfinished(conversation_id))

    def waiting(self, conversation_id: str) -> tuple[PendingApproval, ...]:
        """The calls the conversation's turns wait for (blocking I/O)."""
        now = datetime.now(UTC)
        return tuple(
            PendingApproval(ToolCall(call.id, call.name, call.arguments), call.deadline)
            for _, call in self._waiting(conversation_id)
            if call.deadline is None or call.deadline > now
        )

    def pending(self, conversation_id: str) -> list[dict[str, Any]]:
        """The waiting calls as the page shows them (``pending_json``'s shape)."""
        now = datetime.now(UTC)
        return [
            _pending_json(call.id, call.name, call.arguments, call.deadline, now)
            for call in self.waiting(conversation_id)
        ]

    def decide(self, turn: ServeTurn, decisions: Mapping[str, bool]) -> None:
        """Send the user's decisions to the turn that waits (blocking I/O).

        Raises:
            ApprovalConflictError: nothing waits, or a decision names a call that does not.
            ValueError: a call that waits has no decision.
        """
        from dbos import DBOS

        from springtail.durable import approval_topic

        cid = turn.conversation_id
        waiting = self._waiting(cid)
        ids = {call.id for _, call in waiting}
        where = f" in conversation {cid!r}"
        if not waiting:  # the paused-turn path's sentences, so the page reads the same
            raise ApprovalConflictError(
                f"Nothing waits for approval{where}: no turn paused, or it was decided "
                "already (by another request or process).",
                conversation_id=cid,
            )
        names = ", ".join(f"{call.name} (call {call.id!r})" for _, call in waiting)
        unknown = sorted(set(decisions) - ids)
        if unknown:
            raise ApprovalConflictError(
                f"Call {unknown[0]!r}{where} does not wait for approval (it is not part of "
                f"this turn); the calls that wait are {names}.",
                conversation_id=cid,
            )
        now = datetime.now(UTC)
        for _, call in waiting:
            if call.id in decisions and call.deadline is not None and call.deadline <= now:
                raise ApprovalConflictError(
                    f"The approval of {call.name} (call {call.id!r}){where} expired at "
                    f"{call.deadline.astimezone(UTC):%Y-%m-%d %H:%M:%S UTC}; it counts as denied.",
                    conversation_id=cid,
                )
        missing = [call for _, call in waiting if call.id not in decisions]
        if missing:
            raise ValueError(
                f"Decide every call that waits at once: {missing[0].name} (call "
                f"{missing[0].id!r}) has no decision{where}."
            )
        workflow_id = waiting[0][0]
        for call_id, approved in decisions.items():
            decision = ToolCallDecision.approve() if approved else ToolCallDecision.deny(None)
            # One decision per call, however often it is posted: DBOS keeps the first.
            DBOS.send(
                workflow_id,
                decision,
                approval_topic(call_id),
                idempotency_key=f"{workflow_id}:{call_id}",
            )
        turn.workflow_id = workflow_id
        turn.decisions = dict(decisions)

    async def run(self, turn: ServeTurn, store: BusinessStore, user_name: str) -> None:
        """Start the turn's workflow (or go on with a decided one); publish its events."""
        cid = turn.conversation_id
        started = time.perf_counter()
        skip: set[str] = set()
        if turn.workflow_id:  # decided: the events up to the decision were shown already
            workflow_id = turn.workflow_id
            skip = set(turn.decisions)
            for call_id, approved in turn.decisions.items():
                turn.emit("approval_decided", approval_id=call_id, approved=approved, reason="user")
        else:
            title = " ".join(turn.text.split())[:60]
            await asyncio.to_thread(store.count_turn, cid, title)
            handle = await self._durable.astart(
                turn.text,
                conversation_id=cid,
                turn=uuid.uuid4().hex[:16],
                tool_context={"user_name": user_name, "conversation_id": cid},
                stream=True,
            )
            workflow_id = handle.workflow_id
        turn.emit("started")
        parts: list[str] = []
        arguments: dict[str, str] = {}
        async for event in self._durable.aevents(workflow_id):
            if skip:
                if isinstance(event, ToolApprovalRequested):
                    skip.discard(event.id)
                continue
            if isinstance(event, TextDelta):
                if event.text:
                    parts.append(event.text)
                    turn.emit("text", delta=event.text)
            elif isinstance(event, ToolCallStarted):
                arguments[event.id] = event.arguments
                turn.emit(
                    "tool_started", id=event.id, name=event.tool_name, arguments=event.arguments
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
            elif isinstance(event, ToolApprovalRequested):
                turn.emit("approval_requested", **_requested_json(event))
                turn.emit(
                    "done",
                    answer="".join(parts),
                    duration_s=round(time.perf_counter() - started, 4),
                    paused=True,
                )
                return
        await self._durable.aresult(workflow_id)  # a failed turn raises, as a plain one does
        turn.emit(
            "done",
            answer="".join(parts),
            duration_s=round(time.perf_counter() - started, 4),
            paused=False,
        )


def _requested_json(event: ToolApprovalRequested) -> dict[str, Any]:
    """The waiting call as the page shows it (``pending_json``'s shape)."""
    return _pending_json(
        event.id, event.tool_name, event.arguments, event.deadline, datetime.now(UTC)
    )


def _pending_json(
    call_id: str, name: str, arguments: str, deadline: datetime | None, now: datetime
) -> dict[str, Any]:
    return {
        "approval_id": call_id,
        "id": call_id,
        "name": name,
        "arguments": arguments,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "timeout_s": round((deadline - now).total_seconds(), 1) if deadline is not None else None,
    }


def stop_dbos() -> None:
    """Destroy DBOS once the server's event loop has ended: call it after uvicorn returns.

    Destroying DBOS while a turn's task still runs on the server's loop (a
    turn waiting for approval polls the system database) makes that wait fail
    with an ordinary exception, which the tool loop would take for a failed
    approval check and record. Once the loop has ended, its tasks were
    cancelled (a ``CancelledError`` records nothing), and the next serve
    recovers the turn where it was.
    """
    from dbos import DBOS

    DBOS.destroy()

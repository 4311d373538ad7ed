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
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from springtail import ChatClient, TextDelta, ToolCallFinished, ToolCallStarted
from springtail.client import ToolApprovalRequested

if TYPE_CHECKING:
    from springtail.durable import DurableChatClient
    from support_bot._store_base import BusinessStore
    from support_bot.serve._config import ServeConfig
    from support_bot.serve._turns import ServeTurn

__all__ = ["DurableTurns"]

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
        """Stop DBOS; the turns still running are the next launch's to finish."""
        from dbos import DBOS

        self._durable.close()
        DBOS.destroy()

    async def run(self, turn: ServeTurn, store: BusinessStore, user_name: str) -> None:
        """Start the turn's workflow and publish its events until it ends or waits."""
        cid = turn.conversation_id
        started = time.perf_counter()
        title = " ".join(turn.text.split())[:60]
        await asyncio.to_thread(store.count_turn, cid, title)
        handle = await self._durable.astart(
            turn.text,
            conversation_id=cid,
            turn=uuid.uuid4().hex[:16],
            tool_context={"user_name": user_name, "conversation_id": cid},
            stream=True,
        )
        turn.emit("started")
        parts: list[str] = []
        arguments: dict[str, str] = {}
        async for event in self._durable.aevents(handle.workflow_id):
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
        await handle.get_result()  # a failed turn raises here, as a plain one does
        turn.emit(
            "done",
            answer="".join(parts),
            duration_s=round(time.perf_counter() - started, 4),
            paused=False,
        )


def _requested_json(event: ToolApprovalRequested) -> dict[str, Any]:
    """The waiting call as the page shows it (``pending_json``'s shape)."""
    deadline = event.deadline
    left = (deadline - datetime.now(UTC)).total_seconds() if deadline is not None else None
    return {
        "approval_id": event.id,
        "id": event.id,
        "name": event.tool_name,
        "arguments": event.arguments,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "timeout_s": round(left, 1) if left is not None else None,
    }

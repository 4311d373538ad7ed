"""Durable turns: a ChatClient's turns as DBOS workflows that survive a crash at any step.

Install the ``dbos`` extra (``pip install springtail[dbos]``). Importing this
module registers springtail's workflow with DBOS; the application owns
``DBOS(config)`` and ``DBOS.launch()``, and builds its
[`DurableChatClient`][]s before launching, so that the turns DBOS recovers
find their client::

    from dbos import DBOS
    from springtail.durable import DurableChatClient, sqlite_system_database

    url = sqlite_system_database("data/dbos.sqlite")   # WAL mode: one fsync a commit
    DBOS(config={"name": "shop", "system_database_url": url})
    durable = DurableChatClient(client, name="shop")
    DBOS.launch()          # recovers the unfinished turns of this executor
    reply = durable.call("Reserve 2 of SKU-100", conversation_id="c1", turn=1)

Each model call and each tool call is a step; each memory read and write is
one too. See ``docs/durability.md`` for what is guaranteed and what is not.
"""

from springtail.durable._approval import (
    APPROVAL_EVENT,
    WaitingCall,
    aapprove,
    adeny,
    approval_topic,
    approve,
    deny,
)
from springtail.durable._client import DurableChatClient, turn_workflow_id
from springtail.durable._sqlite import sqlite_system_database
from springtail.durable._steps import (
    INTERRUPTED_NOTICE,
    MODEL_STEP,
    TOOL_STARTED_STEP,
    TOOL_STEP,
    ToolInterruptedError,
)
from springtail.durable._stream import EVENTS_STREAM
from springtail.durable._workflow import TURN_WORKFLOW, TurnRequest, turn_workflow

__all__ = [
    "APPROVAL_EVENT",
    "EVENTS_STREAM",
    "INTERRUPTED_NOTICE",
    "MODEL_STEP",
    "TOOL_STARTED_STEP",
    "TOOL_STEP",
    "TURN_WORKFLOW",
    "DurableChatClient",
    "ToolInterruptedError",
    "TurnRequest",
    "WaitingCall",
    "aapprove",
    "adeny",
    "approval_topic",
    "approve",
    "deny",
    "sqlite_system_database",
    "turn_workflow",
    "turn_workflow_id",
]

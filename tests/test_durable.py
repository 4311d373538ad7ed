"""springtail.durable in one process: steps, replay, retry rules, idempotency keys, approvals.

DBOS's documented test setup: a fresh system database per test (a temporary
SQLite file), reset, launched, and destroyed afterwards. A crash in the
middle of a tool is reproduced with ``DBOS.fork_workflow``: the fork copies
the steps before the tool's step (the *started* marker included) and runs
the rest again, which is what a recovered workflow does after the process
died inside the tool. The real kill -9 runs are in test_durable_crash.py.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("dbos", reason="needs the dbos extra")

from dbos import DBOS

from springtail import (
    ChatClient,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    SqliteChatMemoryRepository,
    TextDelta,
    ToolApprovalRequested,
    ToolCallFinished,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolCallStarted,
    ToolContext,
    TurnPaused,
    defer_approval,
    tool,
)
from springtail.durable import (
    APPROVAL_EVENT,
    INTERRUPTED_NOTICE,
    MODEL_STEP,
    TOOL_STARTED_STEP,
    TOOL_STEP,
    DurableChatClient,
    WaitingCall,
    aapprove,
    approve,
    deny,
    turn_workflow_id,
)
from springtail.messages import AssistantMessage, ToolCall, ToolResponseMessage, UserMessage
from springtail.models import ScriptedChatModel


@pytest.fixture
def dbos(tmp_path: Path) -> Iterator[None]:
    DBOS.destroy()
    DBOS(config={"name": "springtail-test", "system_database_url": f"sqlite:///{tmp_path}/s.db"})
    DBOS.reset_system_database()
    DBOS.launch()
    yield
    DBOS.destroy()


class Todos:
    """A to-do list whose tool records every run and the key it was given."""

    def __init__(self) -> None:
        self.runs: list[str | None] = []

    @tool(description="Add a to-do.")
    def add_todo(self, title: str, ctx: ToolContext) -> str:
        self.runs.append(ctx.idempotency_key)
        return f"added {title}"

    @tool(description="Look a to-do up.", idempotent=True)
    def find_todo(self, title: str, ctx: ToolContext) -> str:
        self.runs.append(ctx.idempotency_key)
        return f"found {title}"


def _script(name: str = "add_todo") -> ScriptedChatModel:
    call = ToolCall("call-1", name, '{"title": "milk"}')
    return ScriptedChatModel([AssistantMessage("", (call,)), "Milk is on the list."])


def _client(
    tmp_path: Path, model: ScriptedChatModel, todos: Todos, **manager: Any
) -> tuple[ChatClient, MessageWindowChatMemory]:
    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(tmp_path / "chat.sqlite"))
    advisors: list[Any] = [MessageChatMemoryAdvisor(memory)]
    if manager:
        advisors.append(ToolCallingAdvisor(ToolCallingManager(**manager)))
    return ChatClient(model, tools=[todos], advisors=advisors), memory


def _steps(workflow_id: str) -> list[str]:
    return [s["function_name"] for s in DBOS.list_workflow_steps(workflow_id)]


def test_each_model_tool_and_memory_call_is_a_step(dbos: None, tmp_path: Path) -> None:
    model, todos = _script(), Todos()
    client, memory = _client(tmp_path, model, todos)
    durable = DurableChatClient(client, name="steps")

    reply = durable.call("Add milk", conversation_id="c1", turn=1)

    assert reply.text == "Milk is on the list."
    assert _steps("c1:1") == [
        "springtail.memory.get",
        "springtail.memory.add",
        MODEL_STEP,
        TOOL_STARTED_STEP,
        TOOL_STEP,
        MODEL_STEP,
        "springtail.memory.add",
    ]
    assert memory.get("c1") == [
        UserMessage("Add milk"),
        AssistantMessage("Milk is on the list."),
    ]


def test_a_finished_turn_started_again_replays_instead_of_running(
    dbos: None, tmp_path: Path
) -> None:
    model, todos = _script(), Todos()
    client, memory = _client(tmp_path, model, todos)
    durable = DurableChatClient(client, name="replay")

    first = durable.call("Add milk", conversation_id="c1", turn="t1")
    again = durable.call("Add milk", conversation_id="c1", turn="t1")

    assert again == first
    assert len(model.prompts) == 2  # the model was not asked again
    assert len(todos.runs) == 1
    assert len(memory.get("c1")) == 2  # each message once


def test_the_idempotency_key_is_the_workflow_id_and_the_tool_step(
    dbos: None, tmp_path: Path
) -> None:
    model, todos = _script(), Todos()
    client, _ = _client(tmp_path, model, todos)
    DurableChatClient(client, name="keys").call("Add milk", conversation_id="c9", turn=4)

    assert turn_workflow_id("c9", 4) == "c9:4"
    tool_step = _steps("c9:4").index(TOOL_STEP) + 1  # step ids count from 1
    assert todos.runs == [f"c9:4:{tool_step}"]


def test_outside_a_workflow_the_client_runs_plainly(tmp_path: Path) -> None:
    model, todos = _script(), Todos()
    client, _ = _client(tmp_path, model, todos)
    durable = DurableChatClient(client, name="plain")

    reply = durable.durable_view.prompt("Add milk").call()

    assert reply.content() == "Milk is on the list."
    assert todos.runs == [None]


def _fork_at_tool(workflow_id: str) -> Any:
    """Run the turn again from its tool step, as recovery does after a crash inside the tool."""
    tool_step = _steps(workflow_id).index(TOOL_STEP) + 1
    return DBOS.fork_workflow(workflow_id, tool_step)


def test_an_interrupted_tool_is_not_run_again_and_the_model_is_told(
    dbos: None, tmp_path: Path
) -> None:
    model = ScriptedChatModel(
        [
            AssistantMessage("", (ToolCall("call-1", "add_todo", '{"title": "milk"}'),)),
            "Milk is on the list.",
            "I could not tell whether milk was added.",
        ]
    )
    todos = Todos()
    client, _ = _client(tmp_path, model, todos)
    durable = DurableChatClient(client, name="interrupted")
    durable.call("Add milk", conversation_id="c1", turn=1)

    recovered = _fork_at_tool("c1:1").get_result()

    assert recovered.text == "I could not tell whether milk was added."
    assert len(todos.runs) == 1  # not run a second time
    answer = model.prompts[-1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    response = answer.responses[0]
    assert response.is_error
    assert response.response_data == INTERRUPTED_NOTICE.format(name="add_todo")


def test_an_interrupted_idempotent_tool_runs_again_with_the_same_kind_of_key(
    dbos: None, tmp_path: Path
) -> None:
    model = ScriptedChatModel(
        [
            AssistantMessage("", (ToolCall("call-1", "find_todo", '{"title": "milk"}'),)),
            "Found it.",
            "Found it again.",
        ]
    )
    todos = Todos()
    client, _ = _client(tmp_path, model, todos)
    DurableChatClient(client, name="idempotent").call("Find milk", conversation_id="c1", turn=1)

    handle = _fork_at_tool("c1:1")

    assert handle.get_result().text == "Found it again."
    tool_step = _steps("c1:1").index(TOOL_STEP) + 1
    assert todos.runs == [f"c1:1:{tool_step}", f"{handle.workflow_id}:{tool_step}"]
    answer = model.prompts[-1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    assert answer.responses[0].response_data == "found milk"


def test_a_failing_tool_is_recorded_as_the_failure_the_model_reads(
    dbos: None, tmp_path: Path
) -> None:
    @tool
    def broken(title: str) -> str:
        """Always fails."""
        raise RuntimeError(f"no list for {title}")

    model = ScriptedChatModel(
        [AssistantMessage("", (ToolCall("call-1", "broken", '{"title": "x"}'),)), "Sorry."]
    )
    client = ChatClient(model, tools=[broken])
    reply = DurableChatClient(client, name="broken").call("x", conversation_id="c1", turn=1)

    assert reply.text == "Sorry."
    answer = model.prompts[-1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    assert answer.responses[0].is_error
    assert answer.responses[0].response_data == "no list for x"


class Shop:
    """A tool that needs a person's approval."""

    def __init__(self) -> None:
        self.orders: list[str] = []

    @tool(description="Order an item.", requires_approval=True)
    def order(self, item: str) -> str:
        self.orders.append(item)
        return f"ordered {item}"


def _approval_model() -> ScriptedChatModel:
    call = ToolCall("call-7", "order", '{"item": "milk"}')
    return ScriptedChatModel([AssistantMessage("", (call,)), "Done."])


def _wait_for_event(workflow_id: str) -> WaitingCall:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        waiting = DBOS.get_event(workflow_id, APPROVAL_EVENT, timeout_seconds=0.2)
        if waiting is not None:
            assert isinstance(waiting, WaitingCall)
            return waiting
    raise AssertionError(f"{workflow_id} never waited for an approval")


def _start(durable: DurableChatClient, conversation_id: str, turn: int) -> Any:
    return durable.start("Order milk", conversation_id=conversation_id, turn=turn)


def _approval_client(tmp_path: Path, shop: Shop, **manager: Any) -> DurableChatClient:
    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(tmp_path / "chat.sqlite"))
    client = ChatClient(
        _approval_model(),
        tools=[shop],
        advisors=[
            MessageChatMemoryAdvisor(memory),
            ToolCallingAdvisor(ToolCallingManager(approver=defer_approval, **manager)),
        ],
    )
    return DurableChatClient(client, name="approvals")


def test_a_deferred_call_waits_in_the_workflow_until_approved(dbos: None, tmp_path: Path) -> None:
    shop = Shop()
    durable = _approval_client(tmp_path, shop)
    handle = _start(durable, "c1", 1)

    waiting = _wait_for_event("c1:1")
    assert waiting == WaitingCall("call-7", "order", '{"item": "milk"}', None)
    assert shop.orders == []
    approve("c1:1", "call-7")

    assert handle.get_result().text == "Done."
    assert shop.orders == ["milk"]
    assert DBOS.get_event("c1:1", APPROVAL_EVENT, timeout_seconds=0) is None


def test_a_denied_call_answers_the_model_as_the_paused_turn_path_does(
    dbos: None, tmp_path: Path
) -> None:
    shop = Shop()
    durable = _approval_client(tmp_path, shop)
    handle = _start(durable, "c1", 1)
    _wait_for_event("c1:1")
    deny("c1:1", "call-7", "not today")
    handle.get_result()
    model = durable.client.model
    assert isinstance(model, ScriptedChatModel)
    durable_answer = model.prompts[-1].messages[-1]

    # The same turn without DBOS: it pauses, and the decision resumes it.
    plain_model = _approval_model()
    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(tmp_path / "plain.sqlite"))
    plain = ChatClient(
        plain_model,
        tools=[Shop()],
        advisors=[
            MessageChatMemoryAdvisor(memory),
            ToolCallingAdvisor(ToolCallingManager(approver=defer_approval)),
        ],
    )
    paused = plain.prompt("Order milk").advisor_param("chat_memory_conversation_id", "p").call()
    assert paused.chat_response().result is not None
    resumed = (
        plain.prompt()
        .advisor_param("chat_memory_conversation_id", "p")
        .deny("call-7", message="not today")
        .call()
    )

    assert resumed.content() == "Done."
    assert shop.orders == []
    assert durable_answer == plain_model.prompts[-1].messages[-1]


def test_an_approval_that_never_comes_counts_as_denied(dbos: None, tmp_path: Path) -> None:
    shop = Shop()
    durable = _approval_client(tmp_path, shop, approval_timeout=0.5)

    reply = _start(durable, "c1", 1).get_result()

    assert reply.text == "Done."
    assert shop.orders == []
    model = durable.client.model
    assert isinstance(model, ScriptedChatModel)
    answer = model.prompts[-1].messages[-1]
    assert isinstance(answer, ToolResponseMessage)
    assert answer.responses[0].is_error
    assert "its approval expired at" in answer.responses[0].response_data


def _shape(events: list[Any]) -> list[tuple[str, ...]]:
    """The events without their timings: kind, and the call id or the text."""
    shape: list[tuple[str, ...]] = []
    for event in events:
        if isinstance(event, TextDelta):
            shape.append(("text", event.text))
        elif isinstance(event, ToolCallFinished):
            shape.append(("finished", event.id, event.result, str(event.is_error)))
        else:
            shape.append((type(event).__name__, event.id))
    return shape


async def test_a_streamed_durable_turn_yields_the_events_of_a_plain_stream(
    dbos: None, tmp_path: Path
) -> None:
    model, todos = _script(), Todos()
    client, memory = _client(tmp_path, model, todos)
    durable = DurableChatClient(client, name="stream")

    events = [e async for e in durable.astream("Add milk", conversation_id="c1", turn=1)]

    plain_model, plain_todos = _script(), Todos()
    plain, _ = _client(tmp_path / "plain", plain_model, plain_todos)
    expected = [e async for e in plain.prompt("Add milk").astream().events()]
    assert _shape(events) == _shape(expected)
    assert ("text", "Milk ") in _shape(events)
    assert len(todos.runs) == 1
    assert memory.get("c1") == [UserMessage("Add milk"), AssistantMessage("Milk is on the list.")]
    assert (await durable.aresult("c1:1")).text == "Milk is on the list."


async def test_a_reader_that_comes_back_reads_the_turns_events_from_its_offset(
    dbos: None, tmp_path: Path
) -> None:
    model, todos = _script(), Todos()
    client, _ = _client(tmp_path, model, todos)
    durable = DurableChatClient(client, name="reconnect")
    first = [e async for e in durable.astream("Add milk", conversation_id="c1", turn=1)]

    again = [e async for e in durable.aevents("c1:1")]
    later = [e async for e in durable.aevents("c1:1", offset=2)]

    assert again == first
    assert later == first[2:]
    assert len(todos.runs) == 1


async def test_a_streamed_approval_reports_the_events_of_the_paused_turn_path(
    dbos: None, tmp_path: Path
) -> None:
    shop = Shop()
    durable = _approval_client(tmp_path, shop)
    handle = await durable.astart("Order milk", conversation_id="c1", turn=1, stream=True)
    events: list[Any] = []
    async for event in durable.aevents(handle.workflow_id):
        events.append(event)
        if isinstance(event, ToolApprovalRequested):
            await aapprove(handle.workflow_id, event.id)

    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(tmp_path / "plain.sqlite"))
    plain = ChatClient(
        _approval_model(),
        tools=[Shop()],
        advisors=[
            MessageChatMemoryAdvisor(memory),
            ToolCallingAdvisor(ToolCallingManager(approver=defer_approval)),
        ],
    )
    cid = "chat_memory_conversation_id"
    first = plain.prompt("Order milk").advisor_param(cid, "p").astream()
    paused = [e async for e in first.events()]
    second = plain.prompt().advisor_param(cid, "p").approve("call-7").astream()
    resumed = [e async for e in second.events()]

    # The paused path ends its stream with TurnPaused, and the resumed turn's new
    # stream announces the call again; the durable stream goes on instead.
    assert isinstance(paused[-1], TurnPaused)
    assert isinstance(resumed[0], ToolCallStarted)
    assert _shape(events) == _shape(paused[:-1] + resumed[1:])
    assert shop.orders == ["milk"]


def test_turns_on_a_queue_run_under_its_limits(tmp_path: Path) -> None:
    DBOS.destroy()
    DBOS(config={"name": "springtail-test", "system_database_url": f"sqlite:///{tmp_path}/q.db"})
    DBOS.reset_system_database()
    DBOS.launch()
    try:
        queue = DBOS.register_queue(
            "springtail-turns", global_concurrency=1, polling_interval_sec=0.05
        )
        model, todos = _script(), Todos()
        client, _ = _client(tmp_path, model, todos)
        durable = DurableChatClient(client, name="queued", queue=queue)

        reply = durable.call("Add milk", conversation_id="c1", turn=1)

        assert reply.text == "Milk is on the list."
        assert DBOS.get_workflow_status("c1:1") is not None
        assert DBOS.get_workflow_status("c1:1").queue_name == "springtail-turns"  # type: ignore[union-attr]
        assert len(todos.runs) == 1
    finally:
        DBOS.destroy()


def test_the_guides_first_example_runs(tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    guide = (Path(__file__).parent.parent / "docs" / "durability.md").read_text(encoding="utf-8")
    example = re.findall(r"```python\n(.*?)```", guide, flags=re.DOTALL)[0]
    (tmp_path / "example.py").write_text(example, encoding="utf-8")
    src = str(Path(__file__).parent.parent / "src")
    done = subprocess.run(
        [sys.executable, "example.py"],
        cwd=tmp_path,
        env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["idempotency key: c1:1:5", "Milk is on the list."]

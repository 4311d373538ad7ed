"""A turn that waits for a person: the loop pauses it, chat memory keeps it, any client resumes it.

Every test runs the real loop (ToolCallingAdvisor) over real chat memory
(SQLite files, in-memory, PostgreSQL) with a scripted model, with the memory
advisor outside the loop and inside it, called and streamed.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from approval_tools import RAN, at_once, lookup, reserve
from springtail import (
    HIGHEST_PRECEDENCE,
    AssistantMessage,
    ChatClient,
    ChatMemory,
    ChatModel,
    MessageChatMemoryAdvisor,
    MessageWindowChatMemory,
    Prompt,
    ScriptedChatModel,
    SqliteChatMemoryRepository,
    ToolCall,
    ToolCallingAdvisor,
    ToolCallingManager,
    ToolResponseMessage,
    UserMessage,
    defer_approval,
    tool,
)
from springtail.client import (
    APPROVAL_REQUIRED_FINISH_REASON,
    TextDelta,
    ToolApprovalDecided,
    ToolApprovalRequested,
    ToolCallFinished,
    TurnPaused,
)
from springtail.execution import ApprovalConflictError, ApprovalPendingError
from springtail.memory import InMemoryChatMemoryRepository
from springtail.messages import Message, ToolResponse

HERE = Path(__file__).resolve().parent
OUTSIDE = HIGHEST_PRECEDENCE + 200
INSIDE = HIGHEST_PRECEDENCE + 400


@pytest.fixture(autouse=True)
def _fresh() -> None:
    RAN.clear()


CALLS = (
    ToolCall("c1", "lookup", json.dumps({"sku": "SKU-1"})),
    ToolCall("c2", "reserve", json.dumps({"sku": "SKU-1", "quantity": 2})),
)


def answer(prompt: Prompt) -> str:
    last = prompt.messages[-1]
    assert isinstance(last, ToolResponseMessage), last
    return "Done: " + "; ".join(r.response_data for r in last.responses)


def asking() -> ScriptedChatModel:
    return ScriptedChatModel([AssistantMessage("Let me check.", CALLS)])


def answering() -> ScriptedChatModel:
    return ScriptedChatModel([answer])


def client(
    model: ChatModel,
    memory: ChatMemory | None,
    *,
    order: int = OUTSIDE,
    timeout: float | None = 600,
    tools: tuple[Any, ...] = (reserve, lookup),
) -> ChatClient:
    manager = ToolCallingManager(approver=defer_approval, approval_timeout=timeout)
    advisors: list[Any] = [ToolCallingAdvisor(manager)]
    if memory is not None:
        advisors.append(MessageChatMemoryAdvisor(memory, order=order))
    return ChatClient(model, tools=list(tools), advisors=advisors)


def in_(cid: str, spec: Any) -> Any:
    return spec.advisor_param(ChatMemory.CONVERSATION_ID, cid)


def run(spec: Any, streamed: bool) -> tuple[str, list[Any]]:
    """The answer's text and the events (streamed), or the text and [] (called)."""
    if not streamed:
        response = spec.call()
        return response.content(), [response]
    events = list(spec.stream().events())
    return "".join(e.text for e in events if isinstance(e, TextDelta)), events


def sqlite_memory(path: Path, window: int = 20) -> MessageWindowChatMemory:
    return MessageWindowChatMemory(SqliteChatMemoryRepository(path), max_messages=window)


def valid(history: list[Message]) -> None:
    """Every tool call has its answers right after it, and nothing answers a call not made."""
    for index, message in enumerate(history):
        if isinstance(message, ToolResponseMessage):
            before = history[index - 1] if index else None
            assert isinstance(before, AssistantMessage), history
            assert [c.id for c in before.tool_calls] == [r.id for r in message.responses]
        if isinstance(message, AssistantMessage) and message.tool_calls:
            after = history[index + 1] if index + 1 < len(history) else None
            assert isinstance(after, ToolResponseMessage), history
    if history:
        assert not isinstance(history[0], ToolResponseMessage), history


# -- pause, refuse, resume ------------------------------------------------------------


@pytest.mark.parametrize("streamed", [False, True], ids=["call", "stream"])
@pytest.mark.parametrize("order", [OUTSIDE, INSIDE], ids=["memory-outside", "memory-inside"])
def test_a_paused_turn_is_stored_and_another_client_resumes_it(
    tmp_path: Path, order: int, streamed: bool
) -> None:
    path = tmp_path / "chat.db"
    first = client(asking(), sqlite_memory(path), order=order)
    text, seen = run(in_("cv", first.prompt("Check SKU-1 and reserve 2")), streamed)

    assert RAN == ["lookup SKU-1"]  # the call that needs no approval ran, once
    if streamed:
        requested = [e for e in seen if isinstance(e, ToolApprovalRequested)]
        assert [(e.id, e.tool_name) for e in requested] == [("c2", "reserve")]
        assert isinstance(seen[-1], TurnPaused)
        assert [p.id for p in seen[-1].pending] == ["c2"]
    else:
        response = seen[0]
        assert response.chat_response().result.metadata.finish_reason == "approvalRequired"
        assert APPROVAL_REQUIRED_FINISH_REASON == "approvalRequired"
        (pending,) = response.pending_approvals()
        assert (pending.id, pending.name, pending.arguments) == (
            "c2",
            "reserve",
            CALLS[1].arguments,
        )
        assert response.paused_turn().messages == ()  # chat memory keeps the conversation

    # Stored: a fresh memory on the same file sees the question and the paused turn.
    stored = sqlite_memory(path)
    assert stored.get("cv") == [UserMessage("Check SKU-1 and reserve 2")]
    paused = stored.paused_turn("cv")
    assert paused is not None
    assert paused.assistant.tool_calls == CALLS
    assert paused.results == (ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),)

    # A new message is refused in one sentence, and nothing of it is saved.
    with pytest.raises(ApprovalPendingError, match=r"waits for a decision on reserve \(call c2\)"):
        in_("cv", client(answering(), sqlite_memory(path), order=order).prompt("hello")).call()
    assert stored.get("cv") == [UserMessage("Check SKU-1 and reserve 2")]

    # Another client (as another process would) resumes it with the decision.
    second = client(answering(), sqlite_memory(path), order=order)
    text, seen = run(in_("cv", second.prompt().approve("c2")), streamed)
    assert text == "Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"
    assert RAN == ["lookup SKU-1", "reserve SKU-1 2"]
    if streamed:
        decided = [e for e in seen if isinstance(e, ToolApprovalDecided)]
        assert [(e.id, e.approved) for e in decided] == [("c2", True)]
        assert [e.id for e in seen if isinstance(e, ToolCallFinished)] == ["c2"]

    history = stored.get("cv")
    valid(history)
    assert stored.paused_turn("cv") is None
    if order == INSIDE:  # the loop's messages are remembered too: the whole exchange, once
        assert history == [
            UserMessage("Check SKU-1 and reserve 2"),
            AssistantMessage("Let me check.", CALLS),
            ToolResponseMessage(
                (
                    ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),
                    ToolResponse("c2", "reserve", "Reserved 2 of SKU-1"),
                )
            ),
            AssistantMessage(text),
        ]
    else:  # outside the loop: the question and the answer
        assert history == [UserMessage("Check SKU-1 and reserve 2"), AssistantMessage(text)]

    # The same decision again is a conflict: nothing waits any more, nothing runs.
    with pytest.raises(ApprovalConflictError, match="Nothing waits for approval"):
        in_(
            "cv", client(answering(), sqlite_memory(path), order=order).prompt().approve("c2")
        ).call()
    assert RAN == ["lookup SKU-1", "reserve SKU-1 2"]


def test_a_denied_call_is_answered_with_a_denial_the_model_reads(tmp_path: Path) -> None:
    memory = sqlite_memory(tmp_path / "chat.db")
    in_("cv", client(asking(), memory).prompt("reserve")).call()
    model = answering()
    text = (
        in_("cv", client(model, memory).prompt().deny("c2", message="out of budget"))
        .call()
        .content()
    )
    assert RAN == ["lookup SKU-1"]
    assert "was not approved (out of budget), so it did not run" in text
    tool_answers = model.prompts[0].messages[-1]
    assert isinstance(tool_answers, ToolResponseMessage)
    assert tool_answers.responses[1].is_error


def test_every_waiting_call_needs_its_decision_and_unknown_ids_conflict(tmp_path: Path) -> None:
    memory = sqlite_memory(tmp_path / "chat.db")
    in_("cv", client(asking(), memory).prompt("reserve")).call()
    resumer = client(answering(), memory)
    with pytest.raises(ApprovalConflictError, match=r"Call 'c1' .* does not wait .*already ran"):
        in_("cv", resumer.prompt().approve("c1", "c2")).call()
    with pytest.raises(ValueError, match="Decide every call that waits at once"):
        in_("cv", resumer.prompt().decide({})).call()
    assert memory.paused_turn("cv") is not None  # refused decisions change nothing
    assert RAN == ["lookup SKU-1"]


# -- without chat memory ------------------------------------------------------------------


@pytest.mark.parametrize("streamed", [False, True], ids=["call", "stream"])
def test_without_memory_the_paused_turn_travels_as_json(streamed: bool) -> None:
    paused_response = client(asking(), None).prompt("Check SKU-1 and reserve 2").call()
    turn = paused_response.paused_turn()
    assert turn is not None
    assert turn.messages == (UserMessage("Check SKU-1 and reserve 2"),)
    kept = turn.to_json()  # what the application keeps, e.g. in its own database

    model = answering()
    text, _ = run(client(model, None).prompt().resume(kept).approve("c2"), streamed)
    assert text == "Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"
    assert RAN == ["lookup SKU-1", "reserve SKU-1 2"]
    sent = model.prompts[0].messages
    assert sent[0] == UserMessage("Check SKU-1 and reserve 2")
    assert sent[1] == AssistantMessage("Let me check.", CALLS)


def test_a_decided_turn_taken_from_memory_resumes_without_a_second_take(tmp_path: Path) -> None:
    memory = sqlite_memory(tmp_path / "chat.db", window=6)
    in_("cv", client(asking(), memory, order=INSIDE).prompt("reserve")).call()
    taken = memory.take_paused_turn("cv", {"c2": True})  # e.g. a web handler, to answer 409 early
    text = (
        in_("cv", client(answering(), memory, order=INSIDE).prompt().resume(taken)).call().content()
    )
    assert text.endswith("Reserved 2 of SKU-1")
    assert [type(m).__name__ for m in memory.get("cv")] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResponseMessage",
        "AssistantMessage",
    ]


def test_resume_requests_that_cannot_work_are_refused_in_one_sentence(tmp_path: Path) -> None:
    plain = client(answering(), None)
    with pytest.raises(ValueError, match="no paused turn to apply them to"):
        plain.prompt().approve("c2").call()
    with pytest.raises(ValueError, match="brings decisions, not a new message"):
        plain.prompt("hello").approve("c2").call()
    decided = client(asking(), None).prompt("x").call().paused_turn()
    assert decided is not None
    decided = decided.with_decisions({"c2": True})
    with pytest.raises(ValueError, match="decided already; do not pass decisions too"):
        plain.prompt().resume(decided).approve("c2").call()
    no_loop = ChatClient(answering(), tools=[reserve], tool_calling_auto_register=False)
    with pytest.raises(ValueError, match="needs the tool loop"):
        no_loop.prompt().resume(decided).call()
    with pytest.raises(TypeError, match="takes a PausedTurn or its JSON"):
        plain.prompt().resume(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("streamed", [False, True], ids=["call", "stream"])
def test_an_approved_return_direct_tool_ends_the_resumed_turn_with_its_result(
    streamed: bool,
) -> None:
    @tool(requires_approval=True, return_direct=True)
    def refund(order: str) -> str:
        """Refund an order."""
        return f"Refunded {order}"

    memory = MessageWindowChatMemory(InMemoryChatMemoryRepository())
    call = AssistantMessage("", (ToolCall("r1", "refund", '{"order": "O-7"}'),))
    in_("cv", client(ScriptedChatModel([call]), memory, tools=(refund,)).prompt("refund")).call()
    resumer = client(ScriptedChatModel([]), memory, tools=(refund,))
    text, _ = run(in_("cv", resumer.prompt().approve("r1")), streamed)
    assert text == "Refunded O-7"  # the model is not called again


@pytest.mark.parametrize("streamed", [False, True], ids=["call", "stream"])
def test_a_resumed_call_over_a_limit_ends_the_turn_saying_so(streamed: bool) -> None:
    memory = MessageWindowChatMemory(InMemoryChatMemoryRepository())
    in_("cv", client(asking(), memory).prompt("reserve")).call()
    loop = ToolCallingAdvisor(ToolCallingManager(max_total_tool_calls=1))  # one call too many
    advisors = [loop, MessageChatMemoryAdvisor(memory)]
    resumer = ChatClient(ScriptedChatModel([]), tools=[reserve, lookup], advisors=advisors)
    text, _ = run(in_("cv", resumer.prompt().approve("c2")), streamed)
    assert text.startswith("Tool call limit exceeded")
    assert RAN == ["lookup SKU-1"]


def test_a_resumed_turn_can_pause_again(tmp_path: Path) -> None:
    memory = sqlite_memory(tmp_path / "chat.db")
    in_("cv", client(asking(), memory, order=INSIDE).prompt("reserve")).call()
    again = AssistantMessage("", (ToolCall("c9", "reserve", '{"sku": "SKU-2", "quantity": 1}'),))
    response = in_(
        "cv", client(ScriptedChatModel([again]), memory, order=INSIDE).prompt().approve("c2")
    ).call()
    assert [p.id for p in response.pending_approvals()] == ["c9"]
    valid(memory.get("cv"))
    text = (
        in_("cv", client(answering(), memory, order=INSIDE).prompt().approve("c9")).call().content()
    )
    assert text == "Done: Reserved 1 of SKU-2"
    assert RAN == ["lookup SKU-1", "reserve SKU-1 2", "reserve SKU-2 1"]
    valid(memory.get("cv"))


# -- exactly once -----------------------------------------------------------------------


def _twenty_decide_at_once(make_memory: Callable[[], MessageWindowChatMemory]) -> None:
    memories = [make_memory() for _ in range(21)]
    try:
        _decide_at_once(memories)
    finally:
        for memory in memories:
            memory.repository.close()  # type: ignore[attr-defined]


def _decide_at_once(memories: list[MessageWindowChatMemory]) -> None:
    in_("cv", client(asking(), memories[0]).prompt("reserve")).call()
    clients = [client(answering(), memory) for memory in memories[1:]]
    answers: list[str] = []
    conflicts: list[Exception] = []

    def decide(resumer: ChatClient) -> Callable[[], None]:
        def run() -> None:
            try:
                answers.append(in_("cv", resumer.prompt().approve("c2")).call().content())
            except ApprovalConflictError as exc:
                conflicts.append(exc)

        return run

    at_once([decide(c) for c in clients])
    assert RAN.count("reserve SKU-1 2") == 1
    assert answers == ["Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"]
    assert len(conflicts) == 19
    assert all("Nothing waits for approval" in str(c) for c in conflicts)


def test_twenty_concurrent_identical_decisions_run_the_call_once_on_sqlite(tmp_path: Path) -> None:
    _twenty_decide_at_once(lambda: sqlite_memory(tmp_path / "chat.db"))


@pytest.mark.postgres
def test_twenty_concurrent_identical_decisions_run_the_call_once_on_postgres(
    postgres_database: str,
) -> None:
    pytest.importorskip("psycopg", reason="needs the postgres extra (psycopg 3)")
    from springtail.memory import PostgresChatMemoryRepository

    _twenty_decide_at_once(
        lambda: MessageWindowChatMemory(PostgresChatMemoryRepository(postgres_database))
    )


def test_a_paused_turn_survives_a_killed_process_and_resumes_in_a_new_one(tmp_path: Path) -> None:
    """A library user on SQLite: pause in one process, SIGKILL it, resume in another."""
    db = tmp_path / "shop.db"
    script = str(HERE / "approval_process.py")
    with subprocess.Popen(
        [sys.executable, script, str(db), "pause", "c-42", "--hang"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as paused:
        try:
            assert paused.stdout is not None
            line = paused.stdout.readline().split()
            assert line == ["PAUSED", "call-reserve"], line
        finally:
            paused.send_signal(signal.SIGKILL)
            paused.wait(timeout=30)
    assert paused.returncode == -signal.SIGKILL

    def approve() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, script, str(db), "approve", "c-42", "call-reserve"]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    resumed = approve()
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.strip() == "ANSWER Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"
    again = approve()
    assert again.returncode != 0
    assert "Nothing waits for approval in conversation 'c-42'" in again.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT sku, quantity FROM reservations").fetchall() == [("SKU-1", 2)]
    history = sqlite_memory(db).get("c-42")
    assert history == [
        UserMessage("Check SKU-1 and reserve 2"),
        AssistantMessage("Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"),
    ]


# -- expiry ----------------------------------------------------------------------------------


def test_after_its_deadline_a_waiting_call_is_denied_at_the_next_use(tmp_path: Path) -> None:
    memory = sqlite_memory(tmp_path / "chat.db")
    in_("cv", client(asking(), memory, order=INSIDE, timeout=0.05).prompt("reserve")).call()
    paused = memory.paused_turn("cv")
    assert paused is not None
    deadline = paused.pending[0].deadline
    assert deadline is not None
    while datetime.now(UTC) < deadline:
        time.sleep(0.01)

    late = client(answering(), memory, order=INSIDE)
    with pytest.raises(
        ApprovalConflictError, match=r"reserve \(call 'c2'\).*expired at .*counts as denied"
    ):
        in_("cv", late.prompt().approve("c2")).call()
    assert memory.paused_turn("cv") is not None  # the late decision changed nothing

    model = ScriptedChatModel(["Hello again."])
    assert in_("cv", client(model, memory, order=INSIDE).prompt("hello")).call().content() == (
        "Hello again."
    )
    assert RAN == ["lookup SKU-1"]  # the reservation never ran
    assert memory.paused_turn("cv") is None
    history = memory.get("cv")
    valid(history)
    assert [type(m).__name__ for m in history] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResponseMessage",
        "UserMessage",
        "AssistantMessage",
    ]
    denial = history[2].responses[1]  # type: ignore[union-attr]
    assert denial.is_error
    assert "was not approved (its approval expired at" in denial.response_data
    assert model.prompts[0].messages[-1] == UserMessage("hello")  # the model saw the denial first
    assert model.prompts[0].messages[-2] == history[2]


def test_an_expired_turn_resumed_without_memory_answers_the_denial() -> None:
    paused = client(asking(), None, timeout=0.01).prompt("reserve").call().paused_turn()
    assert paused is not None
    time.sleep(0.05)
    decided = paused.with_decisions({})  # nothing waits any more: no decision needed
    assert not decided.decisions["c2"].approved
    text = client(answering(), None).prompt().resume(decided).call().content()
    assert "its approval expired at" in text
    assert RAN == ["lookup SKU-1"]


# -- the memory window --------------------------------------------------------------------


@pytest.mark.parametrize("order", [OUTSIDE, INSIDE], ids=["memory-outside", "memory-inside"])
@pytest.mark.parametrize("window", range(1, 13))
def test_a_paused_turn_survives_every_window_size_whole(
    tmp_path: Path, window: int, order: int
) -> None:
    memory = sqlite_memory(tmp_path / "chat.db", window=window)
    earlier = ScriptedChatModel(
        [AssistantMessage("", (ToolCall("e1", "lookup", '{"sku": "SKU-0"}'),)), answer, "Fine."]
    )
    earlier_client = client(earlier, memory, order=order)
    in_("cv", earlier_client.prompt("stock of SKU-0?")).call()
    in_("cv", earlier_client.prompt("thanks")).call()
    in_("cv", client(asking(), memory, order=order).prompt("Check SKU-1 and reserve 2")).call()

    before = memory.get("cv")
    valid(before)
    assert len(before) <= window
    paused = memory.paused_turn("cv")
    assert paused is not None
    assert paused.assistant.tool_calls == CALLS  # the waiting calls stay whole, at any size
    assert [p.id for p in paused.pending] == ["c2"]
    assert paused.results == (ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),)

    model = answering()
    text = in_("cv", client(model, memory, order=order).prompt().approve("c2")).call().content()
    assert text == "Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"
    sent = model.prompts[0].messages
    valid(list(sent))
    assert sent[-2:] == (
        AssistantMessage("Let me check.", CALLS),
        ToolResponseMessage(
            (
                ToolResponse("c1", "lookup", "SKU-1: 12 in stock"),
                ToolResponse("c2", "reserve", "Reserved 2 of SKU-1"),
            )
        ),
    )
    after = memory.get("cv")
    valid(after)
    assert len(after) <= window
    assert memory.paused_turn("cv") is None
    assert after[-1] == AssistantMessage(text)  # the answer, even in a window of one


def test_a_turn_narrowed_by_tool_search_pauses_and_resumes(tmp_path: Path) -> None:
    pytest.importorskip(
        "bm25s", reason="tool search needs the search extra: pip install 'springtail[search]'"
    )
    from springtail import ToolSearch

    @tool
    def weather_forecast(city: str) -> str:
        """Weather forecast for a city for the next days."""
        return "sunny"

    memory = sqlite_memory(tmp_path / "chat.db")
    tools = (weather_forecast, reserve, lookup)

    def searching(model: ChatModel) -> ChatClient:
        manager = ToolCallingManager(approver=defer_approval)
        loop = ToolCallingAdvisor(manager, tool_search=ToolSearch(max_tools=2))
        return ChatClient(
            model, tools=list(tools), advisors=[loop, MessageChatMemoryAdvisor(memory)]
        )

    asked = asking()
    paused = in_("cv", searching(asked).prompt("Reserve 2 units of stock of SKU-1")).call()
    assert [p.id for p in paused.pending_approvals()] == ["c2"]
    offered = asked.prompts[0].options
    assert offered is not None
    assert "weather_forecast" not in [c.tool_definition.name for c in offered.tool_callbacks]
    text = in_("cv", searching(answering()).prompt().approve("c2")).call().content()
    assert text == "Done: SKU-1: 12 in stock; Reserved 2 of SKU-1"
    assert RAN == ["lookup SKU-1", "reserve SKU-1 2"]

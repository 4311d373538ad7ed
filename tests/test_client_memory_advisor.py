"""MessageChatMemoryAdvisor: history in, the new exchange out, outside and inside the loop."""

import asyncio
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from springtail import tool
from springtail.client import (
    HIGHEST_PRECEDENCE,
    ChatClient,
    MessageChatMemoryAdvisor,
    ToolCallingAdvisor,
    ToolCallStarted,
)
from springtail.memory import ChatMemory, MessageWindowChatMemory, SqliteChatMemoryRepository
from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    Generation,
    GenerationMetadata,
    Message,
    SystemMessage,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models import ScriptedChatModel


@tool
def lookup(sku: str) -> str:
    """Stock of a product."""
    return f"{sku}: 7 in stock"


@tool(return_direct=True)
def summary(topic: str) -> str:
    """A finished summary."""
    return f"Summary of {topic}"


TOOL_CALL = AssistantMessage("", (ToolCall("c1", "lookup", '{"sku": "A"}'),))


def kinds(messages: list[Message] | tuple[Message, ...]) -> list[str]:
    return [type(m).__name__ for m in messages]


def test_outside_the_loop_remembers_user_and_final_answer() -> None:
    memory = MessageWindowChatMemory()
    model = ScriptedChatModel([TOOL_CALL, "7 left.", "You asked about A."])
    client = ChatClient(
        model, system="sys", tools=[lookup], advisors=[MessageChatMemoryAdvisor(memory)]
    )
    assert client.prompt("Stock of A?").call().content() == "7 left."
    assert memory.get("default") == [UserMessage("Stock of A?"), AssistantMessage("7 left.")]
    client.prompt("What did I ask?").call().content()
    assert model.prompts[2].messages == (
        SystemMessage("sys"),
        UserMessage("Stock of A?"),
        AssistantMessage("7 left."),
        UserMessage("What did I ask?"),
    )


def test_conversation_id_param_picks_the_conversation() -> None:
    memory = MessageWindowChatMemory()
    model = ScriptedChatModel(["one", "two", "three"])
    client = ChatClient(model, advisors=[MessageChatMemoryAdvisor(memory)])
    client.prompt("to c1").advisor_param(ChatMemory.CONVERSATION_ID, "c1").call().content()
    client.prompt("to c2").advisor_param(ChatMemory.CONVERSATION_ID, "c2").call().content()
    client.prompt("to default").call().content()
    assert memory.get("c1") == [UserMessage("to c1"), AssistantMessage("one")]
    assert memory.get("c2") == [UserMessage("to c2"), AssistantMessage("two")]
    assert memory.get("default") == [UserMessage("to default"), AssistantMessage("three")]
    assert model.prompts[1].messages == (UserMessage("to c2"),)


@pytest.mark.parametrize("history_enabled", [True, False])
def test_inside_the_loop_remembers_tool_calls_with_their_responses(
    history_enabled: bool,
) -> None:
    memory = MessageWindowChatMemory()
    memory.add("default", [UserMessage("earlier"), AssistantMessage("earlier answer")])
    model = ScriptedChatModel([TOOL_CALL, "7 left."])
    client = ChatClient(
        model,
        system="sys",
        tools=[lookup],
        advisors=[
            ToolCallingAdvisor(conversation_history_enabled=history_enabled),
            MessageChatMemoryAdvisor(memory, order=HIGHEST_PRECEDENCE + 1000),
        ],
    )
    assert client.prompt("Stock of A?").call().content() == "7 left."
    remembered = memory.get("default")
    assert kinds(remembered) == [
        "UserMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
        "ToolResponseMessage",
        "AssistantMessage",
    ]
    assert remembered[3] == TOOL_CALL
    # The second model call sees the whole conversation exactly once.
    second = model.prompts[1].messages
    assert kinds(second) == ["SystemMessage", *kinds(remembered[:5])]
    assert second[1:] == tuple(remembered[:5])


def test_a_pending_tool_call_is_never_saved_without_its_responses() -> None:
    memory = MessageWindowChatMemory()
    model = ScriptedChatModel(
        [AssistantMessage("", (ToolCall("c1", "summary", '{"topic": "x"}'),))]
    )
    client = ChatClient(
        model,
        tools=[summary],
        advisors=[
            ToolCallingAdvisor(),
            MessageChatMemoryAdvisor(memory, order=0),
        ],
    )
    assert client.prompt("sum up").call().content() == "Summary of x"
    remembered = memory.get("default")
    assert remembered == [UserMessage("sum up")]
    assert not any(isinstance(m, ToolResponseMessage) for m in remembered)


def test_unexecuted_tool_calls_are_not_remembered() -> None:
    memory = MessageWindowChatMemory()
    model = ScriptedChatModel([TOOL_CALL])
    client = ChatClient(
        model,
        tools=[lookup],
        advisors=[MessageChatMemoryAdvisor(memory)],
        tool_calling_auto_register=False,
    )
    assert client.prompt("q").call().chat_response().has_tool_calls()
    assert memory.get("default") == [UserMessage("q")]


def test_request_system_message_wins_over_a_remembered_one() -> None:
    memory = MessageWindowChatMemory()
    memory.add("default", [SystemMessage("old sys"), UserMessage("u"), AssistantMessage("a")])
    model = ScriptedChatModel(["x", "y"])
    client = ChatClient(model, advisors=[MessageChatMemoryAdvisor(memory)])
    client.prompt("q").system("new sys").call().content()
    assert model.prompts[0].messages[0] == SystemMessage("new sys")
    assert kinds(model.prompts[0].messages).count("SystemMessage") == 1
    client.prompt("q2").call().content()
    assert model.prompts[1].messages[0] == SystemMessage("old sys")


def test_stream_remembers_the_whole_streamed_answer() -> None:
    memory = MessageWindowChatMemory()
    model = ScriptedChatModel([TOOL_CALL, "seven are left"])
    client = ChatClient(model, tools=[lookup], advisors=[MessageChatMemoryAdvisor(memory)])
    assert "".join(client.prompt("Stock?").stream().content()) == "seven are left"
    assert memory.get("default") == [UserMessage("Stock?"), AssistantMessage("seven are left")]


def test_first_generation_with_text_is_what_is_remembered() -> None:
    memory = MessageWindowChatMemory()
    response = ChatResponse(
        (
            Generation(AssistantMessage("first"), GenerationMetadata("stop")),
            Generation(AssistantMessage("second")),
        ),
    )
    client = ChatClient(ScriptedChatModel([response]), advisors=[MessageChatMemoryAdvisor(memory)])
    client.prompt("q").call().content()
    assert memory.get("default")[-1] == AssistantMessage("first")


def test_empty_conversation_id_is_rejected() -> None:
    with pytest.raises(ValueError, match="conversation_id"):
        MessageChatMemoryAdvisor(MessageWindowChatMemory(), conversation_id="")


async def test_a_locked_database_does_not_stall_the_event_loop(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(path, busy_timeout=3))
    client = ChatClient(ScriptedChatModel(["hi"]), advisors=[MessageChatMemoryAdvisor(memory)])
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another program is writing: saves must wait
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    # The lock is released by the event loop itself: if the advisor blocked the
    # loop while waiting for it, the release would never come.
    asyncio.get_running_loop().call_later(0.4, holder.execute, "COMMIT")
    try:
        response = await client.prompt("hello").acall()
    finally:
        task.cancel()
        holder.close()
    assert response.content() == "hi"
    assert ticks >= 20
    assert memory.get("default") == [UserMessage("hello"), AssistantMessage("hi")]


# -- streamed and called turns leave the same, valid memory (issue 15, item 1) ---------


def three_rounds() -> list[AssistantMessage | str]:
    return [
        AssistantMessage("", (ToolCall(f"c{i}", "lookup", f'{{"sku": "S{i}"}}'),))
        for i in (1, 2, 3)
    ] + ["All three are in stock."]


def final_step_client(model: ScriptedChatModel, memory: MessageWindowChatMemory) -> ChatClient:
    """support-bot's `final` layout: memory inside the tool loop."""
    return ChatClient(
        model,
        system="sys",
        tools=[lookup],
        advisors=[
            MessageChatMemoryAdvisor(memory, order=HIGHEST_PRECEDENCE + 400),
            ToolCallingAdvisor(),
        ],
    )


def assert_valid_history(messages: list[Message]) -> None:
    """Every assistant tool call is followed by exactly its tool responses, and only then."""
    for index, message in enumerate(messages):
        if isinstance(message, AssistantMessage) and message.tool_calls:
            follower = messages[index + 1] if index + 1 < len(messages) else None
            assert isinstance(follower, ToolResponseMessage), (index, messages)
            assert [r.id for r in follower.responses] == [c.id for c in message.tool_calls]
        if isinstance(message, ToolResponseMessage):
            before = messages[index - 1] if index else None
            assert isinstance(before, AssistantMessage), (index, messages)
            assert before.tool_calls, (index, messages)


def test_a_streamed_turn_with_three_rounds_stores_what_a_called_turn_stores() -> None:
    called, streamed = MessageWindowChatMemory(), MessageWindowChatMemory()
    final_step_client(ScriptedChatModel(three_rounds()), called).prompt("Stock?").call()
    events = list(
        final_step_client(ScriptedChatModel(three_rounds()), streamed)
        .prompt("Stock?")
        .stream()
        .events()
    )
    assert kinds(called.get("default")) == [
        "UserMessage",
        *["AssistantMessage", "ToolResponseMessage"] * 3,
        "AssistantMessage",
    ]
    assert streamed.get("default") == called.get("default")
    assert_valid_history(streamed.get("default"))
    assert sum(isinstance(e, ToolCallStarted) for e in events) == 3


def test_each_iteration_reads_the_history_once() -> None:
    reads: list[str] = []

    class CountingMemory(MessageWindowChatMemory):
        def get(self, conversation_id: str) -> list[Message]:
            reads.append(conversation_id)
            return super().get(conversation_id)

    memory = CountingMemory()
    final_step_client(ScriptedChatModel(three_rounds()), memory).prompt("Stock?").call()
    assert reads == ["default"]


Round = list[tuple[str, str]]


@st.composite
def scripts(draw: st.DrawFn) -> list[list[Round]]:
    """Turns, each a list of tool rounds, each a list of (sku, text) calls."""
    sku = st.sampled_from(["A", "B", "C"])
    call_list = st.lists(st.tuples(sku, st.sampled_from(["", "checking"])), min_size=1, max_size=3)
    return draw(st.lists(st.lists(call_list, max_size=3), min_size=1, max_size=3))


def script_of(turns: list[list[Round]]) -> list[AssistantMessage | str]:
    replies: list[AssistantMessage | str] = []
    for t, rounds in enumerate(turns):
        for r, calls in enumerate(rounds):
            text = calls[0][1]
            replies.append(
                AssistantMessage(
                    text,
                    tuple(
                        ToolCall(f"t{t}r{r}c{i}", "lookup", f'{{"sku": "{sku}"}}')
                        for i, (sku, _) in enumerate(calls)
                    ),
                )
            )
        replies.append(f"Answer {t}, all done.")
    return replies


@settings(max_examples=40, deadline=None)
@given(
    turns=scripts(),
    inside=st.booleans(),
    history_enabled=st.booleans(),
)
def test_call_and_stream_leave_the_same_valid_memory(
    turns: list[list[Round]], inside: bool, history_enabled: bool
) -> None:
    memories = []
    for mode in ("call", "stream"):
        memory = MessageWindowChatMemory(max_messages=1000)
        model = ScriptedChatModel(script_of(turns))
        client = ChatClient(
            model,
            system="sys",
            tools=[lookup],
            advisors=[
                MessageChatMemoryAdvisor(
                    memory, order=HIGHEST_PRECEDENCE + (400 if inside else 200)
                ),
                ToolCallingAdvisor(conversation_history_enabled=history_enabled or not inside),
            ],
        )
        for t in range(len(turns)):
            spec = client.prompt(f"question {t}")
            if mode == "call":
                spec.call()
            else:
                list(spec.stream().events())
        stored = memory.get("default")
        assert_valid_history(stored)
        memories.append(stored)
    assert memories[0] == memories[1]


@pytest.mark.parametrize("limit", ["tool calls", "model calls"])
def test_a_turn_ended_by_a_limit_stores_the_same_when_streamed(limit: str) -> None:
    from springtail.execution import ToolCallingManager

    def script() -> ScriptedChatModel:
        return ScriptedChatModel(
            [
                AssistantMessage("Let me check.", (ToolCall("c1", "lookup", '{"sku": "A"}'),)),
                AssistantMessage("Once more.", (ToolCall("c2", "lookup", '{"sku": "B"}'),)),
            ]
        )

    def client(model: ScriptedChatModel, memory: MessageWindowChatMemory) -> ChatClient:
        loop = (
            ToolCallingAdvisor(ToolCallingManager(max_calls_per_tool=1))
            if limit == "tool calls"
            else ToolCallingAdvisor(max_model_calls=2)
        )
        return ChatClient(model, tools=[lookup], advisors=[MessageChatMemoryAdvisor(memory), loop])

    called, streamed = MessageWindowChatMemory(), MessageWindowChatMemory()
    client(script(), called).prompt("Stock?").call()
    list(client(script(), streamed).prompt("Stock?").stream().events())
    assert streamed.get("default") == called.get("default")
    assert "limit exceeded" in called.get("default")[-1].text  # type: ignore[union-attr]

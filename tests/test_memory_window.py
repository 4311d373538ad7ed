"""MessageWindowChatMemory: the window rules of API.md §5, on the in-memory store."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings, strategies as st

from springtail.memory import (
    ChatMemory,
    ChatMemoryRepository,
    InMemoryChatMemoryRepository,
    MessageWindowChatMemory,
)
from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)


def tool_turn(n: int, calls: int = 1) -> list[Message]:
    """An assistant message calling ``calls`` tools, then their responses."""
    tool_calls = tuple(ToolCall(f"call-{n}-{i}", "calc", f'{{"n": {i}}}') for i in range(calls))
    responses = tuple(ToolResponse(c.id, c.name, str(n)) for c in tool_calls)
    return [AssistantMessage("", tool_calls), ToolResponseMessage(responses)]


def test_conversation_id_constant_matches_spring() -> None:
    assert ChatMemory.CONVERSATION_ID == "chat_memory_conversation_id"
    assert MessageWindowChatMemory.CONVERSATION_ID == "chat_memory_conversation_id"


def test_default_window_is_20_messages_on_an_in_memory_repository() -> None:
    memory = MessageWindowChatMemory()
    assert memory.max_messages == 20
    assert isinstance(memory.repository, InMemoryChatMemoryRepository)
    memory.add("c", [UserMessage(str(i)) for i in range(25)])
    assert [m.text for m in memory.get("c")] == [str(i) for i in range(5, 25)]  # type: ignore[union-attr]


def test_each_default_memory_gets_its_own_repository() -> None:
    first, second = MessageWindowChatMemory(), MessageWindowChatMemory()
    first.add("c", [UserMessage("only in the first")])
    assert second.get("c") == []


def test_add_appends_in_order_and_get_returns_a_copy() -> None:
    memory = MessageWindowChatMemory()
    memory.add("c", [UserMessage("hi")])
    memory.add("c", [AssistantMessage("hello")])
    memory.add("c", UserMessage("a single message is accepted too"))
    history = memory.get("c")
    assert history == [
        UserMessage("hi"),
        AssistantMessage("hello"),
        UserMessage("a single message is accepted too"),
    ]
    history.clear()
    assert len(memory.get("c")) == 3


def test_conversations_are_separate_and_clear_forgets_one() -> None:
    memory = MessageWindowChatMemory()
    memory.add("a", [UserMessage("for a")])
    memory.add("b", [UserMessage("for b")])
    memory.clear("a")
    assert memory.get("a") == []
    assert memory.get("b") == [UserMessage("for b")]
    assert memory.repository.find_conversation_ids() == ["b"]


def test_system_message_is_kept_first_while_old_messages_are_dropped() -> None:
    memory = MessageWindowChatMemory(max_messages=4)
    memory.add("c", [SystemMessage("be brief"), UserMessage("u0")])
    for i in range(1, 6):
        memory.add("c", [AssistantMessage(f"a{i - 1}"), UserMessage(f"u{i}")])
    history = memory.get("c")
    assert len(history) == 4
    assert history[0] == SystemMessage("be brief")
    assert history[1:] == [UserMessage("u4"), AssistantMessage("a4"), UserMessage("u5")]


def test_new_system_message_replaces_the_old_one_and_goes_first() -> None:
    memory = MessageWindowChatMemory()
    memory.add("c", [SystemMessage("old"), UserMessage("u1"), AssistantMessage("a1")])
    memory.add("c", [UserMessage("u2"), SystemMessage("new")])
    assert memory.get("c") == [
        SystemMessage("new"),
        UserMessage("u1"),
        AssistantMessage("a1"),
        UserMessage("u2"),
    ]


def test_adding_the_same_system_message_again_changes_nothing() -> None:
    memory = MessageWindowChatMemory()
    memory.add("c", [SystemMessage("rules"), UserMessage("u1")])
    memory.add("c", [SystemMessage("rules"), UserMessage("u2")])
    assert memory.get("c") == [SystemMessage("rules"), UserMessage("u1"), UserMessage("u2")]


def test_tool_call_and_its_responses_are_dropped_together() -> None:
    memory = MessageWindowChatMemory(max_messages=4)
    memory.add("c", [UserMessage("u1"), *tool_turn(1), AssistantMessage("a1")])
    memory.add("c", [UserMessage("u2")])
    # Five messages: dropping only u1 would leave a history that starts with
    # the tool-calling assistant message; dropping one more would split it.
    history = memory.get("c")
    assert not isinstance(history[0], ToolResponseMessage)
    assert len(history) <= 4
    assert history == [UserMessage("u2")]  # starts at a user turn, as every provider accepts


def test_group_with_several_tool_response_messages_stays_whole() -> None:
    calls = (ToolCall("x", "t", "{}"), ToolCall("y", "t", "{}"))
    group: list[Message] = [
        AssistantMessage("", calls),
        ToolResponseMessage((ToolResponse("x", "t", "1"),)),
        ToolResponseMessage((ToolResponse("y", "t", "2"),)),
    ]
    memory = MessageWindowChatMemory(max_messages=4)
    memory.add("c", [UserMessage("u1"), *group])
    memory.add("c", [AssistantMessage("done")])
    assert memory.get("c") == [*group, AssistantMessage("done")]


def test_a_long_tool_loop_keeps_the_newest_whole_groups() -> None:
    memory = MessageWindowChatMemory(max_messages=5)
    memory.add("c", [UserMessage("go")])
    for n in range(4):
        memory.add("c", tool_turn(n))
    # No user message fits: the window keeps two whole groups, never half of one.
    assert memory.get("c") == [*tool_turn(2), *tool_turn(3)]


def test_a_group_larger_than_the_window_is_dropped_whole() -> None:
    memory = MessageWindowChatMemory(max_messages=2)
    memory.add("c", [UserMessage("u")])
    memory.add("c", tool_turn(1, calls=1)[:1])  # assistant with a tool call, responses to come
    memory.add("c", tool_turn(1, calls=1)[1:])
    assert memory.get("c") == tool_turn(1)
    memory.add("c", [SystemMessage("s")])
    assert memory.get("c") == [SystemMessage("s")]


def test_orphaned_tool_response_never_leads_a_trimmed_history() -> None:
    repository = InMemoryChatMemoryRepository()
    orphan = ToolResponseMessage((ToolResponse("gone", "t", "1"),))
    repository.save_all("c", [orphan, AssistantMessage("a1"), AssistantMessage("a2")])
    memory = MessageWindowChatMemory(repository, max_messages=3)
    memory.add("c", [AssistantMessage("a3")])
    assert memory.get("c") == [
        AssistantMessage("a1"),
        AssistantMessage("a2"),
        AssistantMessage("a3"),
    ]
    memory = MessageWindowChatMemory(repository, max_messages=2)
    repository.save_all("c", [AssistantMessage("a0"), orphan, AssistantMessage("a1")])
    memory.add("c", [AssistantMessage("a2")])
    assert memory.get("c") == [AssistantMessage("a1"), AssistantMessage("a2")]


def test_adding_nothing_leaves_the_conversation_alone() -> None:
    memory = MessageWindowChatMemory()
    memory.add("c", [])
    assert memory.repository.find_conversation_ids() == []


@pytest.mark.parametrize("bad", [0, -1])
def test_window_must_hold_at_least_one_message(bad: int) -> None:
    with pytest.raises(ValueError, match="max_messages must be at least 1"):
        MessageWindowChatMemory(max_messages=bad)


def test_bad_arguments_say_what_to_pass() -> None:
    memory = MessageWindowChatMemory()
    with pytest.raises(TypeError, match=r"UserMessage\(text\)"):
        memory.add("c", "hello")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="springtail messages"):
        memory.add("c", [{"role": "user", "content": "hi"}])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="non-empty string"):
        memory.get("")
    with pytest.raises(TypeError, match="must be an int"):
        MessageWindowChatMemory(max_messages=2.5)  # type: ignore[arg-type]
    assert memory.repository.find_conversation_ids() == []
    with pytest.raises(TypeError, match=r"SqliteChatMemoryRepository\(path\)"):
        MessageWindowChatMemory("chat.db")  # type: ignore[arg-type]


class PlainRepository:
    """A user's store with only the four protocol methods (no atomic update)."""

    def __init__(self) -> None:
        self.data: dict[str, list[Message]] = {}
        self.saves = 0

    def find_conversation_ids(self) -> list[str]:
        return list(self.data)

    def find_by_conversation_id(self, conversation_id: str) -> list[Message]:
        return list(self.data.get(conversation_id, []))

    def save_all(self, conversation_id: str, messages: Sequence[Message]) -> None:
        self.saves += 1
        self.data[conversation_id] = list(messages)

    def delete_by_conversation_id(self, conversation_id: str) -> None:
        self.data.pop(conversation_id, None)


def test_any_repository_with_the_four_methods_works() -> None:
    repository = PlainRepository()
    assert isinstance(repository, ChatMemoryRepository)
    memory = MessageWindowChatMemory(repository, max_messages=2)
    memory.add("c", [UserMessage("1"), UserMessage("2"), UserMessage("3")])
    assert repository.data == {"c": [UserMessage("2"), UserMessage("3")]}
    assert repository.saves == 1


def test_concurrent_adds_from_threads_lose_nothing() -> None:
    memory = MessageWindowChatMemory(max_messages=10_000)

    def writer(name: str) -> None:
        for i in range(200):
            memory.add("c", [UserMessage(f"{name}-{i}")])

    threads = [threading.Thread(target=writer, args=(f"t{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    texts = [m.text for m in memory.get("c")]  # type: ignore[union-attr]
    assert len(texts) == 800
    for n in range(4):
        mine = [t for t in texts if t.startswith(f"t{n}-")]
        assert mine == [f"t{n}-{i}" for i in range(200)]


# --- properties: whatever is added, the window is valid for every provider ---

_call_ids = st.integers(min_value=0, max_value=10**6).map(lambda n: f"id{n}")


@st.composite
def units(draw: Callable[..., object]) -> list[Message]:
    kind = draw(st.sampled_from(["user", "assistant", "tools", "system"]))
    if kind == "user":
        return [UserMessage(str(draw(st.text(max_size=3))))]
    if kind == "assistant":
        return [AssistantMessage(str(draw(st.text(max_size=3))))]
    if kind == "system":
        return [SystemMessage(str(draw(st.sampled_from(["s1", "s2"]))))]
    n = int(draw(st.integers(min_value=1, max_value=3)))  # type: ignore[call-overload]
    ids = [str(draw(_call_ids)) for _ in range(n)]
    calls = tuple(ToolCall(i, "t", "{}") for i in ids)
    split = bool(draw(st.booleans()))
    if split:  # one ToolResponseMessage per call
        return [
            AssistantMessage("", calls),
            *(ToolResponseMessage((ToolResponse(i, "t", "r"),)) for i in ids),
        ]
    return [
        AssistantMessage("", calls),
        ToolResponseMessage(tuple(ToolResponse(i, "t", "r") for i in ids)),
    ]


def check_valid(history: list[Message], max_messages: int) -> None:
    assert len(history) <= max_messages
    systems = [i for i, m in enumerate(history) if isinstance(m, SystemMessage)]
    assert systems in ([], [0])
    body = history[1:] if systems else history
    if body:
        assert not isinstance(body[0], ToolResponseMessage)
    for index, message in enumerate(body):
        if isinstance(message, AssistantMessage) and message.tool_calls:
            # its responses follow, all of them, before anything else
            wanted = {c.id for c in message.tool_calls}
            answered: set[str] = set()
            for follower in body[index + 1 :]:
                if not isinstance(follower, ToolResponseMessage):
                    break
                answered |= {r.id for r in follower.responses}
            assert answered == wanted
        if isinstance(message, ToolResponseMessage):
            previous = body[index - 1]
            assert isinstance(previous, ToolResponseMessage) or (
                isinstance(previous, AssistantMessage) and previous.tool_calls
            )


@settings(max_examples=300, deadline=None)
@given(
    batches=st.lists(st.lists(units(), min_size=1, max_size=3), min_size=1, max_size=12),
    max_messages=st.integers(min_value=1, max_value=12),
)
def test_window_is_always_valid_and_keeps_the_newest(
    batches: list[list[list[Message]]], max_messages: int
) -> None:
    memory = MessageWindowChatMemory(max_messages=max_messages)
    everything: list[Message] = []
    latest_system: SystemMessage | None = None
    for batch in batches:
        messages = [m for unit in batch for m in unit]
        everything.extend(m for m in messages if not isinstance(m, SystemMessage))
        for m in messages:
            if isinstance(m, SystemMessage):
                latest_system = m
        memory.add("c", messages)
        history = memory.get("c")
        check_valid(history, max_messages)
        # The system message is the latest one added, when it fits.
        if latest_system is not None and history:
            assert history[0] == latest_system
        # What is kept is the newest part of the conversation, in order.
        body = [m for m in history if not isinstance(m, SystemMessage)]
        if body:
            assert everything[len(everything) - len(body) :] == body


@settings(max_examples=200, deadline=None)
@given(batches=st.lists(st.lists(units(), min_size=1, max_size=3), min_size=1, max_size=8))
def test_a_window_that_is_never_full_keeps_everything(batches: list[list[list[Message]]]) -> None:
    memory = MessageWindowChatMemory(max_messages=1000)
    expected: list[Message] = []
    for batch in batches:
        messages = [m for unit in batch for m in unit]
        memory.add("c", messages)
        expected.extend(messages)
    systems = [m for m in expected if isinstance(m, SystemMessage)]
    rest = [m for m in expected if not isinstance(m, SystemMessage)]
    assert memory.get("c") == ([systems[-1]] if systems else []) + rest

"""ToolCallingAdvisor: the loop, its endings, and streaming with tool events."""

import asyncio
from collections.abc import AsyncIterator

import pytest

from springtail import tool
from springtail.client import (
    HIGHEST_PRECEDENCE,
    LOWEST_PRECEDENCE,
    CallAdvisorChain,
    ChatClient,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
    TextDelta,
    ToolApprovalDecided,
    ToolCallFinished,
    ToolCallingAdvisor,
    ToolCallStarted,
)
from springtail.execution import ToolCallingManager
from springtail.messages import (
    AssistantMessage,
    ChatResponse,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponseMessage,
    Usage,
    UserMessage,
)
from springtail.models import ScriptedChatModel


@tool
def lookup(sku: str) -> str:
    """Stock of a product."""
    return f"{sku}: 7 in stock"


@tool
async def slow_lookup(sku: str) -> str:
    """Stock of a product, asynchronously."""
    await asyncio.sleep(0.01)
    return f"{sku}: 3 in stock"


@tool(return_direct=True)
def summary(topic: str) -> str:
    """A finished summary, handed straight to the user."""
    return f"Summary of {topic}"


@tool
def broken(sku: str) -> str:
    """Always fails."""
    raise RuntimeError(f"database down while reading {sku}")


def calls(*pairs: tuple[str, str]) -> AssistantMessage:
    return AssistantMessage(
        "", tuple(ToolCall(f"c{i}", name, args) for i, (name, args) in enumerate(pairs))
    )


def tool_reply(text: str, usage: Usage) -> ChatResponse:
    message = AssistantMessage("", (ToolCall("c0", "lookup", '{"sku": "A"}'),))
    return ChatResponse.of(message, usage=usage)


class Recorder:
    """An advisor that records every request it sees."""

    def __init__(self, order: int) -> None:
        self.order = order
        self.name = f"recorder{order}"
        self.seen: list[Prompt] = []

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        self.seen.append(request.prompt)
        return await chain.next_call(request)

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        self.seen.append(request.prompt)
        async for response in chain.next_stream(request):
            yield response


def test_inner_advisors_run_on_every_iteration_outer_ones_once() -> None:
    model = ScriptedChatModel(
        [calls(("lookup", '{"sku": "A"}')), calls(("lookup", '{"sku": "B"}')), "done"]
    )
    outer, inner = Recorder(HIGHEST_PRECEDENCE + 100), Recorder(0)
    client = ChatClient(model, tools=[lookup], advisors=[inner, outer, ToolCallingAdvisor()])
    assert client.prompt("stock?").call().content() == "done"
    assert len(outer.seen) == 1
    assert len(inner.seen) == 3
    last = inner.seen[-1].messages
    assert isinstance(last[-1], ToolResponseMessage)
    assert last[-1].responses[0].response_data == "B: 7 in stock"


def test_usage_is_summed_over_iterations() -> None:
    model = ScriptedChatModel(
        [tool_reply("", Usage(10, 2, 12)), ChatResponse.of("answer", usage=Usage(20, 5, 25))]
    )
    response = ChatClient(model, tools=[lookup]).prompt("q").call().chat_response()
    assert response.text == "answer"
    assert response.metadata.usage == Usage(30, 7, 37)


def test_return_direct_ends_the_loop_with_the_tool_results() -> None:
    model = ScriptedChatModel([calls(("summary", '{"topic": "sales"}'))])
    response = ChatClient(model, tools=[summary]).prompt("sum up").call().chat_response()
    assert len(model.prompts) == 1
    assert response.text == "Summary of sales"
    assert response.result is not None
    assert response.result.metadata.finish_reason == "returnDirect"
    assert response.result.metadata.extra["tool_name"] == "summary"


def test_history_disabled_sends_only_system_and_tool_responses() -> None:
    model = ScriptedChatModel([calls(("lookup", '{"sku": "A"}')), "done"])
    client = ChatClient(
        model,
        system="sys",
        tools=[lookup],
        advisors=[ToolCallingAdvisor(conversation_history_enabled=False)],
    )
    spec = client.prompt().messages(UserMessage("old"), AssistantMessage("older")).user("q")
    assert spec.call().content() == "done"
    assert len(model.prompts[0].messages) == 4
    second = model.prompts[1].messages
    assert len(second) == 2
    assert second[0] == SystemMessage("sys")
    assert isinstance(second[1], ToolResponseMessage)


def test_history_enabled_sends_the_whole_conversation() -> None:
    model = ScriptedChatModel([calls(("lookup", '{"sku": "A"}')), "done"])
    ChatClient(model, system="sys", tools=[lookup]).prompt("q").call().content()
    second = model.prompts[1].messages
    assert [type(m).__name__ for m in second] == [
        "SystemMessage",
        "UserMessage",
        "AssistantMessage",
        "ToolResponseMessage",
    ]


def test_limit_exceeded_ends_with_one_generation_saying_so() -> None:
    manager = ToolCallingManager(max_calls_per_tool=1)
    model = ScriptedChatModel(
        [calls(("lookup", '{"sku": "A"}')), calls(("lookup", '{"sku": "B"}')), "never"]
    )
    client = ChatClient(
        model, tools=[lookup], advisors=[ToolCallingAdvisor(tool_calling_manager=manager)]
    )
    response = client.prompt("q").call().chat_response()
    assert len(response.results) == 1
    assert response.result is not None
    assert response.result.metadata.finish_reason == "toolCallLimitExceeded"
    assert "limit" in response.text
    assert "lookup" in response.text
    assert model.remaining == 1


def test_eligibility_checker_can_stop_the_loop() -> None:
    model = ScriptedChatModel([calls(("lookup", '{"sku": "A"}'))])
    advisor = ToolCallingAdvisor(eligibility_checker=lambda response: False)
    response = ChatClient(model, tools=[lookup], advisors=[advisor]).prompt("q").call()
    assert response.chat_response().has_tool_calls()


@pytest.mark.parametrize("order", [HIGHEST_PRECEDENCE, LOWEST_PRECEDENCE, -(2**40)])
def test_order_outside_the_open_interval_is_rejected(order: int) -> None:
    with pytest.raises(ValueError, match="strictly between"):
        ToolCallingAdvisor(order=order)


def test_order_just_inside_the_interval_is_accepted() -> None:
    assert ToolCallingAdvisor(order=HIGHEST_PRECEDENCE + 1).order == HIGHEST_PRECEDENCE + 1
    assert ToolCallingAdvisor(order=LOWEST_PRECEDENCE - 1).order == LOWEST_PRECEDENCE - 1


def test_stream_events_report_tools_as_they_run_then_the_answer() -> None:
    reply = ChatResponse.of("There are 7 and 3 left.", usage=Usage(5, 5, 10))
    model = ScriptedChatModel(
        [calls(("lookup", '{"sku": "A"}'), ("slow_lookup", '{"sku": "B"}')), reply]
    )
    client = ChatClient(model, tools=[lookup, slow_lookup])
    events = list(client.prompt("stock?").stream().events())
    started = [e for e in events if isinstance(e, ToolCallStarted)]
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    texts = [e for e in events if isinstance(e, TextDelta)]
    assert {(e.id, e.tool_name, e.arguments) for e in started} == {
        ("c0", "lookup", '{"sku": "A"}'),
        ("c1", "slow_lookup", '{"sku": "B"}'),
    }
    by_id = {e.id: e for e in finished}
    assert by_id["c0"].result == "A: 7 in stock"
    assert by_id["c1"].result == "B: 3 in stock"
    assert by_id["c1"].duration_s > 0
    assert not by_id["c0"].is_error
    # every tool event comes before the first text, each start before its finish
    first_text = events.index(texts[0])
    assert all(events.index(e) < first_text for e in started + finished)
    assert all(events.index(s) < events.index(by_id[s.id]) for s in started)
    assert len(texts) > 1
    assert "".join(t.text for t in texts) == "There are 7 and 3 left."


def test_stream_reports_a_failing_tool_as_an_error() -> None:
    model = ScriptedChatModel([calls(("broken", '{"sku": "A"}')), "sorry"])
    events = list(ChatClient(model, tools=[broken]).prompt("q").stream().events())
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert len(finished) == 1
    assert finished[0].is_error
    assert "database down" in finished[0].result


def test_stream_content_is_the_final_answer_only_and_usage_adds_up() -> None:
    model = ScriptedChatModel([tool_reply("", Usage(1, 1, 2)), ChatResponse.of("all good")])
    client = ChatClient(model, tools=[lookup])
    assert "".join(client.prompt("q").stream().content()) == "all good"
    model2 = ScriptedChatModel(
        [tool_reply("", Usage(1, 1, 2)), ChatResponse.of("x y", usage=Usage(3, 3, 6))]
    )
    chunks = list(ChatClient(model2, tools=[lookup]).prompt("q").stream().chat_responses())
    total = Usage()
    for chunk in chunks:
        total = total + chunk.metadata.usage
        assert not chunk.has_tool_calls()
    assert total == Usage(4, 4, 8)


def test_stream_with_own_manager_without_relay_still_reports_tools() -> None:
    model = ScriptedChatModel([calls(("lookup", '{"sku": "A"}')), "ok"])
    advisor = ToolCallingAdvisor(tool_calling_manager=ToolCallingManager())
    events = list(
        ChatClient(model, tools=[lookup], advisors=[advisor]).prompt("q").stream().events()
    )
    assert [type(e).__name__ for e in events] == [
        "ToolCallStarted",
        "ToolCallFinished",
        "TextDelta",
    ]
    finished = events[1]
    assert isinstance(finished, ToolCallFinished)
    assert finished.result == "A: 7 in stock"


def test_stream_return_direct_streams_the_tool_result() -> None:
    model = ScriptedChatModel([calls(("summary", '{"topic": "q3"}'))])
    text = "".join(ChatClient(model, tools=[summary]).prompt("q").stream().content())
    assert text == "Summary of q3"


def test_stream_limit_exceeded_says_so() -> None:
    manager = ToolCallingManager(max_total_tool_calls=1)
    model = ScriptedChatModel(
        [calls(("lookup", '{"sku": "A"}'), ("lookup", '{"sku": "B"}')), "never"]
    )
    advisor = ToolCallingAdvisor(tool_calling_manager=manager)
    chunks = list(
        ChatClient(model, tools=[lookup], advisors=[advisor]).prompt("q").stream().chat_responses()
    )
    assert chunks[-1].result is not None
    assert chunks[-1].result.metadata.finish_reason == "toolCallLimitExceeded"


async def test_astream_events_with_async_for() -> None:
    model = ScriptedChatModel([calls(("slow_lookup", '{"sku": "Z"}')), "fine"])
    client = ChatClient(model, tools=[slow_lookup])
    kinds = [type(e).__name__ async for e in client.prompt("q").astream().events()]
    assert kinds == ["ToolCallStarted", "ToolCallFinished", "TextDelta"]


def test_text_before_tool_calls_in_one_response_is_streamed() -> None:
    # Documented decision: text that precedes a tool call is already on its way
    # when the calls arrive, so it is streamed; the loop then continues.
    first = AssistantMessage("Let me check.", (ToolCall("c0", "lookup", '{"sku": "A"}'),))
    model = ScriptedChatModel([first, "7 left."])
    events = list(ChatClient(model, tools=[lookup]).prompt("q").stream().events())
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ToolCallStarted") > kinds.index("TextDelta")
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Let me check.7 left."
    assert model.remaining == 0


class FragmentedModel:
    """Streams each tool call in its own chunk, like a provider delivering them one by one."""

    def __init__(self) -> None:
        from springtail.messages import ChatOptions

        self.default_options = ChatOptions()
        self.stream_done = False
        self.prompts: list[Prompt] = []

    async def acall(self, prompt: Prompt) -> ChatResponse:
        raise NotImplementedError

    def call(self, prompt: Prompt) -> ChatResponse:
        raise NotImplementedError

    def stream(self, prompt: Prompt) -> list[ChatResponse]:
        raise NotImplementedError

    async def astream(self, prompt: Prompt) -> AsyncIterator[ChatResponse]:
        self.prompts.append(prompt)
        if len(self.prompts) == 1:
            self.stream_done = False
            yield ChatResponse.of(AssistantMessage("", (ToolCall("a", "guarded", '{"sku": "A"}'),)))
            await asyncio.sleep(0.01)  # a tool started now would see stream_done False
            yield ChatResponse.of(AssistantMessage("", (ToolCall("b", "guarded", '{"sku": "B"}'),)))
            self.stream_done = True
        else:
            yield ChatResponse.of("both done")


def test_streamed_tool_calls_run_together_after_the_stream_ends() -> None:
    model = FragmentedModel()

    @tool
    def guarded(sku: str) -> str:
        """Fails the test if it runs before the model finished streaming."""
        return f"{sku} ran after the stream: {model.stream_done}"

    client = ChatClient(model, tools=[guarded])  # type: ignore[arg-type]
    assert "".join(client.prompt("q").stream().content()) == "both done"
    second = model.prompts[1].messages
    assistant, responses = second[-2], second[-1]
    assert isinstance(assistant, AssistantMessage)
    assert [c.id for c in assistant.tool_calls] == ["a", "b"]
    assert isinstance(responses, ToolResponseMessage)
    assert [r.response_data for r in responses.responses] == [
        "A ran after the stream: True",
        "B ran after the stream: True",
    ]


def test_breaking_out_of_an_event_stream_stops_the_request() -> None:
    model = ScriptedChatModel(["many words in this answer", "unused"])
    events = ChatClient(model).prompt("q").stream().events()
    for event in events:
        assert isinstance(event, TextDelta)
        break
    assert model.remaining == 1


def test_a_tool_calling_a_client_keeps_its_tool_events_to_itself() -> None:
    inner_model = ScriptedChatModel([calls(("lookup", '{"sku": "IN"}')), "inner answer"])
    inner = ChatClient(inner_model, tools=[lookup])

    @tool
    async def ask_expert(question: str) -> str:
        """Ask another assistant."""
        return (await inner.prompt(question).acall()).content()

    outer_model = ScriptedChatModel([calls(("ask_expert", '{"question": "stock?"}')), "relayed"])
    events = list(ChatClient(outer_model, tools=[ask_expert]).prompt("q").stream().events())
    names = [e.tool_name for e in events if isinstance(e, ToolCallStarted | ToolCallFinished)]
    assert names == ["ask_expert", "ask_expert"]
    assert inner_model.remaining == 0


def test_tools_named_in_options_are_resolved_and_described_to_the_model() -> None:
    from springtail.execution import StaticToolCallbackResolver
    from springtail.messages import ChatOptions
    from springtail.tools import tool_callbacks

    def first(prompt: Prompt) -> AssistantMessage:
        assert prompt.options is not None
        described = [cb.tool_definition.name for cb in prompt.options.tool_callbacks]
        assert described == ["lookup"]
        return calls(("lookup", '{"sku": "A"}'))

    model = ScriptedChatModel([first, "A has 7"])
    manager = ToolCallingManager(resolver=StaticToolCallbackResolver(tool_callbacks(lookup)))
    client = ChatClient(model, advisors=[ToolCallingAdvisor(manager)])
    reply = client.prompt("stock of A?").options(ChatOptions(tool_names=("lookup",))).call()
    assert reply.content() == "A has 7"
    tool_turn = model.prompts[1].messages[-1]
    assert isinstance(tool_turn, ToolResponseMessage)
    assert tool_turn.responses[0].response_data == "A: 7 in stock"


def test_an_unknown_tool_name_in_options_is_a_clear_error() -> None:
    from springtail.messages import ChatOptions

    client = ChatClient(ScriptedChatModel(["never"]), advisors=[ToolCallingAdvisor()])
    with pytest.raises(ValueError, match="'nope'"):
        client.prompt("hi").options(ChatOptions(tool_names=("nope",))).call().content()


# -- the loop ends (issue 15, item 2) ---------------------------------------------------


def endless(prompt: Prompt) -> AssistantMessage:
    """A model that asks for another lookup, with new arguments, every time."""
    n = sum(isinstance(m, ToolResponseMessage) for m in prompt.messages) + len(prompt.messages)
    return AssistantMessage("", (ToolCall(f"c{n}", "lookup", f'{{"sku": "S{n}-{id(prompt)}"}}'),))


@pytest.mark.parametrize("mode", ["call", "stream"])
def test_call_limits_count_the_turn_without_history(mode: str) -> None:
    model = ScriptedChatModel([endless] * 60)
    manager = ToolCallingManager(max_calls_per_tool=5)
    client = ChatClient(
        model,
        tools=[lookup],
        advisors=[ToolCallingAdvisor(manager, conversation_history_enabled=False)],
    )
    spec = client.prompt("go")
    if mode == "call":
        response = spec.call().chat_response()
    else:
        response = ChatResponse.of(AssistantMessage("".join(spec.stream().content())))
    assert "Tool call limit exceeded" in response.text
    assert len(model.prompts) == 6  # five calls ran; the sixth was refused


@pytest.mark.parametrize("mode", ["call", "stream"])
def test_model_calls_per_turn_are_bounded_when_refused_calls_go_on(mode: str) -> None:
    model = ScriptedChatModel([endless] * 100)
    manager = ToolCallingManager(max_calls_per_tool=2, on_limit_exceeded="error_response")
    advisor = ToolCallingAdvisor(manager, max_model_calls=12)
    client = ChatClient(model, tools=[lookup], advisors=[advisor])
    spec = client.prompt("go")
    if mode == "call":
        response = spec.call().chat_response()
        assert response.result is not None
        assert response.result.metadata.finish_reason == "modelCallLimitExceeded"
        text = response.text
    else:
        text = "".join(spec.stream().content())
    assert "Model call limit exceeded: the model was called 12 times" in text
    assert len(model.prompts) == 12
    assert max(len(p.messages) for p in model.prompts) < 30


def test_the_default_bound_stops_an_endless_model() -> None:
    model = ScriptedChatModel([endless] * 200)
    manager = ToolCallingManager(on_limit_exceeded="error_response")
    client = ChatClient(model, tools=[lookup], advisors=[ToolCallingAdvisor(manager)])
    reply = client.prompt("go").call()
    assert "Model call limit exceeded" in reply.content()
    assert len(model.prompts) == 50


def test_max_model_calls_must_be_a_positive_int() -> None:
    with pytest.raises(ValueError, match="max_model_calls"):
        ToolCallingAdvisor(max_model_calls=0)
    with pytest.raises(TypeError, match="max_model_calls"):
        ToolCallingAdvisor(max_model_calls=1.5)  # type: ignore[arg-type]


def test_an_identical_repeated_call_is_answered_not_run_again() -> None:
    runs: list[str] = []

    @tool
    def stock(sku: str) -> str:
        """Stock of a product."""
        runs.append(sku)
        return f"{sku}: 4"

    model = ScriptedChatModel(
        [
            calls(("stock", '{"sku": "A"}')),
            calls(("stock", '{"sku":"A"}')),
            calls(("stock", '{"sku": "B"}')),
            "A has 4, B has 4.",
        ]
    )
    events = list(ChatClient(model, tools=[stock]).prompt("A and B?").stream().events())
    assert runs == ["A", "B"]
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [e.is_error for e in finished] == [False, True, False]
    assert "You already called stock with these arguments" in finished[1].result
    assert "A: 4" in finished[1].result


def test_stream_events_report_the_approval_wait_apart() -> None:
    import time

    @tool(requires_approval=True)
    def reserve(sku: str) -> str:
        """Reserve a product."""
        return f"reserved {sku}"

    def person(call: ToolCall, definition: object) -> bool:
        time.sleep(0.3)
        return True

    model = ScriptedChatModel([calls(("reserve", '{"sku": "A"}')), "Reserved."])
    manager = ToolCallingManager(approver=person)
    client = ChatClient(model, tools=[reserve], advisors=[ToolCallingAdvisor(manager)])
    events = list(client.prompt("reserve A").stream().events())
    decided = [e for e in events if isinstance(e, ToolApprovalDecided)]
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert decided[0].approved
    assert decided[0].wait_s >= 0.3
    assert finished[0].approval_wait_s >= 0.3
    assert finished[0].duration_s < 0.2

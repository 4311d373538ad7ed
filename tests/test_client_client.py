"""ChatClient, its builder and request spec: defaults, tools, auto-registration, sync API."""

import asyncio
import threading
from dataclasses import dataclass

import pytest
from pydantic import BaseModel

from springtail import tool
from springtail.client import (
    TOOL_CALLING_AUTO_REGISTER,
    ChatClient,
    DuplicateToolNameError,
    ToolCallingAdvisor,
)
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models import ScriptedChatModel
from springtail.tools import ToolContext


class Calculator:
    @tool(description="Multiply two integers.")
    def multiply(self, a: int, b: int) -> int:
        return a * b


@tool
def greet(name: str, ctx: ToolContext) -> str:
    """Greet someone on behalf of the current user."""
    return f"{ctx.get('user_name', 'nobody')} says hello to {name}"


@tool(name="multiply")
def other_multiply(a: int, b: int) -> int:
    """A second tool with the same name."""
    return a * b


def call(name: str, arguments: str, id: str = "c1") -> AssistantMessage:
    return AssistantMessage("", (ToolCall(id, name, arguments),))


def last_tool_result(prompt: Prompt) -> str:
    message = prompt.messages[-1]
    assert isinstance(message, ToolResponseMessage)
    return message.responses[0].response_data


def tool_names(prompt: Prompt) -> list[str]:
    assert prompt.options is not None
    return [cb.tool_definition.name for cb in prompt.options.tool_callbacks]


def test_prompt_call_content_sends_system_then_user() -> None:
    model = ScriptedChatModel(["Hi there"])
    client = ChatClient(model, system="Be brief.")
    assert client.prompt("Hello").call().content() == "Hi there"
    assert model.prompts[0].messages == (SystemMessage("Be brief."), UserMessage("Hello"))


def test_call_runs_at_once_and_keeps_the_result_for_all_accessors() -> None:
    model = ScriptedChatModel(["only once"])
    response = ChatClient(model).prompt("q").call()
    assert len(model.prompts) == 1
    assert response.content() == "only once"
    assert response.chat_response().text == "only once"
    assert len(model.prompts) == 1


def test_call_as_a_statement_saves_the_turn_to_memory() -> None:
    from springtail.client import MessageChatMemoryAdvisor
    from springtail.memory import MessageWindowChatMemory

    memory = MessageWindowChatMemory()
    model = ScriptedChatModel(["Hello Bob."])
    client = ChatClient(model, advisors=[MessageChatMemoryAdvisor(memory)])
    client.prompt("My name is Bob.").call()
    assert memory.get("default") == [UserMessage("My name is Bob."), AssistantMessage("Hello Bob.")]


def test_builder_defaults_and_request_overrides() -> None:
    model = ScriptedChatModel(["a", "b"])
    client = (
        ChatClient.builder(model)
        .default_system("default system")
        .default_user("default user")
        .default_options(ChatOptions(temperature=0.5, max_tokens=10))
        .build()
    )
    client.prompt().call().content()
    first = model.prompts[0]
    assert first.messages == (SystemMessage("default system"), UserMessage("default user"))
    client.prompt().system("other").user("asked").options(
        ChatOptions(max_tokens=99)
    ).call().content()
    second = model.prompts[1]
    assert second.messages == (SystemMessage("other"), UserMessage("asked"))
    assert second.options is not None
    assert (second.options.temperature, second.options.max_tokens) == (0.5, 99)


def test_messages_sit_between_system_and_user() -> None:
    model = ScriptedChatModel(["ok"])
    history: list[Message] = [UserMessage("earlier"), AssistantMessage("reply")]
    ChatClient(model, system="s").prompt().messages(history).user("now").call().content()
    assert model.prompts[0].messages == (
        SystemMessage("s"),
        UserMessage("earlier"),
        AssistantMessage("reply"),
        UserMessage("now"),
    )


def test_prompt_accepts_a_whole_prompt() -> None:
    model = ScriptedChatModel(["ok"])
    prompt = Prompt(
        [SystemMessage("s"), UserMessage("u1"), AssistantMessage("a1"), UserMessage("u2")],
        ChatOptions(seed=7),
    )
    ChatClient(model).prompt(prompt).call().content()
    assert model.prompts[0].messages == prompt.messages
    assert model.prompts[0].options is not None
    assert model.prompts[0].options.seed == 7


def test_default_and_request_tools_add_up_and_run() -> None:
    model = ScriptedChatModel(
        [call("greet", '{"name": "Ann"}'), lambda p: f"done: {last_tool_result(p)}"]
    )
    client = ChatClient(model, tools=[Calculator()], tool_context={"user_name": "reader"})
    answer = client.prompt("greet Ann").tools(greet).call().content()
    assert answer == "done: reader says hello to Ann"
    assert tool_names(model.prompts[0]) == ["multiply", "greet"]


def test_request_tool_context_merges_over_default() -> None:
    model = ScriptedChatModel([call("greet", '{"name": "Bo"}'), lambda p: last_tool_result(p)])
    client = ChatClient(model, tools=[greet], tool_context={"user_name": "reader", "x": 1})
    answer = client.prompt("hi").tool_context({"user_name": "admin"}).call().content()
    assert answer == "admin says hello to Bo"


def test_duplicate_tool_names_fail_when_the_request_runs() -> None:
    model = ScriptedChatModel(["never"])
    client = ChatClient(model, tools=[Calculator()])
    with pytest.raises(DuplicateToolNameError, match="'multiply'") as info:
        client.prompt("q").tools(other_multiply).call()
    assert info.value.names == ("multiply",)
    assert isinstance(info.value, ValueError)
    assert model.prompts == []


def test_lazy_tool_provider_is_asked_once_per_call() -> None:
    asked: list[int] = []

    def provider() -> list[object]:
        asked.append(1)
        return [Calculator()]

    model = ScriptedChatModel(
        [call("multiply", '{"a": 6, "b": 7}'), lambda p: last_tool_result(p), "second"]
    )
    client = ChatClient(model, tools=[provider])
    assert asked == []  # not asked when the client is built
    assert client.prompt("6*7").call().content() == "42"
    assert len(asked) == 1  # one call with two model iterations: asked once
    client.prompt("again").call().content()
    assert len(asked) == 2


def test_tools_are_auto_registered_into_a_loop() -> None:
    model = ScriptedChatModel(
        [call("multiply", '{"a": 128, "b": 32}'), lambda p: f"It is {last_tool_result(p)}."]
    )
    client = ChatClient(model, tools=[Calculator()])
    assert client.prompt("What is 128 times 32?").call().content() == "It is 4096."
    assert len(model.prompts) == 2


def test_auto_registration_off_returns_tool_calls_unexecuted() -> None:
    model = ScriptedChatModel([call("multiply", '{"a": 1, "b": 2}')])
    client = ChatClient(model, tools=[Calculator()], tool_calling_auto_register=False)
    response = client.prompt("q").call().chat_response()
    assert response.has_tool_calls()
    assert len(model.prompts) == 1


def test_auto_registration_off_by_advisor_param() -> None:
    model = ScriptedChatModel([call("multiply", '{"a": 1, "b": 2}')])
    client = ChatClient(model, tools=[Calculator()])
    response = (
        client.prompt("q").advisor_param(TOOL_CALLING_AUTO_REGISTER, False).call().chat_response()
    )
    assert response.result is not None
    assert response.result.output.tool_calls[0].name == "multiply"
    assert len(model.prompts) == 1


def test_two_tool_calling_advisors_fail_when_the_request_runs() -> None:
    client = ChatClient(ScriptedChatModel(["x"]), advisors=[ToolCallingAdvisor()])
    spec = client.prompt("q").advisors(ToolCallingAdvisor(order=0))
    with pytest.raises(ValueError, match="2 ToolCallingAdvisors"):
        spec.call().content()


def test_mutate_gives_an_independent_builder() -> None:
    model = ScriptedChatModel(["a", "b", "c"])
    original = ChatClient(model, system="orig", tools=[Calculator()])
    changed = original.mutate().default_system("changed").default_tools(greet).build()
    original.prompt("q").call().content()
    changed.prompt("q").call().content()
    original.prompt("q").call().content()
    assert model.prompts[0].messages[0] == SystemMessage("orig")
    assert tool_names(model.prompts[0]) == ["multiply"]
    assert model.prompts[1].messages[0] == SystemMessage("changed")
    assert tool_names(model.prompts[1]) == ["multiply", "greet"]
    assert tool_names(model.prompts[2]) == ["multiply"]


def test_spec_changes_after_call_do_not_change_the_response() -> None:
    model = ScriptedChatModel(["ok"])
    spec = ChatClient(model).prompt("first")
    response = spec.call()
    spec.user("second")
    response.content()
    assert model.prompts[0].messages == (UserMessage("first"),)


async def test_acall_runs_the_request() -> None:
    model = ScriptedChatModel([call("multiply", '{"a": 3, "b": 4}'), lambda p: last_tool_result(p)])
    reply = await ChatClient(model, tools=[Calculator()]).prompt("3*4").acall()
    assert len(model.prompts) == 2
    assert reply.content() == "12"


async def test_sync_call_works_inside_a_running_event_loop() -> None:
    model = ScriptedChatModel(
        [call("multiply", '{"a": 2, "b": 2}'), lambda p: last_tool_result(p), "streamed text"]
    )
    client = ChatClient(model, tools=[Calculator()])
    # A notebook cell runs inside a loop; the sync API must not fail there.
    assert client.prompt("2*2").call().content() == "4"
    assert "".join(client.prompt("x").stream().content()) == "streamed text"


def test_sync_call_from_several_threads_at_once() -> None:
    model = ScriptedChatModel(
        [lambda p: f"echo {p.messages[-1].text}" for _ in range(16)]  # type: ignore[union-attr]
    )
    client = ChatClient(model)
    results: dict[int, str] = {}

    def worker(i: int) -> None:
        results[i] = client.prompt(f"n{i}").call().content()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: f"echo n{i}" for i in range(16)}


def test_sync_stream_from_a_thread_with_a_loop_of_its_own() -> None:
    model = ScriptedChatModel(["one two three"])
    client = ChatClient(model)
    box: list[str] = []

    def worker() -> None:
        async def inner() -> None:
            box.extend(client.prompt("q").stream().content())

        asyncio.run(inner())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert "".join(box) == "one two three"


class Weather(BaseModel):
    city: str
    celsius: float


@dataclass
class Point:
    x: int
    y: int


def test_entity_sends_the_schema_with_the_one_request_and_parses_fenced_json() -> None:
    model = ScriptedChatModel(['Here you go:\n```json\n{"city": "Oslo", "celsius": -3.5}\n```'])
    weather = ChatClient(model).prompt("Weather in Oslo?").entity(Weather)
    assert weather == Weather(city="Oslo", celsius=-3.5)
    assert len(model.prompts) == 1
    sent = model.prompts[0].messages[-1]
    assert isinstance(sent, UserMessage)
    assert sent.text.startswith("Weather in Oslo?")
    assert '"celsius"' in sent.text
    assert "JSON Schema" in sent.text
    options = model.prompts[0].options
    assert options is not None
    assert options.response_schema is not None
    assert set(options.response_schema["properties"]) == {"city", "celsius"}


async def test_aentity_is_the_async_twin() -> None:
    model = ScriptedChatModel(['{"city": "Oslo", "celsius": 1}'])
    weather = await ChatClient(model).prompt("Weather?").aentity(Weather)
    assert weather == Weather(city="Oslo", celsius=1)


def test_call_response_entity_parses_the_kept_answer_without_a_new_request() -> None:
    model = ScriptedChatModel(['{"city": "Oslo", "celsius": 2}'])
    response = ChatClient(model).prompt("Weather?").call()
    assert response.entity(Weather) == Weather(city="Oslo", celsius=2)
    assert len(model.prompts) == 1


def test_an_invalid_answer_is_asked_again_with_the_validation_error() -> None:
    model = ScriptedChatModel(['{"city": "Oslo"}', '{"city": "Oslo", "celsius": 4}'])
    weather = ChatClient(model).prompt("Weather?").entity(Weather)
    assert weather == Weather(city="Oslo", celsius=4)
    again = model.prompts[1]
    assert again.messages[-2] == AssistantMessage('{"city": "Oslo"}')
    feedback = again.messages[-1]
    assert isinstance(feedback, UserMessage)
    assert "celsius" in feedback.text
    assert "Field required" in feedback.text
    assert again.options is not None
    assert again.options.response_schema is not None


def test_the_retries_are_bounded_and_configurable() -> None:
    model = ScriptedChatModel(['{"city": "Oslo"}'] * 3)
    with pytest.raises(ValueError, match="not a valid Weather"):
        ChatClient(model).prompt("Weather?").entity(Weather, max_retries=2)
    assert len(model.prompts) == 3
    model = ScriptedChatModel(['{"city": "Oslo"}'])
    with pytest.raises(ValueError, match="not a valid Weather"):
        ChatClient(model).prompt("Weather?").call().entity(Weather, max_retries=0)
    assert len(model.prompts) == 1


def test_entity_of_list_of_dataclasses() -> None:
    model = ScriptedChatModel(['[{"x": 1, "y": 2}, {"x": 3, "y": 4}]'])
    points = ChatClient(model).prompt("points").entity(list[Point])
    assert points == [Point(1, 2), Point(3, 4)]


def test_entity_with_a_wrong_answer_says_what_does_not_fit() -> None:
    model = ScriptedChatModel(['{"city": "Oslo"}', '{"city": "Oslo"}'])
    with pytest.raises(ValueError, match=r"(?s)not a valid Weather.*celsius.*Field required"):
        ChatClient(model).prompt("q").entity(Weather)


def test_bad_arguments_are_clear_errors() -> None:
    model = ScriptedChatModel([])
    with pytest.raises(TypeError, match="is not an advisor"):
        ChatClient(model, advisors=[object()])
    with pytest.raises(TypeError, match="messages\\(\\) takes"):
        ChatClient(model).prompt().messages(["text"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="no messages"):
        ChatClient(model).prompt().call()
    with pytest.raises(TypeError, match="needs a ChatModel"):
        ChatClient(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Cannot collect tools"):
        ChatClient(model, tools=[object()])


def test_model_errors_reach_the_caller_of_every_api() -> None:
    from springtail.models import ModelError

    model = ScriptedChatModel([ModelError("server down")] * 4)
    client = ChatClient(model)
    with pytest.raises(ModelError, match="server down"):
        client.prompt("q").call().content()
    with pytest.raises(ModelError, match="server down"):
        list(client.prompt("q").stream().content())
    with pytest.raises(ModelError, match="server down"):
        list(client.prompt("q").stream().events())
    with pytest.raises(ModelError, match="server down"):
        asyncio.run(client.prompt("q").acall())


def test_duplicates_among_default_tools_fail_when_the_request_runs() -> None:
    model = ScriptedChatModel(["never"])
    client = ChatClient(model, tools=[Calculator(), other_multiply])
    with pytest.raises(DuplicateToolNameError, match="'multiply'"):
        client.prompt("q").call()


def test_a_single_tool_source_or_advisor_needs_no_list() -> None:
    model = ScriptedChatModel([call("multiply", '{"a": 5, "b": 5}'), lambda p: last_tool_result(p)])
    client = ChatClient(model, tools=Calculator(), advisors=ToolCallingAdvisor())  # type: ignore[arg-type]
    assert client.prompt("5*5").call().content() == "25"

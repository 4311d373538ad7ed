"""The small-model policy's rules, each on a scripted runtime (no weights needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fake_llama import FakeRuntime, Script, replies
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Message,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import LlamaCppChatModel
from springtail.models._llamacpp._policy import (
    DEFAULT_TOOL_GUIDANCE,
    PlainPolicy,
    SmallModelPolicy,
    ToolPolicy,
    TurnView,
)
from springtail.tools._definition import ToolDefinition, ToolMetadata


def _schema(**properties: dict[str, object]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


CALCULATE = ToolDefinition(
    "calculate",
    "Apply an operation to two numbers.",
    _schema(
        operation={"type": "string", "enum": ["add", "multiply", "divide"]},
        left={"type": "number"},
        right={"type": "number"},
    ),
)
RESERVE = ToolDefinition(
    "product_reserve",
    "Reserve units.",
    _schema(sku={"type": "string"}, quantity={"type": "integer"}),
)
TODO_ADD = ToolDefinition("todo_add", "Add a to-do.", _schema(title={"type": "string"}))
CONTACT = ToolDefinition(
    "customer_contact_lookup", "A customer's contact.", _schema(customer_id={"type": "string"})
)


class _Tool:
    def __init__(self, definition: ToolDefinition) -> None:
        self.tool_definition = definition
        self.tool_metadata = ToolMetadata()

    def call(self, tool_input: str, tool_context: object = None) -> str:
        raise AssertionError("the model never runs tools")

    async def acall(self, tool_input: str, tool_context: object = None) -> str:
        raise AssertionError("the model never runs tools")


def options(*tools: ToolDefinition) -> ChatOptions:
    return ChatOptions(tool_callbacks=tuple(_Tool(t) for t in tools))


def call_text(name: str, **arguments: object) -> str:
    body = json.dumps({"name": name, "arguments": arguments})
    return f"<tool_call>\n{body}\n</tool_call>"


def ask(
    script: Script,
    messages: list[Message],
    *tools: ToolDefinition,
    policy: ToolPolicy | None = None,
) -> tuple[AssistantMessage, FakeRuntime]:
    runtime = FakeRuntime(script)
    kwargs = {} if policy is None else {"policy": policy}
    model = LlamaCppChatModel._over(runtime, **kwargs)
    response = model.call(Prompt(messages, options(*tools)))
    assert response.result is not None
    return response.result.output, runtime


SMALL = SmallModelPolicy()
PLAIN = PlainPolicy()
CHAINS = SmallModelPolicy(call_for_result_values=True, named_instead_of_doubled=True)
PUSHED = SmallModelPolicy(after_results_call_floor=0.03, call_for_unused_values=False)

MULTIPLY = ToolCall("call_1", "calculate", '{"operation": "multiply", "left": 12, "right": 7}')


def after_result(request: str, call: ToolCall, result: str) -> list[Message]:
    return [
        SystemMessage("You are a helpful assistant."),
        UserMessage(request),
        AssistantMessage("", (call,)),
        ToolResponseMessage((ToolResponse(call.id, call.name, result),)),
    ]


# -- defaults -------------------------------------------------------------------------


def test_embedded_models_get_the_small_model_policy_and_other_ggufs_none() -> None:
    assert isinstance(LlamaCppChatModel("embedded").policy, SmallModelPolicy)
    assert isinstance(LlamaCppChatModel("embedded-small").policy, SmallModelPolicy)
    assert isinstance(LlamaCppChatModel("/models/other.gguf").policy, PlainPolicy)
    custom = SmallModelPolicy(offer_named_tools=False)
    assert LlamaCppChatModel("/models/other.gguf", policy=custom).policy is custom


def test_a_call_floor_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="follow_up_call_floor"):
        SmallModelPolicy(follow_up_call_floor=0.0)


# -- rendering ------------------------------------------------------------------------


def test_guidance_is_appended_to_the_system_prompt_only_when_tools_are_offered() -> None:
    messages: list[Message] = [SystemMessage("Be brief."), UserMessage("Hi")]
    _, runtime = ask(replies("Hello!"), messages, CALCULATE)
    assert f"Be brief.\n\n{DEFAULT_TOOL_GUIDANCE}" in runtime.prompts[0]
    _, runtime = ask(replies("Hello!"), messages)
    assert DEFAULT_TOOL_GUIDANCE not in runtime.prompts[0]
    _, runtime = ask(replies("Hello!"), messages, CALCULATE, policy=PLAIN)
    assert DEFAULT_TOOL_GUIDANCE not in runtime.prompts[0]


def test_guidance_becomes_the_system_prompt_when_there_is_none() -> None:
    _, runtime = ask(replies("Hello!"), [UserMessage("Hi")], CALCULATE)
    assert runtime.prompts[0].startswith(f"<|im_start|>system\n{DEFAULT_TOOL_GUIDANCE}")


def test_results_name_their_tool_under_the_small_policy_and_stay_bare_without() -> None:
    messages = after_result("What is 12 times 7?", MULTIPLY, "84")
    _, runtime = ask(replies("It is 84."), messages, CALCULATE)
    assert "<tool_response>\ncalculate returned: 84\n</tool_response>" in runtime.prompts[0]
    _, runtime = ask(replies("It is 84."), messages, CALCULATE, policy=PLAIN)
    assert "<tool_response>\n84\n</tool_response>" in runtime.prompts[0]


# -- the opening ----------------------------------------------------------------------


def test_a_reply_is_never_empty_under_the_small_policy() -> None:
    messages = after_result("What is 12 times 7?", MULTIPLY, "84")
    script = replies(("", 10.0), ("12 times 7 is 84.", 9.0))
    reply, _ = ask(script, messages, CALCULATE)
    assert reply.text == "12 times 7 is 84."
    reply, _ = ask(script, messages, CALCULATE, policy=PLAIN)
    assert reply.text == ""


def test_a_call_is_parsed_into_a_tool_call_with_its_arguments() -> None:
    script = replies(call_text("calculate", operation="multiply", left=128, right=32))
    reply, _ = ask(script, [UserMessage("What is 128 times 32?")], CALCULATE)
    assert [(c.name, json.loads(c.arguments)) for c in reply.tool_calls] == [
        ("calculate", {"operation": "multiply", "left": 128, "right": 32})
    ]
    assert reply.text == ""


def test_an_unknown_tool_becomes_prose_under_the_small_policy_and_a_call_without() -> None:
    script = replies(call_text("weather", city="Paris"), "I cannot check the weather.")
    messages: list[Message] = [UserMessage("What's the weather in Paris?")]
    reply, _ = ask(script, messages, CALCULATE)
    assert (reply.text, reply.tool_calls) == ("I cannot check the weather.", ())
    reply, _ = ask(script, messages, CALCULATE, policy=PLAIN)
    assert [c.name for c in reply.tool_calls] == ["weather"]


def test_a_spelled_out_tag_is_answered_in_prose_under_the_small_policy() -> None:
    script = replies("<tools></tools>", "Paris.")
    messages: list[Message] = [UserMessage("What is the capital of France?")]
    reply, _ = ask(script, messages, CALCULATE)
    assert reply.text == "Paris."
    reply, _ = ask(script, messages, CALCULATE, policy=PLAIN)
    assert reply.text == "<tools></tools>"


def test_an_identical_repeat_is_answered_in_prose_under_the_small_policy() -> None:
    messages = after_result("What is 12 times 7?", MULTIPLY, "84")
    script = replies(call_text("calculate", operation="multiply", left=12, right=7), "It is 84.")
    reply, _ = ask(script, messages, CALCULATE)
    assert (reply.text, reply.tool_calls) == ("It is 84.", ())
    reply, _ = ask(script, messages, CALCULATE, policy=PLAIN)
    assert [c.name for c in reply.tool_calls] == ["calculate"]  # the tool loop stops it


def test_the_same_tool_with_other_arguments_is_called_again() -> None:
    request = "What is 12 times 7, and what is 300 divided by 4?"
    messages = after_result(request, MULTIPLY, "84")
    script = replies(call_text("calculate", operation="divide", left=300, right=4), "84.")
    reply, _ = ask(script, messages, CALCULATE)
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [
        {"operation": "divide", "left": 300, "right": 4}
    ]


def test_a_tool_the_request_names_is_offered_once_tools_have_answered() -> None:
    request = "Reserve 2 units of SKU-100 and add that as a to-do"
    reserve = ToolCall("call_1", "product_reserve", '{"sku": "SKU-100", "quantity": 2}')
    messages = after_result(request, reserve, "Reserved 2 units of SKU-100.")
    todo = call_text("todo_add", title="Reserved 2 units of SKU-100")
    script = replies(("Done, it is reserved.", 10.0), (todo, 5.0))
    reply, _ = ask(script, messages, RESERVE, TODO_ADD, CALCULATE)
    assert [c.name for c in reply.tool_calls] == ["todo_add"]
    reply, _ = ask(script, messages, RESERVE, TODO_ADD, CALCULATE, policy=PLAIN)
    assert (reply.text, reply.tool_calls) == ("Done, it is reserved.", ())
    no_offer = SmallModelPolicy(offer_named_tools=False)
    reply, _ = ask(script, messages, RESERVE, TODO_ADD, CALCULATE, policy=no_offer)
    assert reply.tool_calls == ()


def _follow_up(request: str) -> list[Message]:
    return [
        UserMessage("Hello"),
        AssistantMessage("Hello! How can I help?"),
        UserMessage(request),
    ]


def test_a_follow_up_opens_with_a_call_when_calling_gets_the_floor_share() -> None:
    lookup = call_text("customer_contact_lookup", customer_id="C-101")
    # Calling gets about 2 % of the first token's probability: above the 1 % floor.
    script = replies(("I do not have that contact.", 10.0), (lookup, 6.0))
    reply, _ = ask(script, _follow_up("Contact of C-101?"), CONTACT)
    assert [c.name for c in reply.tool_calls] == ["customer_contact_lookup"]
    reply, _ = ask(script, _follow_up("Contact of C-101?"), CONTACT, policy=PLAIN)
    assert reply.tool_calls == ()
    # A first request is the model's own choice.
    reply, _ = ask(script, [UserMessage("Contact of C-101?")], CONTACT)
    assert reply.tool_calls == ()
    # Far below the floor (small talk): prose.
    script = replies(("You're welcome!", 10.0), (lookup, 2.0))
    reply, _ = ask(script, _follow_up("Thanks!"), CONTACT)
    assert reply.text == "You're welcome!"


# -- the view -------------------------------------------------------------------------


def test_the_turn_view_sees_this_turns_calls_and_what_succeeded() -> None:
    messages: list[Message] = [
        UserMessage("first"),
        AssistantMessage("", (ToolCall("a", "calculate", '{"left": 1}'),)),
        ToolResponseMessage((ToolResponse("a", "calculate", "1"),)),
        AssistantMessage("One."),
        UserMessage("second"),
        AssistantMessage("", (ToolCall("b", "todo_add", '{"title": "x"}'),)),
        ToolResponseMessage((ToolResponse("b", "todo_add", "no", is_error=True),)),
    ]
    view = TurnView.of(messages)
    assert view.request == "second"
    assert view.follow_up
    assert view.called() == {"todo_add"}
    assert view.succeeded == frozenset()
    assert view.repeats("todo_add", {"title": "x"})
    assert not view.repeats("todo_add", {"title": "y"})
    assert not view.repeats("calculate", {"left": 1})
    first = TurnView.of(messages[:1])
    assert (first.request, first.follow_up, first.has_results) == ("first", False, False)


def test_after_results_a_reply_opens_with_another_call_when_calling_gets_the_floor_share() -> None:
    request = "What is 12 times 7, and what is 300 divided by 4?"
    messages = after_result(request, MULTIPLY, "84")
    divide = call_text("calculate", operation="divide", left=300, right=4)
    # Calling gets about 5 % of the first token: above a 3 % floor, below a greedy pick.
    script = replies(("12 times 7 is 84.", 10.0), (divide, 7.2))
    reply, _ = ask(script, messages, CALCULATE, policy=PUSHED)
    assert [json.loads(c.arguments)["operation"] for c in reply.tool_calls] == ["divide"]
    reply, _ = ask(script, messages, CALCULATE, policy=PLAIN)
    assert reply.text == "12 times 7 is 84."
    floor_only = SmallModelPolicy(call_for_unused_values=False)
    reply, _ = ask(script, messages, CALCULATE, policy=floor_only)  # off by default
    assert reply.text == "12 times 7 is 84."
    # Done: calling far below the floor, the answer comes.
    script = replies(("12 times 7 is 84.", 10.0), (divide, 4.0))
    reply, _ = ask(script, messages, CALCULATE, policy=PUSHED)
    assert reply.text == "12 times 7 is 84."


def test_a_call_forced_by_the_floor_that_only_repeats_is_answered_in_prose() -> None:
    messages = after_result("What is 12 times 7?", MULTIPLY, "84")
    again = call_text("calculate", operation="multiply", left=12, right=7)
    script = replies(("It is 84.", 10.0), (again, 7.5))
    reply, _ = ask(script, messages, CALCULATE, policy=PUSHED)
    assert (reply.text, reply.tool_calls) == ("It is 84.", ())


def test_a_response_schema_becomes_the_answers_grammar() -> None:
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    }
    runtime = FakeRuntime(replies('{"city": "Paris"}'))
    model = LlamaCppChatModel._over(runtime)
    assert model.native_response_schema
    prompt = Prompt([UserMessage("Capital of France?")], ChatOptions(response_schema=schema))
    response = model.call(prompt)
    assert response.text == '{"city": "Paris"}'
    grammar = runtime.grammars[-1]
    assert grammar is not None
    assert '"\\"city\\""' in grammar
    # With tools offered, a reply that does not open with the call token is the JSON answer.
    runtime = FakeRuntime(replies('{"city": "Paris"}'))
    model = LlamaCppChatModel._over(runtime)
    options = ChatOptions(response_schema=schema, tool_callbacks=(_Tool(CALCULATE),))
    response = model.call(Prompt([UserMessage("Capital of France?")], options))
    assert response.text == '{"city": "Paris"}'
    assert response.result is not None
    assert response.result.output.tool_calls == ()


def _two_rounds() -> list[Message]:
    divide = ToolCall("call_2", "calculate", '{"operation": "divide", "left": 300, "right": 4}')
    return [
        *after_result("What is 12 times 7, and what is 300 divided by 4?", MULTIPLY, "84"),
        AssistantMessage("", (divide,)),
        ToolResponseMessage((ToolResponse("call_2", "calculate", "75"),)),
    ]


def test_only_the_first_call_of_a_turn_is_followed_by_a_pushed_call() -> None:
    add = call_text("calculate", operation="add", left=12, right=7)
    script = replies(("84 and 75.", 10.0), (add, 7.2))
    reply, _ = ask(script, _two_rounds(), CALCULATE, policy=PUSHED)
    assert (reply.text, reply.tool_calls) == ("84 and 75.", ())


def test_a_reply_holds_the_calls_the_model_writes_without_a_policy() -> None:
    two = call_text("calculate", operation="multiply", left=12, right=7) + call_text(
        "calculate", operation="divide", left=300, right=4
    )
    request: list[Message] = [UserMessage("What is 12 times 7, and what is 300 divided by 4?")]
    reply, _ = ask(replies(two), request, CALCULATE, policy=PLAIN)
    assert [json.loads(c.arguments)["operation"] for c in reply.tool_calls] == [
        "multiply",
        "divide",
    ]


# -- calls for the request's values ---------------------------------------------------

TWICE = "What is 12 times 7, and what is 300 divided by 4?"


def _then(first: str, second: str) -> str:
    """A reply of two calls as the model continues it after the policy asks for the second."""
    return f"{first}\n{second}"


def _operations(reply: AssistantMessage) -> list[str]:
    return [json.loads(c.arguments)["operation"] for c in reply.tool_calls]


def test_a_second_call_is_asked_for_while_the_request_holds_values_no_call_carries() -> None:
    multiply = call_text("calculate", operation="multiply", left=12, right=7)
    divide = call_text("calculate", operation="divide", left=300, right=4)
    # The model alone ends its reply after one call; asked, it writes the second.
    script = replies(multiply, _then(multiply, divide))
    reply, _ = ask(script, [UserMessage(TWICE)], CALCULATE)
    assert _operations(reply) == ["multiply", "divide"]
    off = SmallModelPolicy(call_for_unused_values=False)
    reply, _ = ask(script, [UserMessage(TWICE)], CALCULATE, policy=off)
    assert _operations(reply) == ["multiply"]
    # Every value used: nothing is asked, the reply is the one call.
    reply, runtime = ask(script, [UserMessage("What is 12 times 7?")], CALCULATE)
    assert _operations(reply) == ["multiply"]
    assert not any("</tool_call>\n<tool_call>" in p for p in runtime.prompts)


def test_once_a_call_took_values_only_values_of_their_shape_ask_for_another() -> None:
    lookup = ToolDefinition(
        "order_status", "An order's status.", _schema(order_id={"type": "integer"})
    )
    request = "What is the status of order 1042 for customer C-7?"
    status = call_text("order_status", order_id=1042)
    other = call_text("order_status", order_id=7)
    reply, runtime = ask(replies(status, _then(status, other)), [UserMessage(request)], lookup)
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"order_id": 1042}]
    assert not any("</tool_call>\n<tool_call>" in p for p in runtime.prompts)
    view = TurnView.of([UserMessage(request)])
    assert SMALL.unused_values(view, [], [lookup]) == {"1042", "c-7"}
    assert SMALL.unused_values(view, [("order_status", {"order_id": 1042})], [lookup]) == set()


def test_a_call_asked_for_is_dropped_unless_it_carries_an_unused_value() -> None:
    multiply = call_text("calculate", operation="multiply", left=12, right=7)
    again = call_text("calculate", operation="add", left=12, right=7)
    reply, _ = ask(replies(multiply, _then(multiply, again)), [UserMessage(TWICE)], CALCULATE)
    assert _operations(reply) == ["multiply"]


def test_a_call_asked_for_waits_for_a_value_only_a_result_will_give() -> None:
    chain = "What is 12 times 12, and what percentage is that of 576?"
    square = call_text("calculate", operation="multiply", left=12, right=12)
    share = call_text("percentage", part=144, total=576)
    percentage = ToolDefinition(
        "percentage",
        "What share one number is of another.",
        _schema(part={"type": "number"}, total={"type": "number"}),
    )
    # Before the result, 144 comes from nowhere: the reply is the first call alone.
    script = replies(square, _then(square, share))
    reply, _ = ask(script, [UserMessage(chain)], CALCULATE, percentage)
    assert [c.name for c in reply.tool_calls] == ["calculate"]
    # Once the result says 144, the call that carries 576 is asked for and kept.
    first = ToolCall("call_1", "calculate", '{"operation": "multiply", "left": 12, "right": 12}')
    messages = after_result(chain, first, "144")
    reply, _ = ask(replies(("144.", 10.0), (share, 2.0)), messages, CALCULATE, percentage)
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [{"part": 144, "total": 576}]


def test_after_results_a_tool_named_by_a_new_word_is_called_with_a_value_the_results_gave() -> None:
    request = "Take the average of 12, 18 and 30, and convert that many km to miles."
    average = ToolDefinition(
        "average", "The mean.", _schema(numbers={"type": "array", "items": {"type": "number"}})
    )
    convert = ToolDefinition(
        "convert_units",
        "Convert a value between units.",
        _schema(value={"type": "number"}, from_unit={"type": "string"}, to_unit={"type": "string"}),
    )
    first = ToolCall("call_1", "average", '{"numbers": [12, 18, 30]}')
    messages = after_result(request, first, "20.0")
    converted = call_text("convert_units", value=20, from_unit="km", to_unit="mi")
    script = replies(("The average is 20.", 10.0), (converted, 2.0))
    reply, _ = ask(script, messages, average, convert, policy=CHAINS)
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [
        {"value": 20, "from_unit": "km", "to_unit": "mi"}
    ]
    reply, _ = ask(script, messages, average, convert)  # off by default
    assert reply.text == "The average is 20."
    # A call that carries nothing the results gave is not the next step: the answer comes.
    unrelated = call_text("convert_units", value=12, from_unit="km", to_unit="mi")
    script = replies(("The average is 20.", 10.0), (unrelated, 2.0))
    reply, _ = ask(script, messages, average, convert, policy=CHAINS)
    assert reply.text == "The average is 20."


def test_a_follow_up_with_a_value_of_its_own_opens_with_a_call_that_carries_it() -> None:
    convert = ToolDefinition(
        "currency_convert",
        "Convert money.",
        _schema(amount={"type": "number"}, from_currency={"type": "string"}, to={"type": "string"}),
    )
    messages: list[Message] = [
        UserMessage("How much is 80 EUR in USD?"),
        AssistantMessage("80 EUR is 86.96 USD."),
        UserMessage("And in GBP?"),
    ]
    gbp = call_text("currency_convert", amount=80, from_currency="EUR", to="GBP")
    script = replies(("80 EUR is about 70 GBP.", 10.0), (gbp, 2.0))
    reply, _ = ask(script, messages, convert)
    assert [json.loads(c.arguments)["to"] for c in reply.tool_calls] == ["GBP"]
    reply, _ = ask(script, messages, convert, policy=PLAIN)
    assert reply.text == "80 EUR is about 70 GBP."
    # Asked for a call, the model writes one without the request's value: it answers instead.
    usd = call_text("currency_convert", amount=80, from_currency="EUR", to="USD")
    reply, _ = ask(replies(("Sorry.", 10.0), (usd, 2.0)), messages, convert)
    assert reply.text == "Sorry."


def test_a_call_whose_values_come_from_nowhere_is_answered_in_prose() -> None:
    between = ToolDefinition(
        "days_between",
        "Days between two dates.",
        _schema(start={"type": "string"}, end={"type": "string"}),
    )
    invented = call_text("days_between", start="2023-04-01", end="2023-04-01")
    script = replies(invented, "There are 1440 minutes in a day.")
    request: list[Message] = [UserMessage("How many minutes are there in a day?")]
    reply, runtime = ask(script, request, between)
    assert (reply.text, reply.tool_calls) == ("There are 1440 minutes in a day.", ())
    # The prose comes from the prompt without the tools, so it cannot describe a call.
    assert "days_between" in runtime.prompts[0]
    assert "days_between" not in runtime.prompts[-1]
    reply, _ = ask(script, request, between, policy=SmallModelPolicy(made_up_call_as_prose=False))
    assert [c.name for c in reply.tool_calls] == ["days_between"]
    read: list[Message] = [UserMessage("How many days from 2026-03-14 until 2026-04-01?")]
    script = replies(call_text("days_between", start="2026-03-14", end="2026-04-01"))
    reply, _ = ask(script, read, between)
    assert [c.name for c in reply.tool_calls] == ["days_between"]


def test_a_turn_cancelled_before_its_call_is_written_returns_no_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from springtail.models._llamacpp._generation import Generator
    from springtail.models._llamacpp._policy import TurnView

    runtime = FakeRuntime(replies(call_text("calculate", operation="add", left=1, right=2)))
    model = LlamaCppChatModel._over(runtime, policy=PLAIN)
    engine = model._load()
    prompt = Prompt([UserMessage("1 + 2?")], options(CALCULATE))
    tokens, opts = model._tokens(engine, prompt)
    cancel = threading.Event()
    generator = Generator(
        runtime, tokens, opts, None, cancel, policy=PLAIN, view=TurnView.of(prompt.messages)
    )
    original = generator._calls

    def cancelled_first(
        context: list[int], tools: list[ToolDefinition], *, catch_all: bool
    ) -> object:
        cancel.set()
        return original(context, tools, catch_all=catch_all)

    monkeypatch.setattr(generator, "_calls", cancelled_first)
    turn = generator.turn([CALCULATE])
    assert (turn.calls, turn.finish_reason) == ((), "cancelled")


def test_a_call_that_doubles_a_date_gives_way_to_a_tool_the_request_names() -> None:
    between = ToolDefinition(
        "days_between",
        "Days between two dates.",
        _schema(start={"type": "string"}, end={"type": "string"}),
    )
    today = ToolDefinition("today", "Today's date.", _schema())
    request: list[Message] = [UserMessage("How many days is it from today until 2026-04-01?")]
    doubled = call_text("days_between", start="2026-04-01", end="2026-04-01")
    script = replies(doubled, call_text("today"))
    reply, _ = ask(script, request, between, today, policy=CHAINS)
    assert [c.name for c in reply.tool_calls] == ["today"]
    reply, _ = ask(script, request, between, today)  # off by default
    assert [c.name for c in reply.tool_calls] == ["days_between"]
    # No other tool named: the model's call stands (the tool will say what is wrong).
    later: list[Message] = [UserMessage("Days from 2026-04-01 until then?")]
    reply, _ = ask(script, later, between, today, policy=CHAINS)
    assert [c.name for c in reply.tool_calls] == ["days_between"]


def test_a_word_the_called_tools_share_names_no_further_tool() -> None:
    from springtail.models._llamacpp._followup import partly_named_tools

    search = ToolDefinition("search_notes", "Find notes.", _schema(query={"type": "string"}))
    read = ToolDefinition("read_note", "Read a note.", _schema(note_id={"type": "string"}))
    convert = ToolDefinition("convert_units", "Convert.", _schema(value={"type": "number"}))
    tools = [search, read, convert]
    assert partly_named_tools("Do I have notes about rent?", tools, {"search_notes"}) == []
    assert partly_named_tools("Find notes and convert them", tools, {"search_notes"}) == [convert]
    assert partly_named_tools("Convert 3 km", tools, set()) == []


def test_after_results_a_value_of_another_shape_asks_for_a_call_that_uses_a_result() -> None:
    lookup = ToolDefinition("product_lookup", "A product.", _schema(sku={"type": "string"}))
    request = "What do 3 units of SKU-100 cost in total?"
    first = ToolCall("call_1", "product_lookup", '{"sku": "SKU-100"}')
    messages = after_result(request, first, '{"sku": "SKU-100", "price": 12.5}')
    # Before the result, 3 (a number after an id) asks for nothing.
    view = TurnView.of([UserMessage(request)])
    assert SMALL.unused_values(view, [("product_lookup", {"sku": "SKU-100"})], [lookup]) == set()
    total = call_text("calculate", operation="multiply", left=12.5, right=3)
    script = replies(("It costs 12.5.", 10.0), (total, 2.0))
    reply, _ = ask(script, messages, lookup, CALCULATE, policy=CHAINS)
    assert [json.loads(c.arguments) for c in reply.tool_calls] == [
        {"operation": "multiply", "left": 12.5, "right": 3}
    ]
    # The same value without one the results gave is not the next step.
    guess = call_text("calculate", operation="add", left=3, right=3)
    script = replies(("It costs 12.5.", 10.0), (guess, 2.0))
    reply, _ = ask(script, messages, lookup, CALCULATE, policy=CHAINS)
    assert reply.text == "It costs 12.5."
    reply, _ = ask(replies(("It costs 12.5.", 10.0), (total, 2.0)), messages, lookup, CALCULATE)
    assert reply.text == "It costs 12.5."  # off by default


def test_prose_without_tools_leaves_the_prompt_with_tools_in_the_prompt_cache(
    tmp_path: Path,
) -> None:
    from springtail.models._llamacpp._prompt_cache import PromptCache

    between = ToolDefinition(
        "days_between",
        "Days between two dates.",
        _schema(start={"type": "string"}, end={"type": "string"}),
    )
    runtime = FakeRuntime(
        replies(call_text("days_between", start="2023-04-01", end="2023-04-01"), "1440.")
    )
    model = LlamaCppChatModel._over(runtime)
    engine = model._load()
    engine.prompt_cache = PromptCache(tmp_path, "fake", min_tokens=16)
    prompt = Prompt([UserMessage("How many minutes are there in a day?")], options(between))
    response = model.call(prompt)
    assert response.text == "1440."
    saved = list(tmp_path.glob("*.kv"))
    assert len(saved) == 1
    # What was saved starts with the prompt that lists the tools, which the next turn reuses.
    fresh = FakeRuntime(replies("x"))
    tokens, _ = model._tokens(engine, prompt)
    assert engine.prompt_cache.restore(fresh, tokens, held=0) == len(tokens)

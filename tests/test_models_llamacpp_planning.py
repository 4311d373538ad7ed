"""Plans on a scripted runtime: lines written, calls that run at once, lines resumed later."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from fake_llama import (
    FakeRuntime,
    FakeTool,
    Script,
    plan,
    replies,
    schema,
)
from springtail.memory._codec import decode_message, encode_message
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    SystemMessage,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import (
    LlamaCppChatModel,
    PlainPolicy,
    SmallModelPolicy,
)
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

CALCULATE = ToolDefinition(
    "calculate",
    "Apply an operation to two numbers.",
    schema(
        operation={"type": "string", "enum": ["add", "multiply", "divide"]},
        left={"type": "number"},
        right={"type": "number"},
    ),
)
PERCENTAGE = ToolDefinition(
    "percentage",
    "Part of a total in percent.",
    schema(part={"type": "number"}, total={"type": "number"}),
)
LOOKUP = ToolDefinition("product_lookup", "A product's stock.", schema(sku={"type": "string"}))
RESERVE = ToolDefinition(
    "product_reserve",
    "Reserve units.",
    schema(sku={"type": "string"}, quantity={"type": "integer"}),
)
NOTE = ToolDefinition("note_add", "Save a note.", schema(text={"type": "string"}))
TOOLS = (CALCULATE, PERCENTAGE, LOOKUP, RESERVE, NOTE)

MULTIPLY = 'r1 = calculate(operation="multiply", left=12, right=12)'
SHARE = "r2 = percentage(part=r1, total=576)"
REQUEST = "What is 12 times 12 and what percentage is that of 576?"


def respond(
    script: Script, messages: list[Message], *, stream: bool = False, **kwargs: object
) -> tuple[ChatResponse, FakeRuntime]:
    runtime = FakeRuntime(script)
    model = LlamaCppChatModel._over(runtime, **kwargs)
    prompt = Prompt(messages, ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS)))
    if stream:
        chunks = list(model.stream(prompt))
        from springtail.client._aggregate import StreamAggregator

        aggregator = StreamAggregator()
        for chunk in chunks:
            aggregator.add(chunk)
        return aggregator.response(), runtime
    return model.call(prompt), runtime


def output(response: ChatResponse) -> AssistantMessage:
    assert response.result is not None
    return response.result.output


def calls(message: AssistantMessage) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, json.loads(c.arguments)) for c in message.tool_calls]


def first_turn(request: str = REQUEST) -> list[Message]:
    return [SystemMessage("You are a helpful assistant."), UserMessage(request)]


TWICE_REQUEST = "What is 12 times 7 and what is 300 divided by 4?"


def after(message: AssistantMessage, *results: str) -> list[Message]:
    """The first turn, the reply and its calls' results."""
    responses = tuple(
        ToolResponse(c.id, c.name, r) for c, r in zip(message.tool_calls, results, strict=True)
    )
    return [*first_turn(), message, ToolResponseMessage(responses)]


def test_lines_that_need_no_result_are_the_replys_calls_and_the_plan_is_its_metadata() -> None:
    response, _ = respond(replies(plan(MULTIPLY, SHARE)), first_turn())
    message = output(response)
    assert calls(message) == [("calculate", {"operation": "multiply", "left": 12, "right": 12})]
    assert message.metadata[PLAN_KEY] == [MULTIPLY, SHARE]
    assert message.metadata[LINES_KEY] == ["r1"]
    assert message.text == ""
    assert response.result is not None
    assert response.result.metadata.finish_reason == "tool_calls"


def test_independent_lines_run_together_in_one_reply() -> None:
    twice = (
        'r1 = calculate(operation="multiply", left=12, right=7)',
        'r2 = calculate(operation="divide", left=300, right=4)',
    )
    message = output(respond(replies(plan(*twice)), first_turn(TWICE_REQUEST))[0])
    assert calls(message) == [
        ("calculate", {"operation": "multiply", "left": 12, "right": 7}),
        ("calculate", {"operation": "divide", "left": 300, "right": 4}),
    ]
    assert message.metadata[LINES_KEY] == ["r1", "r2"]


def test_a_tool_called_twice_in_a_turn_reads_each_result_with_its_call() -> None:
    twice = (
        'r1 = calculate(operation="multiply", left=12, right=7)',
        'r2 = calculate(operation="divide", left=300, right=4)',
        'r3 = product_lookup(sku="SKU-1")',
    )
    request = TWICE_REQUEST[:-1] + " and how many SKU-1 are in stock?"
    opened = output(respond(replies(plan(*twice)), first_turn(request))[0])
    results = ToolResponseMessage(
        tuple(
            ToolResponse(c.id, c.name, r)
            for c, r in zip(opened.tool_calls, ("84", "75", "3 in stock"), strict=True)
        )
    )
    conversation = [*first_turn(request), opened, results]
    labelled = SmallModelPolicy()
    assert labelled.profile.result_call  # the embedded presets' default
    _, runtime = respond(replies("84 and 75; 3 in stock."), conversation, policy=labelled)
    asked = runtime.prompts[-1]
    # Which result is the division is written next to it, not left to the lines above.
    assert 'r1 = calculate(operation="multiply", left=12, right=7) returned: 84' in asked
    assert 'r2 = calculate(operation="divide", left=300, right=4) returned: 75' in asked
    # A tool called once in the turn keeps its name alone.
    assert "r3 = product_lookup returned: 3 in stock" in asked
    plain = SmallModelPolicy(profile=replace(labelled.profile, result_call=False))
    _, runtime = respond(replies("84 and 75; 3 in stock."), conversation, policy=plain)
    assert "r2 = calculate returned: 75" in runtime.prompts[-1]


def test_two_results_that_are_ids_of_one_shape_read_each_with_its_call() -> None:
    lines = (
        'r1 = product_reserve(sku="SKU-1", quantity=2)',
        'r2 = note_add(text="Call Sam")',
        'r3 = product_lookup(sku="SKU-2")',
    )
    request = "Reserve 2 of SKU-1, save the note 'Call Sam' and tell me how many SKU-2 are left."
    opened = output(respond(replies(plan(*lines)), first_turn(request))[0])
    results = ToolResponseMessage(
        tuple(
            ToolResponse(c.id, c.name, r)
            for c, r in zip(opened.tool_calls, ("R-1", "N-4", "3 in stock"), strict=True)
        )
    )
    conversation = [*first_turn(request), opened, results]
    _, runtime = respond(replies("Reserved as R-1."), conversation)
    asked = runtime.prompts[-1]
    # A reservation's id and a note's id read alike ("The reservation is N-4"): each is
    # written next to its call.
    assert 'r1 = product_reserve(sku="SKU-1", quantity=2) returned: R-1' in asked
    assert 'r2 = note_add(text="Call Sam") returned: N-4' in asked
    # A result that is not an id keeps its tool's name alone.
    assert "r3 = product_lookup returned: 3 in stock" in asked


def test_a_line_that_needs_a_result_is_written_once_it_is_in_with_the_value_read() -> None:
    opened = output(respond(replies(plan(MULTIPLY, SHARE)), first_turn())[0])
    conversation = after(opened, "calculate returned: 144")
    # Asked again, the model sees the result and writes the value the variable stood for.
    resumed_reply = plan("r2 = percentage(part=144, total=576)")
    response, runtime = respond(replies(resumed_reply), conversation)
    message = output(response)
    assert calls(message) == [("percentage", {"part": 144, "total": 576})]
    assert message.metadata == {LINES_KEY: ["r2"]}
    # The fixed text was given: the model wrote only the value after "part=".
    assert "r2 = percentage(part=" in runtime.detokenize(runtime.cached()).decode()


def test_a_number_read_from_a_prose_result_is_one_the_conversation_states() -> None:
    opened = output(respond(replies(plan(MULTIPLY, SHARE)), first_turn())[0])
    conversation = after(opened, "The product is 144, from 12 and 12.")
    response, runtime = respond(replies(plan("r2 = percentage(part=144, total=576)")), conversation)
    assert calls(output(response)) == [("percentage", {"part": 144, "total": 576})]
    # The value's grammar is the choice of the numbers written so far, not any number
    # (told "covers 70%", the model had written 0.7).
    (value,) = [g for g in runtime.grammars if g and g.startswith("root ::= value")]
    choice = next(rule for rule in value.splitlines() if rule.startswith("value- ::="))
    assert {"144", "12", "576"} <= set(re.findall(r'"([^"]+)"', choice))
    assert "json-number" not in choice


SKU: dict[str, object] = {"type": "string", "description": "The product SKU, e.g. SKU-100"}
FIND = ToolDefinition("product_find", "Find a product by name.", schema(name={"type": "string"}))
RESERVE_SKU = ToolDefinition(
    "product_reserve", "Reserve units.", schema(sku=SKU, quantity={"type": "integer"})
)
FIND_THEN_RESERVE = ChatOptions(tool_callbacks=(FakeTool(FIND), FakeTool(RESERVE_SKU)))


def after_a_find(found: str) -> list[Message]:
    """A plan that finds a product, then reserves it by the sku read from the result."""
    request: list[Message] = [SystemMessage("Be brief."), UserMessage("Reserve 2 Agent Notes.")]
    lines = ('r1 = product_find(name="Agent Notes")', "r2 = product_reserve(sku=r1, quantity=2)")
    model = LlamaCppChatModel._over(FakeRuntime(replies(plan(*lines))))
    opened = output(model.call(Prompt(request, FIND_THEN_RESERVE)))
    (call,) = opened.tool_calls
    return [*request, opened, ToolResponseMessage((ToolResponse(call.id, call.name, found),))]


def test_an_id_read_from_a_prose_result_is_a_token_of_it_with_the_example_s_shape() -> None:
    conversation = after_a_find("SKU-200 Agent Design Notes: 7 in stock")
    runtime = FakeRuntime(replies(plan('r2 = product_reserve(sku="SKU-200", quantity=2)')))
    response = LlamaCppChatModel._over(runtime).call(Prompt(conversation, FIND_THEN_RESERVE))
    assert calls(output(response)) == [("product_reserve", {"sku": "SKU-200", "quantity": 2})]
    # The sku's grammar is the result's one token shaped like "SKU-100", not any text
    # (the model had written a word of the product's description).
    (value,) = [g for g in runtime.grammars if g and g.startswith("root ::= value")]
    choice = next(rule for rule in value.splitlines() if rule.startswith("value- ::="))
    assert set(re.findall(r'"\\"([^"\\]+)\\""', choice)) == {"SKU-200"}


def test_a_line_whose_id_its_result_does_not_hold_is_not_written() -> None:
    conversation = after_a_find("No product matches 'Agent Notes'.")
    # The model would copy the sentence into ``sku``; there is no id to read, so no call
    # is made and the reply is the model's own next step (here, its answer).
    script = replies(
        plan('r2 = product_reserve(sku="No product", quantity=2)'), "No product matches that."
    )
    model = LlamaCppChatModel._over(FakeRuntime(script))
    message = output(model.call(Prompt(conversation, FIND_THEN_RESERVE)))
    assert message.tool_calls == ()
    assert message.text == "No product matches that."


def test_a_text_read_from_a_json_result_is_a_value_under_the_parameters_name() -> None:
    hold = ToolDefinition(
        "product_hold",
        "Hold a product.",
        schema(product_id={"type": "string"}, note={"type": "string"}),
    )
    options = ChatOptions(tool_callbacks=(FakeTool(FIND), FakeTool(hold)))
    request: list[Message] = [UserMessage("Hold the Agent Notes.")]
    lines = ('r1 = product_find(name="Agent Notes")', 'r2 = product_hold(product_id=r1, note="x")')
    opened = output(
        LlamaCppChatModel._over(FakeRuntime(replies(plan(*lines)))).call(Prompt(request, options))
    )
    found = '[{"id": "P-7", "name": "Agent Design Notes", "stock": 7}]'
    (call,) = opened.tool_calls
    conversation = [
        *request,
        opened,
        ToolResponseMessage((ToolResponse(call.id, call.name, found),)),
    ]
    runtime = FakeRuntime(replies(plan('r2 = product_hold(product_id="P-7", note="x")')))
    response = LlamaCppChatModel._over(runtime).call(Prompt(conversation, options))
    assert calls(output(response)) == [("product_hold", {"product_id": "P-7", "note": "x"})]
    # The id has no example to give its shape; the result's key ``id`` (the last word of
    # ``product_id``) gives the choice (the model had written "time from r1").
    (value,) = [g for g in runtime.grammars if g and g.startswith("root ::= value")]
    choice = next(rule for rule in value.splitlines() if rule.startswith("value- ::="))
    assert set(re.findall(r'"\\"([^"\\]+)\\""', choice)) == {"P-7"}


def test_a_resumed_plan_needs_only_the_conversation_so_a_stored_one_resumes_too() -> None:
    opened = output(respond(replies(plan(MULTIPLY, SHARE)), first_turn())[0])
    conversation = after(opened, "calculate returned: 144")
    stored = [decode_message(encode_message(m)) for m in conversation]
    assert stored == conversation
    response, _ = respond(replies(plan("r2 = percentage(part=144, total=576)")), stored)
    assert calls(output(response)) == [("percentage", {"part": 144, "total": 576})]


def both_lines_run() -> list[Message]:
    """The first turn after both lines of the plan ran (144, then 25.00%)."""
    opened = output(respond(replies(plan(MULTIPLY, SHARE)), first_turn())[0])
    conversation = after(opened, "calculate returned: 144")
    second = output(respond(replies(plan("r2 = percentage(part=144, total=576)")), conversation)[0])
    return [
        *conversation,
        second,
        ToolResponseMessage((ToolResponse(second.tool_calls[0].id, "percentage", "25.00%"),)),
    ]


def test_once_the_plan_has_run_a_repeated_call_gives_way_to_the_answer() -> None:
    done = both_lines_run()
    # The model would call again; the call was made, so it answers instead.
    script = replies(plan("r3 = percentage(part=144, total=576)"), "144 is 25.00% of 576.")
    response, runtime = respond(script, done, stream=True)
    message = output(response)
    assert message.tool_calls == ()
    assert message.text == "144 is 25.00% of 576."
    assert "r1 =" in runtime.prompts[-1]  # the model read its plan in the conversation


def test_an_answer_that_opens_as_plan_lines_without_the_tools_too_is_written_as_a_sentence() -> (
    None
):
    done = both_lines_run()
    # The repeated call turns the reply to prose without the tools, where the model would
    # still write plan lines: the answer is written once more, opening as a sentence does.
    script = replies(
        plan("r3 = percentage(part=144, total=576)"),
        "rnew = percentage(part=144, total=576)",
        "144 is 25.00% of 576.",
    )
    response, runtime = respond(script, done)
    message = output(response)
    assert message.tool_calls == ()
    assert message.text == "144 is 25.00% of 576."
    assert "sentence-start" in str(runtime.grammars[-1])


def test_the_plan_is_never_streamed_as_text() -> None:
    runtime = FakeRuntime(replies(plan(MULTIPLY, SHARE)))
    model = LlamaCppChatModel._over(runtime)
    prompt = Prompt(first_turn(), ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS)))
    chunks = list(model.stream(prompt))
    assert "".join(c.text for c in chunks) == ""
    assert chunks[-1].result is not None
    assert chunks[-1].result.output.metadata[PLAN_KEY] == [MULTIPLY, SHARE]


def test_the_models_next_token_decides_whether_another_line_follows() -> None:
    # One line, then the model closes the plan: no second call is asked for.
    message = output(respond(replies(plan(MULTIPLY)), first_turn())[0])
    assert message.metadata[PLAN_KEY] == [MULTIPLY]


def test_a_line_that_refers_to_a_failed_result_is_not_written() -> None:
    opened = output(respond(replies(plan(MULTIPLY, SHARE)), first_turn())[0])
    failed = after(opened, "calculate failed: overflow")
    failed[-1] = ToolResponseMessage(
        (ToolResponse(opened.tool_calls[0].id, "calculate", "overflow", is_error=True),)
    )
    script = replies(plan("r2 = percentage(part=1, total=576)"), "The multiplication failed.")
    message = output(respond(script, failed)[0])
    assert message.tool_calls == ()
    assert message.text == "The multiplication failed."


def test_with_parallel_tool_calls_off_one_line_runs_per_reply() -> None:
    twice = (
        'r1 = calculate(operation="multiply", left=12, right=7)',
        'r2 = calculate(operation="divide", left=300, right=4)',
    )
    runtime = FakeRuntime(replies(plan(*twice)))
    model = LlamaCppChatModel._over(runtime)
    options = ChatOptions(
        tool_callbacks=tuple(FakeTool(t) for t in TOOLS), parallel_tool_calls=False
    )
    message = output(model.call(Prompt(first_turn(TWICE_REQUEST), options)))
    assert len(message.tool_calls) == 1
    assert message.metadata[PLAN_KEY] == list(twice)
    assert message.metadata[LINES_KEY] == ["r1"]


def test_the_next_prompt_starts_with_the_tokens_of_the_last_so_the_kv_cache_is_kept() -> None:
    runtime = FakeRuntime(replies(plan(MULTIPLY, SHARE)))
    model = LlamaCppChatModel._over(runtime)
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS))
    opened = output(model.call(Prompt(first_turn(), options)))
    first = runtime.prompts[0]
    runtime.script = replies(plan("r2 = percentage(part=144, total=576)"))
    model.call(Prompt(after(opened, "calculate returned: 144"), options))
    second = runtime.prompts[-1]
    assert second.startswith(first + plan(MULTIPLY, SHARE))


def test_after_results_the_request_is_quoted_so_the_answer_serves_it() -> None:
    runtime = FakeRuntime(replies(plan(MULTIPLY, SHARE)))
    model = LlamaCppChatModel._over(runtime)
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS))
    opened = output(model.call(Prompt(first_turn(), options)))
    runtime.script = replies("12 times 12 is 144.")
    conversation = after(opened, "calculate returned: 144")
    answer = output(model.call(Prompt(conversation, options)))
    cue = f'My request was: "{REQUEST}" Answer it from these results in full sentences.'
    asked = runtime.prompts[-1]
    assert asked.index("calculate returned: 144") < asked.index(cue)
    # The cue stays where it was once the answer follows: the next prompt extends this one.
    model.call(Prompt([*conversation, answer, UserMessage("Thanks!")], options))
    assert runtime.prompts[-1].startswith(asked)


def test_any_other_gguf_writes_json_calls_in_its_templates_shape() -> None:
    from fake_llama import json_call

    script = replies(json_call("calculate", operation="multiply", left=12, right=12))
    message = output(respond(script, first_turn(), policy=PlainPolicy())[0])
    assert calls(message) == [("calculate", {"operation": "multiply", "left": 12, "right": 12})]
    assert message.metadata == {}


@pytest.mark.parametrize("policy", [SmallModelPolicy(), PlainPolicy()])
def test_prose_is_prose_under_either_policy(policy: object) -> None:
    message = output(respond(replies("Hello! How can I help?"), first_turn(), policy=policy)[0])
    assert message.text == "Hello! How can I help?"
    assert message.tool_calls == ()


def _many_tools(count: int) -> tuple[ToolDefinition, ...]:
    return tuple(
        ToolDefinition(
            f"tool_{i}",
            f"Look up record number {i} in the archive of the company's old accounts.",
            schema(record={"type": "string", "description": "The record's id, e.g. R-100"}),
        )
        for i in range(count)
    )


def test_a_prompt_that_does_not_fit_says_which_part_is_too_long() -> None:
    from springtail.models._base import ModelError

    runtime = FakeRuntime(replies("ok"), n_ctx=3000)
    model = LlamaCppChatModel._over(runtime)
    tools = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in _many_tools(60)))
    with pytest.raises(ModelError) as raised:
        model.call(Prompt([SystemMessage("Be brief."), UserMessage("hi")], tools))
    message = str(raised.value)
    assert "more than the model's context of 3000" in message
    assert "(60 tools)" in message
    assert "The tools' definitions are the largest part: offer fewer tools" in message
    history = [UserMessage("tell me more " * 300)]
    with pytest.raises(ModelError, match="The conversation is the largest part: shorten"):
        model.call(Prompt(history, ChatOptions(tool_callbacks=(FakeTool(CALCULATE),))))


def test_after_results_the_plan_goes_on_and_a_line_takes_an_earlier_result_at_once() -> None:
    opened = output(respond(replies(plan(MULTIPLY)), first_turn())[0])
    conversation = after(opened, "calculate returned: 144")
    # The model goes on: a new line that takes r1, whose result is in, so it runs now.
    going_on = plan("r2 = percentage(part=r1, total=576)")
    filled = plan("r2 = percentage(part=144, total=576)")

    def script(prompt: str) -> list[tuple[str, float]]:
        return [(going_on, 9.0), (filled, 8.0)]

    message = output(respond(script, conversation)[0])
    assert calls(message) == [("percentage", {"part": 144, "total": 576})]
    assert message.metadata == {PLAN_KEY: [SHARE], LINES_KEY: ["r2"]}


def test_a_result_that_is_one_plain_value_is_passed_exactly_without_the_model() -> None:
    opened = output(respond(replies(plan(MULTIPLY, SHARE)), first_turn())[0])
    conversation = after(opened, "144")
    # Whatever the model would write, a plain result is the variable's value.
    response, _ = respond(replies(plan("r2 = percentage(part=1444, total=576)")), conversation)
    assert calls(output(response)) == [("percentage", {"part": 144, "total": 576})]


def test_a_text_built_from_a_result_waits_for_it_and_is_written_with_it() -> None:
    request = "Look up SKU-300 and note how many are left."
    noted = 'r2 = note_add(text=f"{r1} units of SKU-300 left")'
    lookup = 'r1 = product_lookup(sku="SKU-300")'
    opened = output(respond(replies(plan(lookup, noted)), first_turn(request))[0])
    assert calls(opened) == [("product_lookup", {"sku": "SKU-300"})]
    assert opened.metadata[PLAN_KEY] == [lookup, noted]
    responses = (ToolResponse(opened.tool_calls[0].id, "product_lookup", "4"),)
    conversation = [*first_turn(request), opened, ToolResponseMessage(responses)]
    resumed = output(respond(replies("I noted it."), conversation)[0])
    assert calls(resumed) == [("note_add", {"text": "4 units of SKU-300 left"})]
    # A result in prose is read by the model, which writes the whole text.
    responses = (ToolResponse(opened.tool_calls[0].id, "product_lookup", "SKU-300: 4 in stock"),)
    conversation = [*first_turn(request), opened, ToolResponseMessage(responses)]
    written = plan('r2 = note_add(text="4 units of SKU-300 left")')
    resumed = output(respond(replies(written), conversation)[0])
    assert calls(resumed) == [("note_add", {"text": "4 units of SKU-300 left"})]

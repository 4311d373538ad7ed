"""Fuzzing the ToolCallingManager: any tool calls a model may write get answers, never a crash.

Each example is one turn of several responses with random tool names
(offered, unoffered but known to the resolver, unknown) and random argument
texts (valid, invalid, malformed JSON). What must hold whatever the input:
every call is answered once, in call order, or the limit error names the
limit; a tool the request did not offer never runs; identical calls run
once per turn; the limits hold.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings, strategies as st

from springtail.execution import (
    StaticToolCallbackResolver,
    ToolCallingManager,
    ToolCallLimitExceededError,
    ToolTurn,
)
from springtail.execution._turn import same_call
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Message,
    Prompt,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)
from springtail.tools import tool, tool_callbacks

RAN: list[tuple[str, str]] = []


@tool
def lookup(sku: str) -> str:
    """Stock of a product."""
    RAN.append(("lookup", sku))
    return f"{sku}: 3"


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    RAN.append(("add", f"{a}+{b}"))
    return a + b


@tool
def secret(code: str) -> str:
    """Never offered to the model."""
    RAN.append(("secret", code))
    return "leaked"


OFFERED = tuple(tool_callbacks(lookup, add))
RESOLVER = StaticToolCallbackResolver(tool_callbacks(secret))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=5,
)
arguments = st.one_of(
    st.builds(
        lambda v: json.dumps(v), st.dictionaries(st.sampled_from(["sku", "a", "b"]), json_values)
    ),
    st.sampled_from(['{"sku": "A"}', '{ "sku":"A" }', '{"a": 1, "b": 2}', '{"b": 2, "a": 1}']),
    st.text(max_size=12),
)
calls = st.lists(
    st.tuples(st.sampled_from(["lookup", "add", "secret", "nope", ""]), arguments),
    min_size=1,
    max_size=5,
)


@settings(max_examples=150, deadline=None)
@given(
    rounds=st.lists(calls, min_size=1, max_size=4),
    per_tool=st.integers(1, 6),
    total=st.integers(1, 10),
    mode=st.sampled_from(["raise", "error_response"]),
    keep_turn=st.booleans(),
)
def test_any_tool_calls_get_answers_within_the_rules(
    rounds: list[list[tuple[str, str]]],
    per_tool: int,
    total: int,
    mode: Any,
    keep_turn: bool,
) -> None:
    RAN.clear()
    manager = ToolCallingManager(
        resolver=RESOLVER,
        max_calls_per_tool=per_tool,
        max_total_tool_calls=total,
        on_limit_exceeded=mode,
    )
    turn = ToolTurn() if keep_turn else None
    messages: list[Message] = [UserMessage("go")]
    made: list[ToolCall] = []
    for r, pairs in enumerate(rounds):
        tool_calls = tuple(ToolCall(f"r{r}c{i}", n, a) for i, (n, a) in enumerate(pairs))
        prompt = Prompt(messages, ChatOptions(tool_callbacks=OFFERED))
        response = ChatResponse.of(AssistantMessage("", tool_calls))
        made.extend(tool_calls)
        try:
            result = manager.execute_tool_calls(prompt, response, turn=turn)
        except ToolCallLimitExceededError as error:
            limit_error: ToolCallLimitExceededError | None = error
        else:
            limit_error = None
        if limit_error is not None:
            assert mode == "raise"
            assert limit_error.limit in (per_tool, total)
            break
        last = result.conversation_history[-1]
        assert isinstance(last, ToolResponseMessage)
        assert [a.id for a in last.responses] == [c.id for c in tool_calls]
        assert [a.name for a in last.responses] == [c.name for c in tool_calls]
        messages = list(result.conversation_history)
    assert all(name != "secret" for name, _ in RAN)
    assert len(RAN) <= total
    for name in ("lookup", "add"):
        assert sum(n == name for n, _ in RAN) <= per_tool
    # Identical calls ran at most once: no two runs came from the same call.
    ran_calls = [c for c in made if c.name in ("lookup", "add")]
    distinct: list[ToolCall] = []
    for call in ran_calls:
        if not any(same_call(call, seen) for seen in distinct):
            distinct.append(call)
    assert len(RAN) <= len(distinct)

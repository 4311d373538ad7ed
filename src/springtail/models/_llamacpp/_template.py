r"""Turning springtail messages into the prompt text of the model's own chat template.

The GGUF file carries the chat template the model was trained with (for Qwen
2.5: tools listed in the system turn, calls as ``<tool_call>`` blocks, results
as ``<tool_response>`` blocks in a user turn); rendering it with
llama-cpp-python's Jinja formatter keeps the prompt in the shape the model
knows. Two details matter for a small model:

- Earlier calls' arguments go to the template as objects. Passed as JSON text
  they would be encoded a second time (``"{\"sku\": …}"``), and the model
  copies that broken shape into its next call.
- The prompt for a follow-up turn must start with exactly the tokens of the
  previous one, so llama.cpp can keep their KV cache and evaluate only what
  is new. Rendering is therefore a pure function of the messages and tools.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from springtail.messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp._binding import scalar
from springtail.models._llamacpp._llama import chat_formatter
from springtail.models._llamacpp._plan import PLAN_KEY, Plan, call_line, call_text, variables
from springtail.models._llamacpp._stubs import tool_stubs
from springtail.models._llamacpp._values import normal, shape
from springtail.models._wire import arguments_to_object, function_tools
from springtail.tools._definition import ToolDefinition

__all__ = [
    "PlanResultText",
    "ResultText",
    "TemplateRenderer",
    "plan_messages",
    "template_messages",
]


class ResultText(Protocol):
    """How a tool's result reads inside the template (the policy decides)."""

    def __call__(self, name: str, data: str, *, is_error: bool) -> str: ...


class PlanResultText(Protocol):
    """How a tool's result reads in a plan's conversation, with the variable it fills."""

    def __call__(
        self, variable: str, name: str, data: str, *, is_error: bool, call: str | None = None
    ) -> str: ...


def _as_given(name: str, data: str, *, is_error: bool) -> str:
    return data


DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
"""The system prompt Qwen's own template uses when a conversation has none."""


class TemplateRenderer:
    """Renders prompts with one model's chat template."""

    def __init__(self, template: str, *, eos_token: str, bos_token: str) -> None:
        self._formatter: Any = chat_formatter(template, eos_token=eos_token, bos_token=bos_token)

    def render(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition],
        *,
        guidance: str | None = None,
        result_text: ResultText = _as_given,
    ) -> str:
        """The prompt text, ending where the assistant's reply begins."""
        rendered = self._formatter(
            messages=template_messages(messages, guidance if tools else None, result_text),
            tools=function_tools(list(tools)) or None,
        )
        return str(rendered.prompt)

    def render_plan(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolDefinition],
        *,
        guidance: str | None,
        result_text: PlanResultText,
        tools_section: str,
        example: str,
        answer_cue: str | None = None,
    ) -> str:
        """The prompt in the plan's shape: tools as Python stubs, calls as Python lines."""
        rendered = self._formatter(
            messages=plan_messages(
                messages, tools, guidance, result_text, tools_section, example, answer_cue
            ),
            tools=None,
        )
        return str(rendered.prompt)


def template_messages(
    messages: Sequence[Message],
    guidance: str | None = None,
    result_text: ResultText = _as_given,
) -> list[dict[str, Any]]:
    """Messages as the dicts a Hugging Face chat template reads.

    ``guidance`` is appended to the first system message (or becomes the
    system message when there is none).
    """
    result: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, SystemMessage):
            result.append({"role": "system", "content": message.text})
        elif isinstance(message, UserMessage):
            result.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {
                            "name": call.name,
                            "arguments": arguments_to_object(call.arguments),
                        },
                    }
                    for call in message.tool_calls
                ]
            result.append(entry)
        elif isinstance(message, ToolResponseMessage):
            result.extend(
                {
                    "role": "tool",
                    "tool_call_id": r.id,
                    "name": r.name,
                    "content": result_text(r.name, r.response_data, is_error=r.is_error),
                }
                for r in message.responses
            )
    if guidance:
        if result and result[0]["role"] == "system":
            result[0] = {**result[0], "content": f"{result[0]['content']}\n\n{guidance}"}
        else:
            result.insert(0, {"role": "system", "content": guidance})
    return result


def plan_messages(
    messages: Sequence[Message],
    tools: Sequence[ToolDefinition],
    guidance: str | None,
    result_text: PlanResultText,
    tools_section: str,
    example: str,
    answer_cue: str | None = None,
) -> list[dict[str, Any]]:
    """Messages as a chat template reads them, in the plan's shape.

    The system message carries the tools as Python stubs and how to call
    them (``tools_section``, with ``example`` as its example plan), so the
    template is rendered without its own tools section. An assistant message
    that opened a plan shows the plan's lines inside ``<tool_call>``, exactly
    as the model wrote them (so
    the next request's prompt starts with the tokens already in the KV
    cache); any other message with tool calls shows them as lines too, and
    each result names the variable it fills. ``answer_cue`` (``{request}``:
    the request the results serve) follows each round of results as a user
    turn of its own, so the rendering of a conversation never changes as it
    grows (except a first result's label when its tool is called again in
    the same turn: ``_labelled_calls``).
    """
    names = variables(messages)
    calls = _labelled_calls(messages)
    result: list[dict[str, Any]] = []
    request = ""
    for index, message in enumerate(messages):
        if isinstance(message, SystemMessage):
            result.append({"role": "system", "content": message.text})
        elif isinstance(message, UserMessage):
            request = message.text
            result.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantMessage):
            plan = Plan.of(message.metadata.get(PLAN_KEY))
            if plan is not None:
                lines = plan.source()
            else:
                lines = [
                    call_line(
                        names.get(call.id, "r"),
                        call.name,
                        list(arguments_to_object(call.arguments).items()),
                    )
                    for call in message.tool_calls
                ]
            content = message.text
            if lines:
                content += "<tool_call>\n" + "\n".join(lines) + "\n</tool_call>"
            result.append({"role": "assistant", "content": content})
        elif isinstance(message, ToolResponseMessage):
            result.extend(
                {
                    "role": "tool",
                    "tool_call_id": r.id,
                    "name": r.name,
                    "content": result_text(
                        names.get(r.id, "r"),
                        r.name,
                        r.response_data,
                        is_error=r.is_error,
                        call=calls.get(r.id),
                    ),
                }
                for r in message.responses
            )
            following = messages[index + 1] if index + 1 < len(messages) else None
            if answer_cue and request and not isinstance(following, ToolResponseMessage):
                result.append({"role": "user", "content": answer_cue.format(request=_cut(request))})
    system = ""
    if tools:
        system = (f"\n\n{guidance}" if guidance else "") + tools_section.format(
            stubs=tool_stubs(tools), example=example
        )
    if result and result[0]["role"] == "system":
        result[0] = {**result[0], "content": result[0]["content"] + system}
    elif tools:
        result.insert(0, {"role": "system", "content": DEFAULT_SYSTEM + system})
    return result


def _labelled_calls(messages: Sequence[Message]) -> dict[str, str]:
    """Tool call id → the call as Python, for the results of a turn that read alike.

    Those are the calls of a tool its turn calls more than once, and the
    calls whose results are ids of one shape (``_id_kind``).

    Given two shipping quotes and two conversions, a result read as
    ``r2 = shipping_quote returned: 33.0`` left the 1.5B model to match it to
    its line, and the answer gave one price for both parcels; a result that
    carries its call's arguments is stated with them. So with an order's id
    and a message's (``O-1001``, ``M-1``): the answer read "The order number
    is M-1." (fifteenth pass). Any other result keeps its tool's name alone:
    that is all the model needs there.

    A tool called again in a later round of the same turn (or a second id
    of the same shape) relabels its first result, so that one prompt shares
    its KV cache only up to that result (a few hundred tokens evaluated
    again at most); every other prompt extends the one before, as
    ``plan_messages`` promises.
    """
    turns: list[list[ToolCall]] = [[]]
    kinds: dict[str, str] = {}
    for message in messages:
        if isinstance(message, UserMessage):
            turns.append([])
        elif isinstance(message, AssistantMessage):
            turns[-1].extend(message.tool_calls)
        elif isinstance(message, ToolResponseMessage):
            kinds.update({r.id: _id_kind(r.response_data) for r in message.responses})
    found: dict[str, str] = {}
    for turn in turns:
        counts = Counter(call.name for call in turn)
        alike = Counter(kinds[call.id] for call in turn if kinds.get(call.id))
        for call in turn:
            if counts[call.name] > 1 or alike[kinds.get(call.id, "")] > 1:
                arguments = list(arguments_to_object(call.arguments).items())
                found[call.id] = call_text(call.name, arguments)
    return found


def _id_kind(data: str) -> str:
    """The shape of a result that is one id (``O-1001``: ``a-9``), else ``""``.

    Two results of one turn that are ids of the same shape (an order's and
    a message's) read alike: "The order number is M-1." (fifteenth pass).
    """
    value = scalar(data)  # one plain value, at most 64 characters: not a long result
    if not isinstance(value, str) or any(c.isspace() for c in value):
        return ""
    if not any(c.isdigit() for c in value):
        return ""
    kind = shape(normal(value))
    return "" if kind == "number" else kind


_CUE_REQUEST_CHARS = 400


def _cut(request: str) -> str:
    """A request as the answer cue quotes it: one line, at most ``_CUE_REQUEST_CHARS``."""
    line = " ".join(request.split())
    if len(line) <= _CUE_REQUEST_CHARS:
        return line
    return line[: _CUE_REQUEST_CHARS - 1].rstrip() + "…"

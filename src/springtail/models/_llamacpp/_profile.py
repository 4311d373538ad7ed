"""How the embedded model is prompted and decoded: plain settings, no decisions.

The policy (``_policy.py``) decides; the profile only says how prompts are
written and how text is generated, so it is a frozen dataclass of values a
user can read at a glance and replace with ``dataclasses.replace``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ANSWER_CUE",
    "DEFAULT_TOOL_GUIDANCE",
    "GENERIC_EXAMPLE",
    "PLAN_TOOLS_SECTION",
    "DecodingProfile",
]

GENERIC_EXAMPLE = "r1 = function_name(argument=value)\nr2 = other_function(argument=r1)"
"""The tools section's example plan when it does not use the application's tools."""

ANSWER_CUE = 'My request was: "{request}" Answer it from these results in full sentences.'
"""Follows each round of a plan's results (``{request}``: the request they serve).

After results the 1.5B model often answered from the tools section instead
(a discount example in one tool's description, for a multiplication); with
the request quoted after the results, 8 of 8 such answers were right where
3 of 8 were before (docs/embedded-model.md).
"""

DEFAULT_TOOL_GUIDANCE = (
    "Only call a function when the request needs what the function returns. "
    "Reply to greetings, thanks and general questions in plain text, without a function. "
    "After a function returns, answer the user's request in one or two full sentences "
    "that state the values it returned; do not describe functions."
)
"""Appended to the system prompt when tools are offered (why: docs/embedded-model.md)."""


PLAN_TOOLS_SECTION = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n"
    "<tools>\n{stubs}\n</tools>\n\n"
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{{"name": <function-name>, "arguments": <args-json-object>}}\n</tool_call>\n\n'
    "When a request needs several calls, write them all in one <tool_call> as Python "
    "instead, one call per line, each result in a variable; where a call needs an earlier "
    "result, pass its variable:\n<tool_call>\n{example}\n</tool_call>"
)
"""A plan's tools section (``{stubs}``: the tools' stubs; ``{example}``: a two-line plan).

Qwen's own words, with the tools as Python stubs in place of JSON schemas
(half the tokens), its own sentence on JSON calls kept verbatim, and one
paragraph on plans. Measured on the first token of development requests,
the call-or-prose decision held only with Qwen's sentence on JSON calls in
place: told to write Python alone, the model answered "4096" itself
instead of calling (docs/embedded-model.md).
"""


@dataclass(frozen=True, slots=True)
class DecodingProfile:
    """How prompts are written and text is generated (``docs/embedded-model.md``).

    Args:
        plans: Tools are shown as Python stubs and a reply that calls writes
            the request's calls as a plan of Python lines (``_plan.py``);
            ``False`` keeps the chat template's own tools section and one JSON
            call per ``<tool_call>``.
        guidance: Appended to the system prompt when tools are offered.
        tools_section: With ``plans``, the tools' part of the system prompt;
            ``{stubs}`` stands for the stubs and ``{example}`` for a two-line
            plan (braces doubled elsewhere).
        tool_example: The example plan uses two of the application's own tools
            when their schemas give a sensible pair (``_stubs.tool_example``),
            instead of ``function_name`` and ``other_function``. Off: on the
            chained requests it left the development half at 12/48 (held-out
            9 -> 12/48), and the other kinds were not measured
            (docs/embedded-model.md).
        result_prefix: A result reads ``NAME returned: DATA``: with a bare
            value the 1.5B model thanked the user instead of stating it.
        never_empty: A reply may not begin with an end-of-generation token
            (after results the 1.5B model sometimes ended before a word).
        spelled_tag_as_prose: A reply that opens with a tag spelled out of
            plain text (``<tools>``, copied from the template) is generated
            again as prose; with plans such a reply opens a call instead.
        answer_tokens: At most this many tokens for prose, unless the
            request's ``max_tokens`` says otherwise: a bound on answers that
            run on (finish reason ``length``). ``None``: the context's room.
        answer_cue: With ``plans``, a user turn after each round of results
            that quotes the request (``{request}``) and asks for the answer.
        stop_repeats: Stop prose that repeats itself (the same run of tokens
            again and again), finish reason ``length``; a request turns it off
            with ``ChatOptions(extra={"stop_repeats": False})``.
        state_results: An answer after results that states nothing a result
            returned (none of its values with digits) goes on, at most this
            many times: given four quotes, the 1.5B model ended after three.
        result_call: With ``plans``, a result of a tool its turn calls more
            than once reads with its call (``r2 = shipping_quote(weight_kg=6,
            …) returned: 33.0``) instead of the tool's name: given two quotes
            and two conversions, the 1.5B model gave one price for both
            parcels (sixth pass, docs/embedded-model.md). So do two results
            of a turn that are ids of one shape (an order's ``O-1001`` and
            a message's ``M-1``; fifteenth pass).
        keyed_values: With ``plans``, a text value written from a JSON
            result is one of the values the result gives under the
            parameter's name or its last word (``start``, ``id`` for
            ``event_id``; ``_binding.keyed_values``): the 1.5B model wrote
            ``"time from r1"`` for both (thirteenth pass). A number written
            from a result in words is one that follows a word of the
            parameter's name ("covers 70" for ``coverage_percent``;
            ``_binding.named_numbers``, fourteenth pass).
    """

    plans: bool = False
    guidance: str | None = None
    tools_section: str = PLAN_TOOLS_SECTION
    tool_example: bool = False
    result_prefix: bool = False
    never_empty: bool = False
    spelled_tag_as_prose: bool = False
    answer_tokens: int | None = None
    answer_cue: str | None = None
    stop_repeats: bool = False
    state_results: int = 0
    result_call: bool = False
    keyed_values: bool = False

    def __post_init__(self) -> None:
        if self.answer_tokens is not None and self.answer_tokens < 1:
            raise ValueError(f"answer_tokens={self.answer_tokens} must be at least 1, or None.")
        if self.state_results < 0:
            raise ValueError(f"state_results={self.state_results} must be 0 or more.")

    def result_text(self, name: str, data: str, *, is_error: bool) -> str:
        """A tool's result as the model reads it in a JSON call's conversation."""
        if not self.result_prefix:
            return data
        return f"{name} {'failed' if is_error else 'returned'}: {data}"

    def plan_result_text(
        self, variable: str, name: str, data: str, *, is_error: bool, call: str | None = None
    ) -> str:
        """A result in a plan's conversation: the variable it fills, then what it says.

        With ``result_call``, the call that returned it (``call``: its Python
        text) stands in for the tool's name.
        """
        label = call if self.result_call and call else name
        return f"{variable} = {self.result_text(label, data, is_error=is_error)}"


SMALL_MODEL_PROFILE = DecodingProfile(
    plans=True,
    guidance=DEFAULT_TOOL_GUIDANCE,
    result_prefix=True,
    never_empty=True,
    spelled_tag_as_prose=True,
    answer_tokens=512,
    answer_cue=ANSWER_CUE,
    stop_repeats=True,
    state_results=2,
    result_call=True,
    keyed_values=True,
)
"""The embedded presets' profile."""

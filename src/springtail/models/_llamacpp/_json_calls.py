"""Tool calls in the chat template's own shape: one JSON object per ``<tool_call>``.

The writer of calls for any GGUF that is not an embedded preset (the plan,
``_planning.py``, is for those). After the reply opens a call, each body is
generated under the tools' grammar after a real ``<tool_call>`` token,
``</tool_call>`` is placed as the real token, and the policy's ``next`` (by
default the model's next tokens) says whether another call follows. The
policy reviews each call as a one-line plan.
"""

from __future__ import annotations

from collections.abc import Sequence

from springtail.models._llamacpp._decisions import Close, Keep, Prose
from springtail.models._llamacpp._decoder import Decoder
from springtail.models._llamacpp._drafts import CallDraft, PromptLookup
from springtail.models._llamacpp._grammar import TAGGED_CLOSE, TAGGED_OPEN, build_grammar
from springtail.models._llamacpp._parse import ParsedCall, parse_output
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._policy import ToolPolicy
from springtail.models._llamacpp._reply import Reply
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["MAX_CALLS_PER_REPLY", "JsonCalls"]

MAX_CALLS_PER_REPLY = 8
"""More calls than this in one reply is a model writing calls in a loop."""


class JsonCalls:
    """Writes one reply's JSON calls through the request's decoder."""

    def __init__(self, decoder: Decoder, policy: ToolPolicy, view: TurnView) -> None:
        self.gen = decoder
        self.policy = policy
        self.view = view

    def write(
        self,
        context: list[int],
        prose: str,
        tools: Sequence[ToolDefinition],
    ) -> Reply | Prose | None:
        """The calls of a reply that opened one (see ``Planner.write`` for the answers)."""
        gen, policy, view = self.gen, self.policy, self.view
        names = {d.name for d in tools}
        tokens = context + gen.open_tag
        calls: list[ParsedCall] = []
        lines: list[PlanLine] = []
        truncated = False
        while len(calls) < MAX_CALLS_PER_REPLY and not gen.cancel.is_set():
            # Values are guessed from a run of 3 tokens seen before, not 2: in a call's
            # JSON a 2-token run (`": "`) matches everywhere and guesses wrong.
            drafter = CallDraft(
                tools,
                gen.tokenize,
                gen.detokenize,
                PromptLookup(tokens, shortest=3),
                values=view.values.spelled,
            )
            body = gen.generate(
                build_grammar(tools, catch_all=True),
                tokens=tokens,
                stream=False,
                drafter=drafter,
                done=_ends_body,
            )
            parsed = parse_output(f"{TAGGED_OPEN}{body.text}{TAGGED_CLOSE}", names)
            if parsed.truncated or body.finish_reason in ("length", "cancelled"):
                truncated = body.finish_reason != "cancelled"
                break
            found = parsed.calls or parsed.unknown
            if not found:
                break
            call = found[0]
            if any(c.key() == call.key() for c in calls):
                break  # the same call twice in one reply: the model is looping
            line = PlanLine(f"r{len(lines) + 1}", call.name, tuple(call.arguments.items()))
            verdict = policy.review(view, line, lines, tools)
            if isinstance(verdict, Prose):
                if calls:
                    break
                return verdict
            if not isinstance(verdict, Keep):
                break  # dropped, or waiting for a result, which a JSON call cannot wait for
            calls.append(call)
            lines.append(line)
            tokens = tokens + list(body.tokens)
            if not body.text.endswith("\n"):
                tokens += gen.newline
            tokens += gen.close_tag
            if gen.options.parallel_tool_calls is False:
                break
            step = policy.next(view, lines, tools)
            if isinstance(step, Close):
                break
            # What the model writes after the close tag says whether another call follows.
            after = gen.generate(None, tokens=tokens, stream=False, stop_at_call=True, max_new=4)
            if after.finish_reason != "call" or after.text.strip():
                break
            tokens = tokens + list(after.tokens) + gen.open_tag
        if not calls:
            if gen.cancel.is_set():
                return gen.reply(prose, (), "cancelled")
            return gen.reply(prose, (), "length") if truncated else None
        return gen.reply(prose, calls)


def _ends_body(text: str) -> bool:
    """A call's body is complete at the newline after its JSON (the grammar allows nothing else)."""
    return text.endswith("\n") and bool(text.strip())

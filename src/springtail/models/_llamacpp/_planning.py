"""Writing a plan, and its next lines once their results are in (the embedded presets).

Once a reply opens a call, the model writes the request's calls as a plan
(``_plan.py``), one line at a time after a real ``<tool_call>`` token: the
planner writes ``rK =``, the model the rest of the line under the plan
grammar (``_plan_grammar.py``), the policy reviews the line, and the model's
next token (or the policy) says whether another line follows. The lines that
need no result still to come are the reply's tool calls; the plan itself
goes into the reply's metadata, so the conversation carries it.

Writing is a small state machine (``_Step``): write a line, review it, ask
what comes next, and at the end write out the calls that can run now. When
results are in, the lines whose references have answered are written out
(``_write_out.py``).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from springtail.models._llamacpp._decisions import Close, Drop, Keep, Prose
from springtail.models._llamacpp._decoder import Decoder
from springtail.models._llamacpp._drafts import LineDraft, PromptLookup
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY, Plan, PlanLine
from springtail.models._llamacpp._plan_grammar import line_grammar
from springtail.models._llamacpp._policy import ToolPolicy
from springtail.models._llamacpp._reply import Reply
from springtail.models._llamacpp._unknown import unknown_call
from springtail.models._llamacpp._view import TurnView
from springtail.models._llamacpp._write_out import write_out
from springtail.tools._definition import ToolDefinition

__all__ = ["MAX_LINES", "Planner"]

logger = logging.getLogger("springtail.models.llamacpp")

MAX_LINES = 8
"""More lines than this in one plan is a model writing calls in a loop."""


class _Step(enum.Enum):
    """Where the writing of a plan stands."""

    WRITE = "write"  # the model writes the next line
    REVIEW = "review"  # the policy reviews the line just written
    NEXT = "next"  # the policy, or the model's next token, says whether another follows
    DONE = "done"  # no more lines: the calls that can run now are written out


@dataclass
class _Draft:
    """The state of one plan being written."""

    tokens: list[int]
    number: int
    lines: list[PlanLine] = field(default_factory=list)
    line: PlanLine | None = None
    line_tokens: list[int] = field(default_factory=list)
    head: list[int] = field(default_factory=list)
    finish: str = ""
    """Why writing stopped before any line stood: ``length``, ``cancelled`` or ``""``."""
    prose: Prose | None = None
    """The policy turned the reply into prose."""


class Planner:
    """Writes one reply's plan, or a plan's next lines, through the request's decoder."""

    def __init__(self, decoder: Decoder, policy: ToolPolicy, view: TurnView) -> None:
        self.gen = decoder
        self.policy = policy
        self.view = view
        self._line_start: Any = None

    def write(
        self, context: list[int], prose: str, tools: Sequence[ToolDefinition]
    ) -> Reply | Prose | None:
        """The plan of a reply that opened a call.

        ``Prose`` when the policy turns the reply into prose, ``None`` when no
        line stands (the reply is then prose).

        Args:
            context: The prompt, and any prose the reply opened with.
            prose: That prose (streamed already), kept as the reply's text.
            tools: The tools the plan may call.
        """
        gen = self.gen
        # A new line may take any earlier result: of this turn, or of an earlier turn.
        answered = [v for v, r in self.view.plan.readable.items() if not r.is_error]
        draft = _Draft(
            tokens=context + gen.open_tag + gen.newline,
            number=_first_number(self.view.plan.next_variable()),
        )
        step = _Step.WRITE
        while step is not _Step.DONE:
            if gen.cancel.is_set():
                draft.finish = "cancelled"
                step = _Step.DONE
            elif step is _Step.WRITE:
                step = self._write_line(draft, tools, answered)
            elif step is _Step.REVIEW:
                step = self._review(draft, tools)
            else:
                step = self._next(draft, tools)
        if draft.prose is not None:
            return draft.prose
        return self._calls(draft, prose, tools, answered)

    def _write_line(
        self, draft: _Draft, tools: Sequence[ToolDefinition], answered: Sequence[str]
    ) -> _Step:
        """The model writes the rest of ``rK =`` under the plan grammar."""
        gen = self.gen
        if len(draft.lines) >= MAX_LINES:
            return _Step.DONE
        variable = f"r{draft.number}"
        # "r1 =", not "r1 = ": the model's next token carries its own space (" today"),
        # and a forced trailing space left it only tokens like "_today".
        draft.head = gen.tokenize(f"{variable} =")
        grammar = line_grammar(
            tools, [*answered, *(line.variable for line in draft.lines)], catch_all=True
        )
        drafter = LineDraft(
            tools,
            gen.tokenize,
            gen.detokenize,
            self.view.values.spelled,
            PromptLookup(draft.tokens + draft.head, shortest=3),
        )
        body = gen.generate(
            grammar,
            tokens=draft.tokens + draft.head,
            stream=False,
            drafter=drafter,
            done=_ends_line,
        )
        if body.finish_reason in ("length", "cancelled"):
            draft.finish = body.finish_reason
            return _Step.DONE
        line = PlanLine.parse(f"{variable} ={body.text}")
        draft.line_tokens = list(body.tokens)
        if line is None:
            # The catch-all lets the model write a tool that is not offered in any shape
            # (``current_city("France")``): it is reviewed as that tool's call, or as the
            # offered tool's whose name it glued a parameter onto.
            line = unknown_call(variable, body.text, tools)
            if line is not None and any(d.name == line.tool for d in tools):
                draft.line_tokens = gen.tokenize(line.source()[len(f"{variable} =") :] + "\n")
        if line is None:
            return _Step.DONE
        if any(line.tool == w.tool and line.arguments == w.arguments for w in draft.lines):
            return _Step.DONE  # the same call twice in one plan: the model is looping
        draft.line = line
        return _Step.REVIEW

    def _review(self, draft: _Draft, tools: Sequence[ToolDefinition]) -> _Step:
        """The policy keeps the line, ends the plan before it, or turns the reply to prose."""
        assert draft.line is not None
        verdict = self.policy.review(self.view, draft.line, draft.lines, tools)
        if isinstance(verdict, Prose):
            if not draft.lines:
                draft.prose = verdict
            return _Step.DONE
        if isinstance(verdict, Drop):
            return _Step.DONE
        assert isinstance(verdict, Keep)
        draft.lines.append(draft.line)
        draft.tokens = draft.tokens + draft.head + draft.line_tokens
        draft.line = None
        return _Step.NEXT

    def _next(self, draft: _Draft, tools: Sequence[ToolDefinition]) -> _Step:
        """Another line follows when the policy does not close and the model wants one."""
        if isinstance(self.policy.next(self.view, draft.lines, tools), Close):
            return _Step.DONE
        if not self._another(draft.tokens):
            return _Step.DONE
        draft.number += 1
        return _Step.WRITE

    def _calls(
        self,
        draft: _Draft,
        prose: str,
        tools: Sequence[ToolDefinition],
        answered: Sequence[str],
    ) -> Reply | None:
        """The reply's calls: the lines whose references have all answered, written out."""
        gen = self.gen
        if not draft.lines:
            if draft.finish:
                return gen.reply(prose, (), draft.finish)
            return None
        now = [line for line in draft.lines if line.refs <= set(answered)]
        if gen.options.parallel_tool_calls is False:
            now = now[:1]
        written = write_out(gen, self.view, now, tools)
        if not written:
            return None
        metadata = {
            PLAN_KEY: Plan(tuple(draft.lines)).source(),
            LINES_KEY: [line.variable for line, _ in written],
        }
        return gen.reply(prose, [call for _, call in written], metadata=metadata)

    def _another(self, tokens: list[int]) -> bool:
        """Whether another line follows: the model gives a new line at least half its probability.

        At a line's start only ``r`` begins another call; the model's other
        choices there (``print``, a fence, the closing tag) all end the plan.
        Lines a request needed got 0.92 or more, lines it did not need 0.35-0.44
        while still the likeliest single token (docs/embedded-model.md).
        """
        import numpy as np

        gen = self.gen
        if self._line_start is None:
            mask = np.zeros(gen.runtime.n_vocab, dtype=bool)
            mask[gen.tokenize("r")[:1]] = True
            self._line_start = mask
        share = gen.next_share(tokens, self._line_start)
        logger.debug("another line: %.3f", share)
        return share >= 0.5

    def resume(self, ready: Sequence[PlanLine], tools: Sequence[ToolDefinition]) -> Reply | None:
        """The calls of the plan's lines whose references have answered.

        Each line's fixed text is given; each argument that is a reference is
        bound from its result (``_binding``), or written by the model having
        read it, under the grammar of that parameter. ``None`` when no line can
        be written (its tool is gone, or the value is not there to read).
        """
        lines = ready if self.gen.options.parallel_tool_calls is not False else ready[:1]
        written = write_out(self.gen, self.view, lines, tools)
        if not written:
            return None
        return self.gen.reply(
            "",
            [call for _, call in written],
            metadata={LINES_KEY: [line.variable for line, _ in written]},
        )


def _first_number(variable: str) -> int:
    return int(variable[1:]) if variable[1:].isdigit() else 1


def _ends_line(text: str) -> bool:
    """A line is complete at the newline the grammar puts after it."""
    return text.endswith("\n") and bool(text.strip())

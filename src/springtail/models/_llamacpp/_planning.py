"""Writing a plan, and its next lines once their results are in (the embedded presets).

Once a reply opens a call, the model writes the request's calls as a plan
(``_plan.py``), one line at a time after a real ``<tool_call>`` token: the
planner writes ``rK = ``, the model the rest of the line under the plan
grammar (``_plan_grammar.py``), the policy reviews the line, and the model's
next token (or the policy) says whether another line follows. The lines that
need no earlier result are the reply's tool calls; the plan itself goes into
the reply's metadata, so the conversation carries it.

When results are in, the lines whose references have answered are written
out (``_write_out.py``): the line's fixed text is given and the model writes
only the values of the arguments that were variables, having read the
results.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from springtail.models._llamacpp._clauses import Clause, clauses, next_clause
from springtail.models._llamacpp._decisions import (
    Close,
    Decide,
    Drop,
    Keep,
    More,
    Offer,
    Prose,
    Retry,
    Review,
    Wait,
)
from springtail.models._llamacpp._decoder import Decoder
from springtail.models._llamacpp._drafts import LineDraft, PromptLookup
from springtail.models._llamacpp._plan import (
    LINES_KEY,
    PLAN_KEY,
    Plan,
    PlanLine,
    Ref,
)
from springtail.models._llamacpp._plan_grammar import held_texts, line_grammar
from springtail.models._llamacpp._policy import ToolPolicy
from springtail.models._llamacpp._reply import Reply
from springtail.models._llamacpp._rule import line_carries, request_wanted, unused_values
from springtail.models._llamacpp._subjects import unit_takers
from springtail.models._llamacpp._unknown import unknown_call
from springtail.models._llamacpp._view import TurnView
from springtail.models._llamacpp._write_out import write_out
from springtail.tools._definition import ToolDefinition

__all__ = ["MAX_LINES", "Planner"]

logger = logging.getLogger("springtail.models.llamacpp")

MAX_LINES = 8
"""More lines than this in one plan is a model writing calls in a loop."""


class Planner:
    """Writes one reply's plan, or a plan's next lines, through the request's decoder."""

    def __init__(self, decoder: Decoder, policy: ToolPolicy, view: TurnView) -> None:
        self.gen = decoder
        self.policy = policy
        self.view = view
        self._line_start: Any = None

    def write(
        self,
        context: list[int],
        prose: str,
        tools: Sequence[ToolDefinition],
        *,
        offer: Offer | None = None,
    ) -> Reply | Prose | None:
        """The plan of a reply that opened a call.

        ``Prose`` when the policy turns the reply into prose, ``None``
        when no line stands (the reply is then prose, or with an offer opens
        as the model would).

        Args:
            context: The prompt, and any prose the reply opened with.
            prose: That prose (streamed already), kept as the reply's text.
            tools: The tools the plan may call.
            offer: The first line must call one of these tools and, when the
                offer wants values, carry one of them; otherwise no plan.
        """
        gen, policy, view = self.gen, self.policy, self.view
        # After results, a new line may take any earlier result of this turn.
        answered = [v for v, r in view.plan.results.items() if not r.is_error]
        tokens = context + gen.open_tag + gen.newline
        lines: list[PlanLine] = []
        wanted = offer.wanted if offer is not None else frozenset()
        choices: Sequence[ToolDefinition] = offer.tools if offer is not None else tools
        number = _first_number(view.plan.next_variable())
        truncated = False
        retried = bridging = redirected = False
        then: frozenset[str] | None = None  # a first retry's second choice, while unspent
        rejected: set[str] = set()
        steps = policy.profile.step_comments
        note: tuple[str, list[int]] | None = None  # the next line's step comment, when written
        # A line turned away for a lookup, and the arguments the lookup's result gives it.
        deferred: tuple[PlanLine, frozenset[str], frozenset[str]] | None = None
        if offer is not None and offer.waiting is not None:
            deferred = (offer.waiting, offer.looked_up, frozenset(d.name for d in offer.tools))
        as_written: dict[str, PlanLine] = {}  # a waiting line, as the model wrote it
        # A request that asks for several things: each line is written under the clause
        # it serves, the first whose values no line carries yet.
        parts: list[Clause] = []
        if policy.profile.clause_comments and offer is None and not answered:
            parts = clauses(view.request, request_wanted(view, tools))
            parts = parts if len(parts) >= 2 else []
        part, going_on = -1, False
        while len(lines) < MAX_LINES and not gen.cancel.is_set():
            variable = f"r{number}"
            if parts and note is None:
                unused = unused_values(view, lines, tools)
                serves = next_clause(parts, part, unused, going_on=going_on)
                if serves != part:
                    part, comment = serves, f"# {parts[serves].text}"
                    note = (comment, gen.tokenize(comment + "\n"))
            if steps and note is None:
                note = self._step_comment(tokens, number)
            comment, comment_tokens = note or ("", [])
            # "r1 =", not "r1 = ": the model's next token carries its own space (" today"),
            # and a forced trailing space left it only tokens like "_today".
            head = comment_tokens + gen.tokenize(f"{variable} =")
            grammar = line_grammar(
                choices,
                [*answered, *(line.variable for line in lines)],
                # A retried line may not leave the offered tools: without its tool, the model
                # wrote a variant of that tool's name (``days_between_today``), not a new step.
                catch_all=offer is None and not retried,
                not_offered=[d.name for d in tools if d.name not in {c.name for c in choices}],
            )
            drafter = LineDraft(
                choices,
                gen.tokenize,
                gen.detokenize,
                view.values.spelled,
                PromptLookup(tokens + head, shortest=3),
            )
            body = gen.generate(
                grammar, tokens=tokens + head, stream=False, drafter=drafter, done=_ends_line
            )
            if body.finish_reason in ("length", "cancelled"):
                truncated = body.finish_reason == "length"
                break
            line = PlanLine.parse(f"{variable} ={body.text}")
            line_tokens = list(body.tokens)
            if line is None:
                # The catch-all lets the model write a tool that is not offered in any shape
                # (``current_city("France")``): the policy reviews it as that tool's call, or
                # as the offered tool's whose name it glued a parameter onto, which the plan
                # then shows as that tool's call.
                line = unknown_call(variable, body.text, tools)
                if line is not None and any(d.name == line.tool for d in tools):
                    line_tokens = gen.tokenize(line.source()[len(f"{variable} =") :] + "\n")
            if line is None:
                break
            if comment:
                # The rules read the part of the request the line was written under.
                line = replace(line, comment=comment)
            asked = bool(wanted) and not (bridging and bool(line.refs))
            if asked and not line_carries(line, wanted, _schema(choices, line.tool)):
                # The line the policy asked for does not carry what it was asked for (often it
                # repeats the line before): once, it is written again without that tool.
                if retried:
                    break
                # A number written with a unit ("10% off") goes where a parameter speaks of
                # that unit (``rate_percent``): the retry chooses among those tools, if any.
                takers = unit_takers(view.request, wanted, choices) - {line.tool}
                verdict: Review = Retry(line.tool, wanted, only=takers)
            elif any(line.tool == w.tool and line.arguments == w.arguments for w in lines):
                break  # the same call twice in one plan: the model is looping
            else:
                verdict = policy.review(view, line, lines, tools)
            looks_up = isinstance(verdict, Retry) and bool(verdict.looked_up)
            if (
                retried
                and then is not None
                and not looks_up
                and isinstance(verdict, Retry | Prose | Drop)
            ):
                # The first retry's choice was the rule's first guess; its line did not stand
                # either, so the line is written once more with the second choice.
                rejected.add(line.tool)
                second = [d for d in tools if d.name in then - rejected]
                choices = second or [d for d in tools if d.name not in rejected]
                wanted = verdict.wanted if isinstance(verdict, Retry) else frozenset()
                then, redirected = None, True
                continue
            # A retry that names the tools which take a value, or that asks for a request
            # value, may follow a first retry: the second choice can be a near tool too
            # (``find_patient(name="P-103")``), or invent again (``patient_lookup(
            # patient_id="T-B")`` for "Tom Becker", whose line must then carry the name).
            if isinstance(verdict, Retry) and (
                not retried or ((verdict.only or verdict.wanted) and not redirected)
            ):
                redirected = redirected or retried
                if verdict.looked_up:
                    deferred = (line, verdict.looked_up, verdict.only | (verdict.then or set()))
                # The line was a step too early, or the wrong tool: it is written again, in
                # its place, without that tool.
                # The new line is the model's second choice, not the step it meant to write:
                # it may not be a step between ("Book Tom Becker in with Dr. Haddad" went on
                # to list the patient's appointments before booking).
                then = verdict.then if not retried else None
                retried, bridging = True, False
                rejected.add(verdict.without)
                choices = [d for d in choices if d.name != verdict.without]
                if verdict.only:
                    # The tools named are those that give or take the value, whatever an
                    # earlier retry of this line narrowed the choice to.
                    named = [d for d in tools if d.name in verdict.only - rejected]
                    choices = named or choices
                # A retry of a retry may have no tool left of the first one's choice.
                choices = choices or [d for d in tools if d.name not in rejected]
                if verdict.texts:
                    choices = [held_texts(d, sorted(verdict.texts)) for d in choices]
                wanted = verdict.wanted
                continue
            if isinstance(verdict, Retry):
                verdict = Prose(without_tools=True)  # a second step too early: no tool fits
            if isinstance(verdict, Prose):
                if lines:
                    break
                return verdict
            if isinstance(verdict, Drop):
                break
            if isinstance(verdict, Wait) and lines:
                # Its computed values become the line before's result: written out once in.
                # The request's values the model wrote beside them stay carried (an order's
                # SKU-5 beside a computed quantity): what comes next is asked of the line
                # as written.
                as_written[line.variable] = line
                before = Ref(lines[-1].variable)
                line = PlanLine(
                    line.variable,
                    line.tool,
                    tuple((n, before if n in verdict.arguments else v) for n, v in line.arguments),
                )
            else:
                assert isinstance(verdict, Keep)
                if verdict.instead_of:
                    lines = [w for w in lines if w.variable not in verdict.instead_of]
            if isinstance(verdict, Keep) and (verdict.defaults or verdict.amended):
                amended = dict(verdict.amended)
                arguments = tuple(
                    (n, amended.get(n, v)) for n, v in line.arguments if n not in verdict.defaults
                )
                line = PlanLine(line.variable, line.tool, arguments)
                # The plan goes on from the line as it runs, not as the model first wrote it.
                line_tokens = gen.tokenize(line.source()[len(f"{variable} =") :] + "\n")
            lines.append(replace(line, comment=comment) if comment else line)
            tokens = tokens + head + line_tokens
            if deferred is not None and line.tool in deferred[2] and line.refs <= set(answered):
                # The lookup stands: the line it was for comes back, taking the lookup's result.
                # A lookup may read a result already in (a patient's appointments, from the
                # search that found the patient: ``StepBetweenFirst``).
                number += 1
                later = _after_lookup(f"r{number}", *deferred[:2], Ref(line.variable))
                lines.append(later)
                tokens = tokens + gen.tokenize(later.source() + "\n")
            deferred = None
            bridged = bool(wanted) and not asked
            choices, wanted, retried, bridging = tools, frozenset(), False, False
            redirected = False
            rejected = set()
            then = None
            note = None
            step = policy.next(view, [as_written.get(w.variable, w) for w in lines], tools)
            if isinstance(step, Close):
                break
            if steps:
                # The model says what its next step is, then whether a call does it: after
                # the last call it names a step that is none ("# Step 3: Return the result").
                note = self._step_comment(tokens, number + 1)
            elif isinstance(step, Decide | More) and step.note:
                note = (f"# {step.note}", gen.tokenize(f"# {step.note}\n"))
            wants = self._another(tokens + note[1] if note else tokens)
            going_on = wants
            if isinstance(step, More):
                # A line the model meant to write anyway may be a step between (it takes an
                # earlier result) and carry none of the wanted values itself; one such step,
                # then a line must carry them.
                wanted, bridging = step.wanted, wants and not bridged
                if step.tools:
                    choices = [d for d in tools if d.name in step.tools] or tools
            elif not wants:
                break
            number += 1
        if not lines:
            if gen.cancel.is_set():
                return gen.reply(prose, (), "cancelled")
            if truncated:
                return gen.reply(prose, (), "length")
            # A retried first line that did not stand either: no tool fits, and with the tools
            # in view the model would describe the call it meant.
            return Prose(without_tools=True) if retried else None
        # The lines that need nothing this reply writes run now; those that take an earlier
        # result have it, so their values are written out here.
        now = [line for line in lines if line.refs <= set(answered)]
        if gen.options.parallel_tool_calls is False:
            now = now[:1]
        written = write_out(gen, view, now, tools)
        if not written:
            return None
        metadata = {
            PLAN_KEY: Plan(tuple(lines)).source(),
            LINES_KEY: [line.variable for line, _ in written],
        }
        return gen.reply(prose, [call for _, call in written], metadata=metadata)

    def _step_comment(self, tokens: list[int], number: int) -> tuple[str, list[int]]:
        """The model's comment on step ``number`` (``# Step 2: Get the weekday``) and its tokens."""
        gen = self.gen
        head_text = f"# Step {number}:"
        head = gen.tokenize(head_text)
        body = gen.generate(
            _COMMENT_GRAMMAR,
            tokens=tokens + head,
            stream=False,
            max_new=_COMMENT_TOKENS,
            done=_ends_line,
        )
        text, body_tokens = body.text, list(body.tokens)
        if not text.endswith("\n"):  # cut at its length: the line ends here
            text, body_tokens = text + "\n", body_tokens + list(gen.newline)
        return head_text + text.rstrip("\n"), head + body_tokens

    def _another(self, tokens: list[int]) -> bool:
        """Whether another line follows: the model gives a new line at least half its probability.

        At a line's start only ``r`` begins another call; the model's other
        choices there (``print``, a fence, the closing tag) all end the plan.
        Measured on the development half, lines a request needed got 0.92 or
        more, and lines it did not need (a percentage after "128 times 32")
        0.35-0.44 while still being the likeliest single token
        (docs/embedded-model.md).
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

        Each line's fixed text is given; the model writes each argument that
        was a variable, having read its result, under the grammar of that
        parameter. ``None`` when no line can be written (its tool is gone, or
        the model wrote no valid value).
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


def _after_lookup(
    variable: str, line: PlanLine, looked_up: frozenset[str], lookup: Ref
) -> PlanLine:
    """``line`` as the plan's next line, the arguments in ``looked_up`` taking ``lookup``."""
    arguments = tuple((n, lookup if n in looked_up else v) for n, v in line.arguments)
    return PlanLine(variable, line.tool, arguments)


def _first_number(variable: str) -> int:
    return int(variable[1:]) if variable[1:].isdigit() else 1


_COMMENT_GRAMMAR = r'''root ::= [^\n<]+ "\n"'''
"""A step comment: one line of words (no tag: ``</tool_call>`` may not close the plan there)."""
_COMMENT_TOKENS = 40
"""At most this many tokens for a step comment (they run 5-15)."""


def _ends_line(text: str) -> bool:
    """A line is complete at the newline the grammar puts after it."""
    return text.endswith("\n") and bool(text.strip())


def _schema(tools: Sequence[ToolDefinition], name: str) -> Any:
    return next((d.input_schema for d in tools if d.name == name), None)

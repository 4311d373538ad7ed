"""The policy: four members, rules asked in order, and the presets each kind of model gets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from fake_llama import FakeRuntime, FakeTool, plan, replies
from springtail.messages import ChatOptions, Prompt, UserMessage
from springtail.models._llamacpp import (
    SMALL_MODEL_PROFILE,
    Close,
    Decide,
    DecodingProfile,
    Free,
    Keep,
    LlamaCppChatModel,
    Next,
    Opening,
    PlainPolicy,
    PlanLine,
    Prose,
    Review,
    Rule,
    SmallModelPolicy,
    ToolPolicy,
    TurnView,
)
from springtail.tools._definition import ToolDefinition
from test_models_llamacpp_planning import TOOLS, TWICE_REQUEST


def test_the_policy_protocol_has_four_members() -> None:
    members = {n for n in vars(ToolPolicy) if not n.startswith("_")}
    assert members == {"profile", "opening", "review", "next"}
    assert isinstance(SmallModelPolicy(), ToolPolicy)
    assert isinstance(PlainPolicy(), ToolPolicy)


def test_embedded_models_get_the_small_model_policy_and_other_ggufs_the_plain_one() -> None:
    assert isinstance(LlamaCppChatModel("embedded").policy, SmallModelPolicy)
    assert isinstance(LlamaCppChatModel("embedded-small").policy, SmallModelPolicy)
    assert isinstance(LlamaCppChatModel("/models/other.gguf").policy, PlainPolicy)
    custom = SmallModelPolicy(rules=())
    assert LlamaCppChatModel("/models/other.gguf", policy=custom).policy is custom


def test_the_plain_policy_asks_nothing_and_writes_the_templates_calls() -> None:
    policy = PlainPolicy()
    view = TurnView.of([UserMessage("hi")])
    assert policy.profile == DecodingProfile()
    assert policy.opening(view, TOOLS) == Free()
    line = PlanLine("r1", "unknown", ())
    assert policy.review(view, line, [], TOOLS) == Keep()
    assert policy.next(view, [line], TOOLS) == Decide()


@dataclass(frozen=True)
class _Say(Rule):
    opening_answer: Opening | None = None
    review_answer: Review | None = None
    next_answer: Next | None = None

    def opening(self, view: TurnView, tools: Sequence[ToolDefinition]) -> Opening | None:
        return self.opening_answer

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        return self.review_answer

    def next(
        self, view: TurnView, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
    ) -> Next | None:
        return self.next_answer


def test_the_first_rule_with_an_answer_decides() -> None:
    policy = SmallModelPolicy(
        rules=(_Say(), _Say(opening_answer=Prose()), _Say(opening_answer=Free()))
    )
    view = TurnView.of([UserMessage("hi")])
    assert policy.opening(view, TOOLS) == Prose()
    assert policy.review(view, PlanLine("r1", "x", ()), [], TOOLS) == Keep()  # nobody answered


def test_a_rule_that_closes_the_plan_keeps_a_reply_to_one_line() -> None:
    twice = (
        'r1 = calculate(operation="multiply", left=12, right=7)',
        'r2 = calculate(operation="divide", left=300, right=4)',
    )
    for rule, count in ((_Say(next_answer=Close()), 1), (_Say(next_answer=Decide()), 2)):
        runtime = FakeRuntime(replies(plan(*twice)))
        model = LlamaCppChatModel._over(runtime, policy=SmallModelPolicy(rules=(rule,)))
        options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in TOOLS))
        result = model.call(Prompt([UserMessage(TWICE_REQUEST)], options)).result
        assert result is not None
        assert len(result.output.tool_calls) == count


def test_a_profile_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="answer_tokens"):
        DecodingProfile(answer_tokens=0)
    assert SMALL_MODEL_PROFILE.plans
    assert SMALL_MODEL_PROFILE.answer_tokens == 512

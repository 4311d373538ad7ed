"""The six steps, each a small program showing one way of running tools."""

from __future__ import annotations

from collections.abc import Callable

from support_bot.steps._base import SYSTEM_PROMPT, Reporter, Step, StepEnv
from support_bot.steps.final import FinalStep
from support_bot.steps.step1 import Step1
from support_bot.steps.step2 import Step2
from support_bot.steps.step3 import Step3
from support_bot.steps.step4 import MAX_ROUNDS, Step4, friendly_exception_processor
from support_bot.steps.step5 import Step5

__all__ = [
    "MAX_ROUNDS",
    "STEPS",
    "SYSTEM_PROMPT",
    "FinalStep",
    "Reporter",
    "Step",
    "Step1",
    "Step2",
    "Step3",
    "Step4",
    "Step5",
    "StepEnv",
    "build_step",
    "friendly_exception_processor",
]

STEPS: dict[str, Callable[[StepEnv], Step]] = {
    "step1": Step1,
    "step2": Step2,
    "step3": Step3,
    "step4": Step4,
    "step5": Step5,
    "final": FinalStep,
}
"""``--step`` name → the step's class."""


def build_step(name: str, env: StepEnv) -> Step:
    """Build the step called ``name`` (one of ``STEPS``)."""
    try:
        factory = STEPS[name]
    except KeyError:
        raise ValueError(f"Unknown step {name!r}; choose one of {', '.join(STEPS)}.") from None
    return factory(env)

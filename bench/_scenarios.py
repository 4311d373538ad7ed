"""What every framework is asked to do: the same tools, the same script, the same answer.

Each framework's harness translates one :class:`Script` into its own scripted
model. The script decides the next response from a step counter (not from the
history), so every framework pays the same, near-zero, "model" cost; the final
answer is built from the tool results the framework handed back to the model,
which is how a run is verified to have gone through the tools.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

N_ROUNDS = 20  # S1: sequential responses with one tool call each
N_PARALLEL = 8  # S2: tool calls in one response
SLEEP_S = 0.05  # S2: how long each of those calls sleeps
HISTORY_LEN = 500  # S4: messages of history before the prompt

PROMPT = "Please run the tools."
SYSTEM = "You are a benchmark assistant."


@dataclass
class ToolRuns:
    """Counts the tool bodies that really ran, to verify a scenario."""

    count: int = 0


RUNS = ToolRuns()


def add(a: int, b: int) -> int:
    """Add two integers."""
    RUNS.count += 1
    return a + b


async def add_async(a: int, b: int) -> int:
    """Add two integers."""
    RUNS.count += 1
    return a + b


async def slow_async(i: int) -> str:
    """Wait a moment, then echo the number."""
    await asyncio.sleep(SLEEP_S)
    RUNS.count += 1
    return f"s{i}"


def slow_blocking(i: int) -> str:
    """Wait a moment, then echo the number."""
    time.sleep(SLEEP_S)
    RUNS.count += 1
    return f"s{i}"


@dataclass(frozen=True)
class Call:
    """One tool call the scripted model asks for."""

    id: str
    name: str
    args: dict[str, int]

    @property
    def arguments(self) -> str:
        return json.dumps(self.args)


@dataclass
class Script:
    """The responses of one conversation: lists of calls, then the final answer (``None``)."""

    steps: list[list[Call] | None]
    expected_text: str
    expected_runs: int
    position: int = field(default=0)

    def reset(self) -> None:
        self.position = 0

    def next(self) -> list[Call] | None:
        step = self.steps[self.position]
        self.position += 1
        return step


def final_text(results: list[str]) -> str:
    """The scripted final answer: the results of the last tool turn, in call order."""
    return "results: " + ",".join(results)


def s1_script() -> Script:
    steps: list[list[Call] | None] = [
        [Call(f"call_{i}", "add", {"a": i, "b": 1000})] for i in range(1, N_ROUNDS + 1)
    ]
    steps.append(None)
    return Script(steps, final_text([str(N_ROUNDS + 1000)]), N_ROUNDS)


def s2_script() -> Script:
    calls = [Call(f"call_{i}", "slow", {"i": i}) for i in range(N_PARALLEL)]
    return Script([calls, None], final_text([f"s{i}" for i in range(N_PARALLEL)]), N_PARALLEL)


def s4_script() -> Script:
    return Script([[Call("call_1", "add", {"a": 2, "b": 3})], None], final_text(["5"]), 1)


def history_pairs() -> list[tuple[str, str]]:
    """S4's history as (user, assistant) texts: 250 exchanges, 500 messages."""
    return [
        (f"Question {i}: what is on shelf {i}?", f"Shelf {i} holds {i * 3} workbooks.")
        for i in range(HISTORY_LEN // 2)
    ]


@dataclass(frozen=True)
class Outcome:
    """What a run produced, checked against the script before anything is timed."""

    text: str
    tool_runs: int


class VerificationError(AssertionError):
    """A harness did not do what the scenario asks; its timings would be meaningless."""


def verify(label: str, script: Script, outcome: Outcome) -> None:
    if outcome.text != script.expected_text or outcome.tool_runs != script.expected_runs:
        raise VerificationError(
            f"{label}: expected text {script.expected_text!r} after {script.expected_runs} "
            f"tool runs, got {outcome.text!r} after {outcome.tool_runs}"
        )

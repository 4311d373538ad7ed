"""Answers that run on: the profile's bound and the loop detector, on a scripted runtime."""

from __future__ import annotations

import pytest

from fake_llama import FakeRuntime, replies
from springtail.messages import ChatOptions, Prompt, UserMessage
from springtail.models._llamacpp import LlamaCppChatModel
from springtail.models._llamacpp._repeats import Repeats

LOOP = "The rate is high. " * 40
LONG = " ".join(f"word{i}" for i in range(120))  # 700 characters, one token each in the fake


def answer(text: str, options: ChatOptions | None = None) -> tuple[str, str | None]:
    model = LlamaCppChatModel._over(FakeRuntime(replies(text), n_ctx=16384))
    result = model.call(Prompt([UserMessage("Tell me about it.")], options)).result
    assert result is not None
    return result.output.text, result.metadata.finish_reason


def test_an_answer_that_repeats_itself_is_cut_and_says_so() -> None:
    text, finish = answer(LOOP)
    assert finish == "length"
    assert text.startswith("The rate is high. The rate is high.")
    assert len(text) < len(LOOP) / 3


def test_the_loop_stop_can_be_turned_off_per_request() -> None:
    text, finish = answer(LOOP, ChatOptions(max_tokens=1000, extra={"stop_repeats": False}))
    assert text == LOOP
    assert finish == "stop"


def test_an_answer_is_bounded_by_default_and_max_tokens_overrides_the_bound() -> None:
    text, finish = answer(LONG)  # one token per character in the fake
    assert finish == "length"
    assert len(text) == 512
    text, finish = answer(LONG, ChatOptions(max_tokens=1000))
    assert finish == "stop"
    assert text == LONG


def test_text_that_does_not_loop_is_not_a_loop() -> None:
    # A numbered list repeats its shape, not a whole run of tokens, three times in a row.
    listing = [t for i in range(60) for t in (1000 + i, 7, 8, 9)]
    quiet, looping = Repeats(), Repeats()
    assert not any(quiet.feed(t) for t in listing)
    assert any(looping.feed(t) for t in [1, 2, 3, 4, 5, 6] * 10)


@pytest.mark.parametrize("period", [1, 5, 20, 48])
def test_a_run_repeated_three_times_or_over_32_tokens_is_a_loop(period: int) -> None:
    repeats = Repeats()
    block = list(range(100, 100 + period))
    fed = [repeats.feed(t) for t in block * max(4, 40 // period + 1)]
    assert any(fed)
    assert fed.index(True) + 1 >= max(3 * period, 32)

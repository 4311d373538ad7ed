"""Batched decoding: guesses save steps and never change the reply (scripted and real model)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from fake_llama import FakeRuntime, replies
from springtail.models._llamacpp._decoding import common_prefix, decode
from springtail.models._llamacpp._runtime import Runtime, TokenSampler

PROMPT = (
    "<|im_start|>user\nWrite the numbers from 1 to 15, separated by commas.<|im_end|>\n"
    "<|im_start|>assistant\n"
)


@pytest.fixture(scope="module")
def llama(embedded_model: Any) -> Runtime:
    runtime: Runtime = embedded_model._load().runtime
    return runtime


def tokens_of(runtime: Runtime, text: str) -> list[int]:
    return runtime.tokenize(text, special=True)


def greedy(runtime: Runtime, grammar: str | None = None) -> TokenSampler:
    return runtime.sampler(temperature=0.0, top_p=0.95, seed=1, grammar=grammar)


def take(iterator: Any, n: int) -> list[int]:
    out: list[int] = []
    for token in iterator:
        out.append(token)
        if len(out) == n:
            break
    return out


class Counting:
    """Counts the batches a runtime evaluates: one per step, however many tokens it checks."""

    def __init__(self, runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        original = runtime.evaluate

        def counted(tokens: Sequence[int], *, outputs_from: int) -> None:
            self.calls += 1
            original(tokens, outputs_from=outputs_from)

        monkeypatch.setattr(runtime, "evaluate", counted)


@pytest.mark.model
def test_right_guesses_give_the_same_reply_in_fewer_steps(
    llama: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = tokens_of(llama, PROMPT)
    counter = Counting(llama, monkeypatch)
    plain = take(decode(llama, context, greedy(llama)), 24)
    plain_steps, counter.calls = counter.calls, 0

    def oracle(produced: Sequence[int], room: int) -> Sequence[int]:
        return plain[len(produced) : len(produced) + min(room, 6)]

    guessed = take(decode(llama, context, greedy(llama), drafter=oracle), 24)
    assert guessed == plain
    assert llama.detokenize(plain).decode().startswith("1, 2, 3")
    assert counter.calls <= plain_steps // 3


@pytest.mark.model
def test_wrong_guesses_are_dropped_and_the_cache_stays_true(llama: Any) -> None:
    context = tokens_of(llama, PROMPT)
    plain = take(decode(llama, context, greedy(llama)), 20)

    def wrong(produced: Sequence[int], room: int) -> Sequence[int]:
        # The right next token, then nonsense: one accepted, the rest rejected.
        return [plain[len(produced)], 0, 0][:room] if len(produced) < len(plain) else ()

    assert take(decode(llama, context, greedy(llama), drafter=wrong), 20) == plain
    # The cache now ends inside rejected rows' territory: continuing from half-way
    # must reuse only what is true and go on as before.
    assert llama.cached()[: len(context)] == context
    rest = take(decode(llama, context + plain[:10], greedy(llama)), 10)
    assert rest == plain[10:20]


@pytest.mark.model
def test_the_grammar_overrules_the_models_first_choice(llama: Any) -> None:
    context = tokens_of(
        llama, "<|im_start|>user\nWrite a haiku about the sea.<|im_end|>\n<|im_start|>assistant\n"
    )
    free = llama.detokenize(take(decode(llama, context, greedy(llama)), 3)).decode()
    constrained: list[int] = []
    for token in decode(llama, context, greedy(llama, 'root ::= "yes" | "no"')):
        if llama.is_end(token) or len(constrained) == 5:
            break
        constrained.append(token)
    assert free.strip() not in ("yes", "no")
    assert llama.detokenize(constrained).decode() in ("yes", "no")


def test_common_prefix_counts_the_shared_leading_tokens() -> None:
    assert common_prefix([1, 2, 3, 4], [1, 2, 9]) == 2
    assert common_prefix([], [1]) == 0
    assert common_prefix((5, 6), [5, 6, 7]) == 2


# -- the same on a scripted runtime (no weights) --------------------------------------

SCRIPTED = "<|im_start|>user\nCount.<|im_end|>\n<|im_start|>assistant\n"


@pytest.mark.parametrize("good", [True, False])
def test_guesses_never_change_what_is_decoded_on_a_scripted_runtime(
    good: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = FakeRuntime(replies("1, 2, 3, 4, 5, 6, 7, 8, 9, 10"))
    context = tokens_of(runtime, SCRIPTED)
    plain = take(decode(runtime, context, greedy(runtime)), 20)
    counter = Counting(runtime, monkeypatch)

    def guess(produced: Sequence[int], room: int) -> Sequence[int]:
        if good:
            return plain[len(produced) : len(produced) + min(room, 5)]
        return [0, 0, 0][:room]

    again = take(decode(runtime, context, greedy(runtime), drafter=guess), 20)
    assert again == plain
    assert runtime.detokenize(plain).decode() == "1, 2, 3, 4, 5, 6, 7, 8, 9, 10<|im_end|>"[:20]
    # Right guesses take a batch for several tokens; wrong ones cost one step each.
    assert (counter.calls <= 6) if good else (counter.calls == 20)
    assert runtime.cached()[: len(context)] == context

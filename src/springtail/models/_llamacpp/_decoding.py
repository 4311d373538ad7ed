"""Token-by-token decoding with llama.cpp's sampler, checking drafted tokens in one batch.

On the machines the embedded model is made for (a few CPU cores), one
decoding step costs about 100 ms and most of it is spent on the weights,
not on the token: a batch of 16 tokens costs about 3.5 steps. Much of what
the model writes can be guessed for free — the fixed text of a tool call, a
tool's name once its first piece is out, a phrase copied from the request or
a tool result — so guessed tokens ("drafts") are decoded in the same batch
as the last sampled token, and the sampler then runs at each position of the
batch: every draft token it would have picked anyway is accepted, the first
one it would not is replaced by its own pick, and the rest are dropped.
The sampler decides every token, at any temperature; drafts only save
decoding steps. (llama.cpp rounds a batch's arithmetic a little differently
from a single token's, so where two tokens are all but tied the pick can
differ, as it can between any two batch sizes; replaying support-bot's
conversation gave the same 21 of 22 replies.)

The sampler (``Runtime.sampler``) applies a grammar only when its pick breaks
it, as llama.cpp's own ``common_sampler`` does (see ``_llama.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from springtail.models._llamacpp._runtime import Runtime, TokenSampler

__all__ = ["Drafter", "common_prefix", "decode"]


class Drafter(Protocol):
    """Guesses how the text goes on; wrong guesses cost time, never correctness."""

    def __call__(self, produced: Sequence[int], room: int) -> Sequence[int]:
        """At most ``room`` tokens likely to follow ``produced`` (this generation's tokens)."""
        ...


def decode(
    runtime: Runtime,
    context: Sequence[int],
    sampler: TokenSampler,
    *,
    drafter: Drafter | None = None,
    max_draft: int = 15,
) -> Iterator[int]:
    """Sample tokens after ``context`` one by one, until the caller stops asking.

    The KV cache of the longest prefix the runtime has already evaluated is
    kept, so a context that extends the last one evaluates only what was
    appended; the first guesses ride along with that evaluation almost for free.

    Args:
        runtime: The loaded model.
        context: The tokens to continue.
        sampler: Picks each token.
        drafter: Guesses tokens to check in the same batch; ``None`` decodes
            one token per step.
        max_draft: At most this many guessed tokens per batch (a batch's cost
            grows with each).
    """
    context = list(context)
    if not context:
        raise ValueError("nothing to continue: the context is empty")
    pending = _uncached(runtime, context)
    produced: list[int] = []
    while True:
        held = runtime.n_cached()
        room = min(max_draft, runtime.n_batch - 1, runtime.n_ctx - held - len(pending) - 1)
        drafts = list(drafter(produced, room))[:room] if drafter is not None and room > 0 else []
        if len(pending) + len(drafts) > runtime.n_batch:
            runtime.evaluate_long(pending[:-1])  # a long prompt first, in the runtime's batches
            pending = pending[-1:]
            held = runtime.n_cached()
        first = len(pending) - 1  # the batch row whose logits give the next token
        runtime.evaluate(pending + drafts, outputs_from=first)
        for i, draft in enumerate(drafts):
            token = sampler.sample(first + i)
            if token != draft:
                # Rows after the first wrong guess were computed on a false premise.
                runtime.keep_prefix(held + first + i + 1)
                break
            produced.append(token)
            yield token
        else:
            token = sampler.sample(first + len(drafts))
        produced.append(token)
        yield token
        pending = [token]


def common_prefix(a: Sequence[object], b: Sequence[object]) -> int:
    """How many leading items (tokens, characters) ``a`` and ``b`` share."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _uncached(runtime: Runtime, context: list[int]) -> list[int]:
    """Cut the KV cache back to its longest prefix of ``context``; the rest of ``context``."""
    common = common_prefix(runtime.cached(), context)
    # The last token is evaluated again even when cached: its logits are needed.
    common = runtime.keep_prefix(min(common, len(context) - 1))
    return context[common:]

"""The floor of an embedded-model turn: llama.cpp evaluating exactly the same tokens, no framework.

While a turn runs, :class:`Recorder` notes every generation the embedded
model makes: its context, how much of it the KV cache already held, and the
tokens it produced. :func:`replay` then has llama.cpp do exactly that work
again on the same loaded model with nothing around it: evaluate the context's
uncached tokens in batches, then each produced token one at a time, the next
one picked by argmax (the cheapest sampler). No grammar, no drafts, no
streaming, no tool loop. A turn's time divided by its floor is the
framework's cost as a ratio; drafts can take it below 1.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Generation:
    """One generation of a turn: what was evaluated and produced."""

    context: tuple[int, ...]
    cached: int
    """How many leading tokens of ``context`` the KV cache held when it began."""
    produced: tuple[int, ...]


@dataclass
class Recorder:
    """Notes the generations of the embedded model while active (patches its decoding loop)."""

    generations: list[Generation] = field(default_factory=list)

    @contextlib.contextmanager
    def recording(self) -> Iterator[Recorder]:
        """Record every generation made inside the ``with`` block."""
        from springtail.models._llamacpp import _decoder
        from springtail.models._llamacpp._decoding import common_prefix

        # The decoder's module namespace: ``decode`` is its import, not its export.
        namespace = vars(_decoder)
        real = namespace["decode"]

        def recorded(runtime: Any, context: Sequence[int], sampler: Any, **kwargs: Any) -> Any:
            cached = min(common_prefix(runtime.cached(), context), len(context) - 1)
            produced: list[int] = []
            try:
                for token in real(runtime, context, sampler, **kwargs):
                    produced.append(token)
                    yield token
            finally:
                self.generations.append(Generation(tuple(context), cached, tuple(produced)))

        namespace["decode"] = recorded
        try:
            yield self
        finally:
            namespace["decode"] = real


def replay(runtime: Any, generations: Sequence[Generation]) -> float:
    """Seconds llama.cpp alone takes for ``generations`` (setting up each cache is untimed)."""
    import numpy as np

    from springtail.models._llamacpp._decoding import common_prefix

    total = 0.0
    for generation in generations:
        context = list(generation.context)
        # Untimed: the cache holds exactly what it held when the framework began.
        held = runtime.keep_prefix(min(common_prefix(runtime.cached(), context), generation.cached))
        if held < generation.cached:
            runtime.evaluate_long(context[held : generation.cached])
        start = time.perf_counter()
        if generation.cached < len(context) - 1:
            runtime.evaluate_long(context[generation.cached : -1])
        for token in [context[-1], *generation.produced[:-1]]:
            runtime.evaluate([token], outputs_from=0)
            int(np.argmax(runtime.logits(0)))
        total += time.perf_counter() - start
    return total

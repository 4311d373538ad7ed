"""Bounded exponential backoff with jitter, for clients that have no retry of their own.

The OpenAI and Anthropic SDKs retry 429, 5xx and timeouts themselves (their
``max_retries``); the Ollama client does not, so its provider uses this.
The numbers match the SDKs' (0.5 s doubling up to 8 s, minus up to 25 %
jitter) so every provider backs off the same way.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["RetryPolicy", "retry_async"]

T = TypeVar("T")

logger = logging.getLogger("springtail.models")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before trying a failed request again.

    Attributes:
        max_retries: Retries after the first attempt; 0 turns retrying off.
        initial_delay: Seconds before the first retry.
        max_delay: Upper bound of any one wait, so backoff stays bounded.
    """

    max_retries: int = 2
    initial_delay: float = 0.5
    max_delay: float = 8.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, got {self.max_retries}")
        if self.initial_delay < 0 or self.max_delay < 0:
            raise ValueError("retry delays must not be negative")

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number ``retry`` (0-based).

        Jitter spreads clients that failed together so they do not all come
        back at the same instant.
        """
        base = min(self.initial_delay * (2.0**retry), self.max_delay)
        return base * (1.0 - 0.25 * random.random())


async def retry_async(
    attempt: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    retryable: Callable[[BaseException], bool],
) -> T:
    """Run ``attempt``, retrying a retryable failure at most ``policy.max_retries`` times.

    The last failure is raised as is once the retries are spent.
    """
    retry = 0
    while True:
        try:
            return await attempt()
        except Exception as exc:
            if retry >= policy.max_retries or not retryable(exc):
                raise
            wait = policy.delay(retry)
            logger.info("Retrying after %s (%.2f s, retry %d)", exc, wait, retry + 1)
            retry += 1
            await asyncio.sleep(wait)

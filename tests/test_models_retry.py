"""Bounded exponential backoff with jitter for the Ollama provider."""

from __future__ import annotations

import pytest

from springtail.models._retry import RetryPolicy, retry_async


def test_delays_double_stay_bounded_and_carry_jitter() -> None:
    policy = RetryPolicy(max_retries=6, initial_delay=0.5, max_delay=4.0)
    for retry, base in enumerate([0.5, 1.0, 2.0, 4.0, 4.0, 4.0]):
        delays = {policy.delay(retry) for _ in range(50)}
        assert all(0.75 * base <= d <= base for d in delays)
        assert len(delays) > 1  # jitter: clients that failed together spread out


def test_invalid_policies_are_rejected() -> None:
    with pytest.raises(ValueError, match="max_retries"):
        RetryPolicy(max_retries=-1)
    with pytest.raises(ValueError, match="negative"):
        RetryPolicy(initial_delay=-0.1)


async def test_retryable_failures_are_retried_until_success() -> None:
    attempts: list[int] = []

    async def flaky() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise TimeoutError("slow")
        return "ok"

    policy = RetryPolicy(max_retries=2, initial_delay=0.001, max_delay=0.002)
    assert await retry_async(flaky, policy=policy, retryable=lambda e: True) == "ok"
    assert len(attempts) == 3


async def test_the_last_failure_is_raised_once_retries_are_spent() -> None:
    attempts: list[int] = []

    async def down() -> str:
        attempts.append(1)
        raise TimeoutError(f"attempt {len(attempts)}")

    policy = RetryPolicy(max_retries=2, initial_delay=0.001, max_delay=0.002)
    with pytest.raises(TimeoutError, match="attempt 3"):
        await retry_async(down, policy=policy, retryable=lambda e: True)


async def test_failures_that_are_not_retryable_are_raised_at_once() -> None:
    attempts: list[int] = []

    async def broken() -> str:
        attempts.append(1)
        raise ValueError("bad request")

    with pytest.raises(ValueError, match="bad request"):
        await retry_async(broken, policy=RetryPolicy(), retryable=lambda e: False)
    assert len(attempts) == 1

"""Telling an answer that goes round in circles from one that is still saying something.

A small model sometimes falls into a loop after a tool result: one measured
answer took 321 s on 2 cores, the same sentence again and again, where its
neighbours took 10-25 s. The tail of such an answer is one run of tokens
repeated back to back; real text (a list, a table, a number with many
zeros) does not repeat a whole run that many times in a row.
"""

from __future__ import annotations

__all__ = ["Repeats"]


class Repeats:
    """Feeds on an answer's tokens and says when its tail is a loop.

    The tail is a loop when a run of ``period`` tokens (up to
    ``longest_period``) follows itself back to back at least three times and
    the repeated part is at least ``shortest_loop`` tokens long. Checked every
    ``every`` tokens: a loop is caught a few tokens late, and the check costs
    nothing next to a decoding step.

    Args:
        longest_period: The longest run looked for (a sentence or two).
        shortest_loop: The fewest repeated tokens that count as a loop.
        every: Check after this many new tokens.
    """

    def __init__(
        self, *, longest_period: int = 48, shortest_loop: int = 32, every: int = 4
    ) -> None:
        self.longest_period = longest_period
        self.shortest_loop = shortest_loop
        self.every = every
        self.tokens: list[int] = []

    def feed(self, token: int) -> bool:
        """Take one more token; whether the answer's tail is now a loop."""
        tokens = self.tokens
        tokens.append(token)
        if len(tokens) % self.every or len(tokens) < self.shortest_loop:
            return False
        return any(self._loops(period) for period in range(1, self.longest_period + 1))

    def _loops(self, period: int) -> bool:
        span = max(3 * period, self.shortest_loop)
        tokens = self.tokens
        if len(tokens) < span:
            return False
        tail = tokens[-span:]
        return all(tail[i] == tail[i - period] for i in range(period, span))

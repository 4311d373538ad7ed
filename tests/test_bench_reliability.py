"""bench/reliability.py, the probes behind docs/reliability.md, run small."""

from __future__ import annotations

import random

from bench import reliability


def test_the_probes_run_and_count_zero_failures() -> None:
    rng = random.Random(reliability.SEED)
    memory = reliability.memory_probe(1, 3, 5, rng)
    assert memory["processes"] == 3
    assert (memory["split"], memory["lost"]) == (0, 0)
    assert reliability.reserve_probe(2, 3)["oversold"] == 0
    tools = reliability.tools_probe(200, rng)
    assert tools["crashes"] == 0
    assert tools["answered"] + tools["refused"] == 200
    assert reliability.emails_probe(200, rng)["leaked"] == 0

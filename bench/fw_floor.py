"""The floor under S2/S2s: the eight tool calls run with no framework at all.

``asyncio.sleep(0.05)`` on this loop takes about 51 ms (timer granularity), so
"≤ 53 ms" means at most ~2 ms for the framework; these rows show the floor
measured in the same run.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from bench._scenarios import N_PARALLEL, Script, final_text, slow_async, slow_blocking
from bench._timing import Runner

NAME = "no framework"


def build(scenario: str, script: Script) -> Runner:
    if scenario == "S2":

        async def run() -> str:
            script.position = len(script.steps)  # no model: the script is not consulted
            return final_text(
                list(await asyncio.gather(*(slow_async(i) for i in range(N_PARALLEL))))
            )

        return Runner(script, run, is_async=True)
    if scenario == "S2s":
        pool = ThreadPoolExecutor(max_workers=N_PARALLEL)

        async def run_threads() -> str:
            script.position = len(script.steps)
            loop = asyncio.get_running_loop()
            futures = [loop.run_in_executor(pool, slow_blocking, i) for i in range(N_PARALLEL)]
            return final_text(list(await asyncio.gather(*futures)))

        return Runner(script, run_threads, is_async=True)
    raise ValueError(f"no floor for {scenario}")

"""Import time and peak memory per framework, each in a fresh interpreter.

Import time is measured inside the child around the import statement (the
interpreter's own start-up is the same for everyone and is left out). Peak RSS
is the child's high-water mark (``VmHWM``) after importing the framework and running one
verified S1 conversation, so it counts what a small tool-calling app really holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench._timing import Row, Stats

ROOT = Path(__file__).resolve().parent.parent

IMPORTS: dict[str, str] = {
    "springtail (import springtail)": "import springtail",
    "springtail (client + tool + scripted model)": (
        "from springtail import ChatClient, ScriptedChatModel, tool"
    ),
    "pydantic-ai": "from pydantic_ai import Agent, Tool",
    "LangGraph": (
        "from langgraph.prebuilt import create_react_agent\n"
        "from langchain_core.tools import StructuredTool"
    ),
    "openai-agents": "from agents import Agent, Runner, function_tool",
}
TARGET_ROW = "springtail (import springtail)"
PEERS = {"pydantic-ai", "LangGraph", "openai-agents"}

RSS_MODULES: dict[str, str] = {
    "springtail": "bench.fw_springtail",
    "pydantic-ai": "bench.fw_pydantic_ai",
    "LangGraph": "bench.fw_langgraph",
    "openai-agents": "bench.fw_openai_agents",
}

_IMPORT_CHILD = """
import time
t0 = time.perf_counter()
{statement}
t1 = time.perf_counter()
print(t1 - t0)
"""

_RSS_CHILD = """
import json
def hwm():
    # VmHWM belongs to this process image; ru_maxrss would carry the parent's over exec
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
from bench._env import disable_telemetry
disable_telemetry()
base = hwm()
from bench import _scenarios as sc
from bench._timing import measure
import importlib
mod = importlib.import_module({module!r})
measure(mod.NAME + " S1", mod.build("S1", sc.s1_script()), repeat=1, warmup=0)
peak = hwm()
print(json.dumps({{"base_kib": base, "peak_kib": peak}}))
"""


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _run_child(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=_child_env(),
        cwd=str(ROOT),
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{done.stderr.strip()[-2000:]}")
    return done.stdout.strip().splitlines()[-1]


def import_times(runs: int) -> list[Row]:
    """Median/min/max seconds to import each framework, ``runs`` fresh interpreters each."""
    rows: list[Row] = []
    for label, statement in IMPORTS.items():
        try:
            samples = [
                float(_run_child(_IMPORT_CHILD.format(statement=statement))) for _ in range(runs)
            ]
        except RuntimeError as exc:
            rows.append(Row(label, None, note=_last_line(exc), kind=_kind(label)))
            continue
        rows.append(Row(label, Stats.of(samples), kind=_kind(label)))
    return rows


def peak_rss() -> list[tuple[str, int | None, str]]:
    """(framework, peak RSS in KiB, note) after import + one S1 conversation."""
    out: list[tuple[str, int | None, str]] = []
    for label, module in RSS_MODULES.items():
        try:
            data = json.loads(_run_child(_RSS_CHILD.format(module=module)))
        except (RuntimeError, ValueError) as exc:
            out.append((label, None, _last_line(exc)))
            continue
        out.append((label, int(data["peak_kib"]), f"at start {data['base_kib']:,} KiB"))
    return out


def _kind(label: str) -> str:
    if label in PEERS:
        return "peer"
    return "springtail" if label == TARGET_ROW else "reference"


def _last_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[-1][:120] if lines else type(exc).__name__

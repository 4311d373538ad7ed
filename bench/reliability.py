"""Re-run the reliability figures of docs/reliability.md on this machine.

    .venv/bin/python -m bench.reliability              # 13 minutes on 2 busy cores
    .venv/bin/python -m bench.reliability --rounds 2   # a quick look
    .venv/bin/python -m bench.reliability --rounds 1 --turns 200  # the probe's 8 x 200

Four probes, each counting what must stay at zero:

- ``memory``: writer processes append turns (a user and an assistant message
  in one ``add``) to one SQLite conversation at once, and some are SIGKILLed
  mid-run. Every turn must be whole (no message without its partner), and each
  writer's turns must be a gapless prefix: a kill may cost the turn in flight,
  never an earlier one.
- ``reserve``: processes race for the last units of SKU-300 (stock 4) in
  support-bot's store, many times over; no unit may be sold twice.
- ``tools``: random JSON arguments and random text sent to all thirteen tools;
  a tool may answer or refuse the arguments, never crash.
- ``emails``: random valid addresses inside random text; none may survive
  ``customer_contact_lookup``'s masking.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import string
import tempfile
import time
from collections.abc import Callable
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

__all__ = ["main"]

SEED = 15  # issue 15; fixed so that a rerun tries the same inputs


def _writer(path: str, start: Event, name: str, turns: int) -> None:
    from springtail.memory import MessageWindowChatMemory, SqliteChatMemoryRepository
    from springtail.messages import AssistantMessage, UserMessage

    memory = MessageWindowChatMemory(SqliteChatMemoryRepository(path), max_messages=1_000_000)
    memory.get("shared")  # connect before the race
    start.wait(60)
    for i in range(turns):
        memory.add("shared", [UserMessage(f"{name}:{i}"), AssistantMessage(f"{name}:{i}")])


def memory_probe(rounds: int, processes: int, turns: int, rng: random.Random) -> dict[str, int]:
    """Writers in parallel on one SQLite file, some SIGKILLed; count split and lost turns."""
    from springtail.memory import SqliteChatMemoryRepository

    context = multiprocessing.get_context("fork")
    killed = split = lost = stored = 0
    for round_ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "memory.db")
            SqliteChatMemoryRepository(path).close()
            start = context.Event()
            names = [f"r{round_}w{n}" for n in range(processes)]
            workers = [
                context.Process(target=_writer, args=(path, start, name, turns)) for name in names
            ]
            for worker in workers:
                worker.start()
            start.set()
            victims = rng.sample(workers, k=rng.randint(processes // 2, processes))
            for victim in victims:
                time.sleep(rng.uniform(0.0, 0.2))
                if victim.pid is not None and victim.is_alive():
                    os.kill(victim.pid, signal.SIGKILL)
                    killed += 1
            for worker in workers:
                worker.join(300)
            repository = SqliteChatMemoryRepository(path)
            history = repository.find_by_conversation_id("shared")
            repository.close()
            stored += len(history)
            texts = [getattr(m, "text", "") for m in history]  # only user and assistant here
            seen: dict[str, list[int]] = {name: [] for name in names}
            i = 0
            while i < len(history):
                role = history[i].role
                partner = texts[i + 1] if i + 1 < len(history) else None
                if role != "user" or partner != texts[i] or history[i + 1].role != "assistant":
                    split += 1
                    i += 1
                    continue
                name, _, index = texts[i].partition(":")
                seen[name].append(int(index))
                i += 2
            for name, worker in zip(names, workers, strict=True):
                indices = sorted(seen[name])
                expected = turns if worker.exitcode == 0 else len(indices)
                if indices != list(range(expected)):
                    lost += len(set(range(expected)) - set(indices)) or 1
    return {
        "rounds": rounds,
        "processes": rounds * processes,
        "turns written": stored // 2,
        "SIGKILLed": killed,
        "split": split,
        "lost": lost,
    }


def _reserver(path: str, start: Event, results: Any) -> None:
    from support_bot._store import Store
    from support_bot._store_base import InsufficientStockError

    store = Store(path)
    start.wait(60)
    taken = 0
    while True:
        try:
            taken += store.reserve("SKU-300", 1).quantity
        except InsufficientStockError:
            break
    results.put(taken)


def reserve_probe(rounds: int, processes: int) -> dict[str, int]:
    """Processes race for the last 4 units, ``rounds`` times; count units sold twice."""
    from support_bot._store import Store

    context = multiprocessing.get_context("fork")
    attempts = oversold = 0
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            store = Store.in_data_dir(Path(folder))
            initial = store.product("SKU-300").stock
            start = context.Event()
            results = context.Queue()
            workers = [
                context.Process(target=_reserver, args=(str(store.path), start, results))
                for _ in range(processes)
            ]
            for worker in workers:
                worker.start()
            start.set()
            for worker in workers:
                worker.join(120)
            taken = sum(results.get(timeout=10) for _ in workers)
            attempts += taken + processes  # each process's last try is the refusal
            reserved = sum(q for _, sku, q in store.reservations() if sku == "SKU-300")
            stock = store.product("SKU-300").stock
            oversold += max(0, taken - initial) + max(0, -stock) + abs(reserved - taken)
    return {"rounds": rounds, "reservations tried": attempts, "oversold": oversold}


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 2 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.randint(-(2**70), 2**70)
    if kind == 3:
        return rng.uniform(-1e40, 1e40)
    if kind == 4:
        return rng.choice(["1e999999999", "-1e-999999999", "NaN", "Infinity", "-0", "SKU-100"])
    if kind == 5:
        return "".join(
            rng.choice(string.printable + "üé用@\u200b") for _ in range(rng.randrange(40))
        )
    if kind == 6:
        return rng.choice(["x", "@", "a@b.c"]) * rng.randrange(1, 20_000)
    if kind == 7:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["sku", "quantity", "id", "title", "left", "x"]): _random_json(rng, depth + 1)
        for _ in range(rng.randrange(4))
    }


def tools_probe(inputs: int, rng: random.Random) -> dict[str, int]:
    """Random arguments to every tool; count crashes (anything but an answer or a refusal)."""
    from springtail import ToolArgumentsError
    from support_bot._store import Store
    from support_bot.tools import all_tools

    crashes = refused = answered = 0
    with tempfile.TemporaryDirectory() as folder:
        tools = all_tools(Store.in_data_dir(Path(folder)))
        for _ in range(inputs):
            callback = rng.choice(tools)
            names = list(callback.tool_definition.input_schema.get("properties", {}))
            if rng.random() < 0.2:
                tool_input = "".join(rng.choice(string.printable) for _ in range(rng.randrange(30)))
            else:
                arguments = {
                    rng.choice([*names, "extra"]): _random_json(rng)
                    for _ in range(rng.randrange(len(names) + 2))
                }
                tool_input = json.dumps(arguments)
            try:
                callback.call(tool_input)
                answered += 1
            except ToolArgumentsError:
                refused += 1
            except Exception:
                crashes += 1
    return {"inputs": inputs, "answered": answered, "refused": refused, "crashes": crashes}


def emails_probe(inputs: int, rng: random.Random) -> dict[str, int]:
    """Random valid addresses inside random text; count addresses left readable."""
    from support_bot.tools import mask_emails

    atext = string.ascii_letters + string.digits + "!#$%&'*+-/=?^_`{|}~üß用"
    leaks = 0
    for _ in range(inputs):
        local = "".join(rng.choice(atext) for _ in range(rng.randint(1, 20)))
        if rng.random() < 0.2:
            local = '"' + "".join(rng.choice("ab @.,x") for _ in range(rng.randint(1, 10))) + '"'
        if rng.random() < 0.2:
            domain = "[" + ".".join(str(rng.randrange(256)) for _ in range(4)) + "]"
        else:
            labels = rng.randint(1, 4)
            domain = ".".join(
                "".join(rng.choice("abcxyz019üé例") for _ in range(rng.randint(1, 10)))
                for _ in range(labels)
            )
        address = f"{local}@{domain}"
        before = "".join(rng.choice(string.printable) for _ in range(rng.randrange(20)))
        text = f"{before}{rng.choice([' ', ', ', '<', '(', ': '])}{address} and more"
        if address in mask_emails(text):
            leaks += 1
    return {"addresses": inputs, "leaked": leaks}


def main(argv: list[str] | None = None) -> int:
    """Run the probes and print one line each."""
    parser = argparse.ArgumentParser(prog="python -m bench.reliability", description=__doc__)
    parser.add_argument("--rounds", type=int, default=10, help="rounds of the process probes")
    parser.add_argument("--turns", type=int, default=40, help="turns per memory writer")
    parser.add_argument("--inputs", type=int, default=5_000, help="inputs of the random probes")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    probes: list[tuple[str, Callable[[], dict[str, int]]]] = [
        ("memory", lambda: memory_probe(args.rounds, 8, args.turns, rng)),
        ("reserve", lambda: reserve_probe(args.rounds * 10, 12)),
        ("tools", lambda: tools_probe(args.inputs, rng)),
        ("emails", lambda: emails_probe(args.inputs, rng)),
    ]
    failed = False
    for name, probe in probes:
        started = time.perf_counter()
        figures = probe()
        elapsed = time.perf_counter() - started
        shown = ", ".join(f"{key} {value:,}" for key, value in figures.items())
        print(f"{name:<8} {shown} ({elapsed:.1f} s)", flush=True)
        failed |= any(figures.get(k, 0) for k in ("split", "lost", "oversold", "crashes", "leaked"))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

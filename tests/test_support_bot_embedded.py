"""The book's requests answered by the real embedded model, through the final step.

Each turn takes seconds on a CPU, so there is one test per request, sharing one
store so that the to-do added by the reservation shows up in the list.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from support_bot._store import Store
from support_bot.steps import FinalStep, StepEnv

pytestmark = pytest.mark.model


@dataclass
class Recorder:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    results: list[tuple[str, str]] = field(default_factory=list)
    approvals: list[str] = field(default_factory=list)

    def thinking(self) -> None:
        pass

    def tool_started(self, call_id: str, name: str, arguments: str) -> None:
        try:
            parsed = json.loads(arguments or "{}")
        except ValueError:
            parsed = {"raw": arguments}
        self.calls.append((name, parsed))

    def tool_finished(
        self,
        call_id: str,
        name: str,
        result: str,
        is_error: bool,
        duration_s: float,
        approval_wait_s: float = 0.0,
    ) -> None:
        self.results.append((name, result))

    def text(self, delta: str) -> None:
        pass

    def approve(self, name: str, arguments: str) -> bool:
        self.approvals.append(name)
        return True  # as with --yes

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store.in_data_dir(tmp_path_factory.mktemp("support-bot-model"))


def ask(model: Any, store: Store, request: str, conversation: str) -> tuple[str, Recorder]:
    recorder = Recorder()
    env = StepEnv(
        model=model,
        store=store,
        reporter=recorder,
        user_name="reader",
        conversation_id=conversation,
        data_dir=Path(store.path).parent,
    )
    return FinalStep(env).ask(request), recorder


def digits(text: str) -> str:
    return re.sub(r"(?<=\d)[,\s](?=\d{3})", "", text)


def test_multiplication(embedded_model: Any, store: Store) -> None:
    answer, recorder = ask(embedded_model, store, "What is 128 times 32?", "m-calc")
    assert "calculate" in recorder.names()
    assert "4096" in digits(answer)


def test_discount(embedded_model: Any, store: Store) -> None:
    answer, recorder = ask(embedded_model, store, "35,000 at 18% off", "m-discount")
    assert "discount_calculator" in recorder.names()
    assert "28700" in digits(answer)


def test_customer_contact_is_masked(embedded_model: Any, store: Store) -> None:
    answer, recorder = ask(embedded_model, store, "contact of customer C-100", "m-contact")
    assert "customer_contact_lookup" in recorder.names()
    assert "@" not in answer
    assert "0100" in answer or "Minji" in answer


def test_reserve_and_add_a_todo(embedded_model: Any, store: Store) -> None:
    answer, recorder = ask(
        embedded_model,
        store,
        "Reserve 2 units of SKU-100 and add that as a to-do",
        "m-reserve",
    )
    assert recorder.approvals == ["product_reserve"]
    assert store.product("SKU-100").stock == 10
    assert len(store.todos()) == 1
    assert "SKU-100" in store.todos()[0].title.upper() or "2" in store.todos()[0].title
    assert answer.strip()


def test_show_the_todo_list(embedded_model: Any, store: Store) -> None:
    if not store.todos():
        store.add_todo("Ship 2 x SKU-100")
    answer, recorder = ask(embedded_model, store, "show my to-do list", "m-list")
    assert "todo_list" in recorder.names()
    assert store.todos()[0].title.split()[0].lower() in answer.lower()


def test_follow_up_requests_in_one_conversation_call_their_tools(
    embedded_model: Any, store: Store
) -> None:
    # The chat's final step keeps one conversation in memory: after an answered
    # request, the next ones must still go through their tools, not be answered
    # from the history.
    conversation = "m-conversation"
    _, first = ask(embedded_model, store, "What is 128 times 32?", conversation)
    assert first.names() == ["calculate"]
    answer, second = ask(embedded_model, store, "35,000 at 18% off", conversation)
    assert second.names() == ["discount_calculator"]
    assert "28700" in digits(answer)
    _, third = ask(embedded_model, store, "Thanks, that's all!", conversation)
    assert third.names() == []

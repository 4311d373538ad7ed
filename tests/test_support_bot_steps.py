"""Each step end to end on a ScriptedChatModel: the loop, the tools, the store, the reporting."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from fake_llama import FakeRuntime, replies
from springtail import (
    AssistantMessage,
    ChatOptions,
    LlamaCppChatModel,
    Prompt,
    ScriptedChatModel,
    ToolCall,
    ToolResponseMessage,
    UserMessage,
)
from support_bot._store import Store, StoreError
from support_bot.steps import (
    MAX_ROUNDS,
    STEPS,
    FinalStep,
    Step1,
    Step2,
    Step3,
    Step4,
    Step5,
    StepEnv,
    build_step,
)
from support_bot.tool_names import ALL_TOOL_NAMES


def _options(prompt: Prompt) -> ChatOptions:
    assert prompt.options is not None
    return prompt.options


@dataclass
class RecordingReporter:
    approve_answer: bool = True
    events: list[tuple[object, ...]] = field(default_factory=list)

    def thinking(self) -> None:
        self.events.append(("thinking",))

    def tool_started(self, call_id: str, name: str, arguments: str) -> None:
        self.events.append(("start", name, arguments))

    def tool_finished(
        self,
        call_id: str,
        name: str,
        result: str,
        is_error: bool,
        duration_s: float,
        approval_wait_s: float = 0.0,
    ) -> None:
        self.events.append(("end", name, result, is_error))

    def text(self, delta: str) -> None:
        self.events.append(("text", delta))

    def approve(self, name: str, arguments: str) -> bool:
        self.events.append(("approve", name, arguments))
        return self.approve_answer

    def finished(self) -> list[tuple[str, str, bool]]:
        return [(e[1], e[2], e[3]) for e in self.events if e[0] == "end"]  # type: ignore[misc]

    def streamed_text(self) -> str:
        return "".join(str(e[1]) for e in self.events if e[0] == "text")


def call(name: str, call_id: str = "c1", **arguments: object) -> ToolCall:
    return ToolCall(call_id, name, json.dumps(arguments))


def calls(*tool_calls: ToolCall) -> AssistantMessage:
    return AssistantMessage("", tool_calls)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


@pytest.fixture
def reporter() -> RecordingReporter:
    return RecordingReporter()


def make_env(
    store: Store, reporter: RecordingReporter, script: list[object], conversation: str = "c-test"
) -> tuple[StepEnv, ScriptedChatModel]:
    model = ScriptedChatModel(script)  # type: ignore[arg-type]
    env = StepEnv(
        model=model,
        store=store,
        reporter=reporter,
        user_name="reader",
        conversation_id=conversation,
        data_dir=store.path.parent,
    )
    return env, model


def tool_responses(prompt: Prompt) -> list[str]:
    return [
        r.response_data
        for m in prompt.messages
        if isinstance(m, ToolResponseMessage)
        for r in m.responses
    ]


def test_every_step_is_registered(store: Store, reporter: RecordingReporter) -> None:
    assert list(STEPS) == ["step1", "step2", "step3", "step4", "step5", "final"]
    env, _ = make_env(store, reporter, [])
    for name in STEPS:
        step = build_step(name, env)
        assert step.name == name
        assert step.intro
    with pytest.raises(ValueError, match="step1, step2"):
        build_step("step9", env)


def test_step1_method_tools_through_the_advisor(store: Store, reporter: RecordingReporter) -> None:
    env, model = make_env(
        store,
        reporter,
        [
            calls(call("calculate", operation="multiply", left=128, right=32)),
            "128 times 32 is 4096.",
        ],
    )
    step = Step1(env)
    assert "calculate" in step.intro[1]
    assert "current_date" in step.intro[1]
    assert step.ask("What is 128 times 32?") == "128 times 32 is 4096."
    assert reporter.finished() == [("calculate", "128 * 32 = 4096", False)]
    assert tool_responses(model.prompts[1]) == ["128 * 32 = 4096"]
    sent = {cb.tool_definition.name for cb in _options(model.prompts[0]).tool_callbacks}
    assert sent == {"current_datetime", "current_date", "calculate", "percentage"}
    assert [type(m) for m in step.history()] == [UserMessage, AssistantMessage]


def test_step2_function_tools_mask_emails(store: Store, reporter: RecordingReporter) -> None:
    env, model = make_env(
        store,
        reporter,
        [
            calls(
                call("discount_calculator", "d", price=35000, rate_percent=18),
                call("customer_contact_lookup", "c", customer_id="C-100"),
            ),
            "Done.",
        ],
    )
    assert Step2(env).ask("35,000 at 18% off, and the contact of C-100") == "Done."
    discount, contact = tool_responses(model.prompts[1])
    assert discount == "List price 35,000, 18% off: final price 28,700."
    assert "Minji Kim" in contact
    assert "[EMAIL]" in contact
    assert "@" not in contact


def test_step3_summary_is_the_answer_and_the_model_is_not_called_again(
    store: Store, reporter: RecordingReporter
) -> None:
    env, model = make_env(
        store, reporter, [calls(call("session_summary", topic="stock questions"))]
    )
    answer = Step3(env).ask("Summarize this session about stock questions")
    assert answer.splitlines() == [
        "Session summary",
        "- User: reader",
        "- Conversation: c-test",
        "- Topic: stock questions",
    ]
    assert len(model.prompts) == 1
    sent = _options(model.prompts[0]).tool_callbacks
    assert "user_name" not in json.dumps(sent[0].tool_definition.input_schema)


def test_step4_reserves_after_approval_and_adds_the_todo(
    store: Store, reporter: RecordingReporter
) -> None:
    env, model = make_env(
        store,
        reporter,
        [
            calls(call("product_reserve", "r", sku="SKU-100", quantity=2)),
            calls(call("todo_add", "t", title="Ship 2 x SKU-100")),
            "Reserved 2 units of SKU-100 and added the to-do.",
        ],
    )
    step = Step4(env)
    answer = step.ask("Reserve 2 units of SKU-100 and add that as a to-do")
    assert answer == "Reserved 2 units of SKU-100 and added the to-do."
    assert ("approve", "product_reserve", '{"sku": "SKU-100", "quantity": 2}') in reporter.events
    assert store.product("SKU-100").stock == 10
    assert [t.title for t in store.todos()] == ["Ship 2 x SKU-100"]
    assert len(model.prompts) == 3
    # the by-hand loop keeps the whole exchange for the next turn
    assert any(isinstance(m, ToolResponseMessage) for m in step.history())


def test_step4_denied_approval_reserves_nothing(store: Store) -> None:
    reporter = RecordingReporter(approve_answer=False)
    env, _ = make_env(
        store,
        reporter,
        [calls(call("product_reserve", sku="SKU-100", quantity=2)), "Not reserved."],
    )
    assert Step4(env).ask("Reserve 2 of SKU-100") == "Not reserved."
    assert store.product("SKU-100").stock == 12
    [(name, _, is_error)] = reporter.finished()
    assert name == "product_reserve"
    assert is_error


def test_step4_stops_after_three_rounds(store: Store, reporter: RecordingReporter) -> None:
    script = [calls(call("todo_list", f"c{n}")) for n in range(MAX_ROUNDS + 1)]
    env, model = make_env(store, reporter, list(script))
    answer = Step4(env).ask("loop forever")
    assert f"after {MAX_ROUNDS} rounds" in answer
    assert len(model.prompts) == MAX_ROUNDS + 1
    assert model.remaining == 0


def test_step4_friendly_processor_words_failures(store: Store, reporter: RecordingReporter) -> None:
    env, model = make_env(
        store,
        reporter,
        [
            calls(call("todo_complete", "a", id="not a number"), call("no_such_tool", "b")),
            "Sorry.",
        ],
    )
    Step4(env).ask("complete it")
    bad_args, unknown = tool_responses(model.prompts[1])
    assert bad_args.startswith("todo_complete could not finish:")
    assert "do not repeat the same call" in bad_args
    assert "no_such_tool" in unknown
    assert "todo_list" in unknown  # names the tools that exist


def test_step4_store_failures_reach_the_caller(
    store: Store, reporter: RecordingReporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> None:
        raise StoreError("The database x is locked.", store.path)

    monkeypatch.setattr(Store, "todos", broken)
    env, _ = make_env(store, reporter, [calls(call("todo_list"))])
    with pytest.raises(StoreError, match="locked"):
        Step4(env).ask("show my to-do list")


def test_step5_streams_and_logs_every_model_call(store: Store, reporter: RecordingReporter) -> None:
    env, model = make_env(
        store,
        reporter,
        [
            calls(call("product_lookup", sku="sku-300")),
            "SKU-300 has **4** units in stock.",
        ],
    )
    step = Step5(env)
    answer = step.ask("How many SKU-300?")
    assert answer == "SKU-300 has **4** units in stock."
    assert reporter.streamed_text() == answer
    assert len([e for e in reporter.events if e[0] == "text"]) > 1  # really streamed
    assert reporter.finished() == [
        ("product_lookup", "SKU-300 RAG Practice Dataset: 4 in stock", False)
    ]
    log = (store.path.parent / "support-bot.log").read_text()
    assert "How many SKU-300?" in log
    assert {cb.tool_definition.name for cb in _options(model.prompts[0]).tool_callbacks} == set(
        ALL_TOOL_NAMES
    )


def test_final_remembers_the_conversation_across_runs(
    store: Store, reporter: RecordingReporter
) -> None:
    env, _ = make_env(
        store,
        reporter,
        [calls(call("todo_add", title="Call C-100")), "Added the to-do #1."],
        conversation="c-keep",
    )
    first = FinalStep(env)
    assert first.ask("Add a to-do: call C-100") == "Added the to-do #1."
    assert reporter.finished() == [("todo_add", "Added to-do #1: Call C-100", False)]

    env2, model2 = make_env(store, RecordingReporter(), ["You asked me to add a to-do."], "c-keep")
    second = FinalStep(env2)
    assert second.ask("What did I ask before?") == "You asked me to add a to-do."
    texts = [getattr(m, "text", "") for m in model2.prompts[0].messages]
    assert "Add a to-do: call C-100" in texts
    assert "What did I ask before?" in [getattr(m, "text", "") for m in second.history()]


def test_final_new_conversation_starts_empty(store: Store, reporter: RecordingReporter) -> None:
    env, model = make_env(store, reporter, ["one", "two"], conversation="c-a")
    step = FinalStep(env)
    step.ask("first")
    step.new_conversation("c-b")
    assert step.conversation_id == "c-b"
    assert step.history() == []
    step.ask("second")
    assert "first" not in [getattr(m, "text", "") for m in model.prompts[1].messages]


def test_final_approval_is_asked_before_reserving(store: Store) -> None:
    reporter = RecordingReporter(approve_answer=True)
    env, _ = make_env(
        store,
        reporter,
        [
            calls(
                call("product_reserve", "r", sku="SKU-100", quantity=2),
                call("todo_add", "t", title="Ship 2 x SKU-100"),
            ),
            "Reserved and noted.",
        ],
    )
    assert FinalStep(env).ask("Reserve 2 units of SKU-100 and add that as a to-do") == (
        "Reserved and noted."
    )
    assert [e[1] for e in reporter.events if e[0] == "approve"] == ["product_reserve"]
    assert store.product("SKU-100").stock == 10
    assert len(store.todos()) == 1


class InterruptedReporter(RecordingReporter):
    """A user who presses Ctrl-C at the approval question."""

    def approve(self, name: str, arguments: str) -> bool:
        super().approve(name, arguments)
        raise KeyboardInterrupt


def test_final_a_question_left_unanswered_is_asked_again_in_a_later_run(store: Store) -> None:
    first_reporter = InterruptedReporter()
    env, _ = make_env(
        store,
        first_reporter,
        [
            calls(
                call("product_reserve", "r", sku="SKU-100", quantity=2),
                call("todo_add", "t", title="Ship 2 x SKU-100"),
            )
        ],
    )
    with pytest.raises(KeyboardInterrupt):
        FinalStep(env).ask("Reserve 2 units of SKU-100 and add that as a to-do")
    assert store.product("SKU-100").stock == 12
    assert len(store.todos()) == 1  # the call that needed no approval ran

    # A later run of the chat in the same conversation (--conversation c-test).
    reporter = RecordingReporter(approve_answer=True)
    env, _ = make_env(store, reporter, ["Reserved and noted.", "Hi there."])
    step = FinalStep(env)
    assert step.resume_pending() == "Reserved and noted."
    assert [e[1:] for e in reporter.events if e[0] == "approve"] == [
        ("product_reserve", '{"sku": "SKU-100", "quantity": 2}')
    ]
    assert store.product("SKU-100").stock == 10
    assert len(store.todos()) == 1  # not added twice
    assert step.resume_pending() is None
    assert step.ask("hello") == "Hi there."
    history = step.history()
    assert [type(m).__name__ for m in history] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResponseMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
    ]


def test_final_a_new_message_first_asks_what_the_conversation_waits_for(store: Store) -> None:
    env, _ = make_env(
        store,
        InterruptedReporter(),
        [calls(call("product_reserve", "r", sku="SKU-300", quantity=1))],
    )
    with pytest.raises(KeyboardInterrupt):
        FinalStep(env).ask("Reserve 1 of SKU-300")
    reporter = RecordingReporter(approve_answer=False)
    env, model = make_env(store, reporter, ["Not reserved, as you wished.", "You're welcome."])
    assert FinalStep(env).ask("thanks") == "You're welcome."
    assert [e[0] for e in reporter.events].count("approve") == 1
    assert store.product("SKU-300").stock == 4
    denial = model.prompts[0].messages[-1]
    assert isinstance(denial, ToolResponseMessage)
    assert "was not approved (the person declined it)" in denial.responses[0].response_data


def test_step4_runs_the_other_calls_once_and_resumes_the_reply_after_approval(
    store: Store, reporter: RecordingReporter
) -> None:
    env, model = make_env(
        store,
        reporter,
        [
            calls(
                call("todo_add", "t", title="Ship 2 x SKU-100"),
                call("product_reserve", "r", sku="SKU-100", quantity=2),
            ),
            "Done.",
        ],
    )
    assert Step4(env).ask("Reserve 2 of SKU-100 and note it") == "Done."
    assert [t.title for t in store.todos()] == ["Ship 2 x SKU-100"]  # once, not again on resume
    assert store.product("SKU-100").stock == 10
    answered = model.prompts[1].messages[-1]
    assert isinstance(answered, ToolResponseMessage)
    assert [r.id for r in answered.responses] == ["t", "r"]  # in call order


@pytest.mark.parametrize("step_class", [FinalStep, Step5])
def test_store_failures_leave_the_client_loop_too(
    store: Store,
    reporter: RecordingReporter,
    monkeypatch: pytest.MonkeyPatch,
    step_class: type[FinalStep] | type[Step5],
) -> None:
    def broken(*_: object) -> None:
        raise StoreError("The database x is locked.", store.path)

    monkeypatch.setattr(Store, "todos", broken)
    env, _ = make_env(store, reporter, [calls(call("todo_list")), "never reached"])
    with pytest.raises(StoreError, match="locked"):
        step_class(env).ask("show my to-do list")


def test_the_final_step_warms_the_embedded_model_up_with_its_prompt_and_history(
    tmp_path: Path,
) -> None:
    runtime = FakeRuntime(replies("Hello! How can I help?"))
    model = LlamaCppChatModel._over(runtime)
    store = Store(tmp_path / "support-bot.db")
    env = StepEnv(
        model=model,
        store=store,
        reporter=RecordingReporter(),
        user_name="reader",
        conversation_id="c-warm",
        data_dir=tmp_path,
    )
    step = FinalStep(env)
    future = step.warm_up()
    assert future is not None
    evaluated = future.result(timeout=60)
    warmed = runtime.detokenize(runtime.cached()).decode()
    assert evaluated == len(runtime.cached())
    assert "product_reserve" in warmed  # the tool definitions are in the cache
    step.ask("Hi")
    # The request evaluated only what follows the warmed prefix: no long evaluation again.
    shared = runtime.tokenize(warmed, special=True)[: evaluated - len("assistant\n")]
    assert runtime.cached()[: len(shared)] == shared
    assert sum(runtime.batches) < 200
    # Server models have nothing to warm up.
    scripted_env, _ = make_env(store, RecordingReporter(), ["Hi"])
    assert FinalStep(scripted_env).warm_up() is None

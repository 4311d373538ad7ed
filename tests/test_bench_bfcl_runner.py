"""bench/bfcl/_runner.py and the CLI: entries driven through a real ChatClient and scored.

ScriptedChatModel stands in for the model only; the ChatClient, tool loop,
memory advisor, tools and BFCL's API classes are the real ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bench.bfcl.__main__ import main
from bench.bfcl._data import Entry, load, sample
from bench.bfcl._models import model_factory, oracle_script
from bench.bfcl._multi_turn import MAX_STEPS
from bench.bfcl._runner import RunSettings, run_entry

from springtail import AssistantMessage, ScriptedChatModel, ToolCall


def entry(category: str, entry_id: str) -> Entry:
    return next(e for e in load(category) if e.id == entry_id)


def calls(*pairs: tuple[str, dict[str, Any]]) -> AssistantMessage:
    return AssistantMessage(
        tool_calls=tuple(ToolCall(f"c{i}", n, json.dumps(a)) for i, (n, a) in enumerate(pairs))
    )


def run(e: Entry, script: list[Any]) -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel(script)
    return run_entry(lambda _: model, e), model


def test_live_simple_right_call_passes_through_the_client() -> None:
    e = entry("live_simple", "live_simple_0-0-0")
    outcome, model = run(e, [calls(("get_user_info", {"user_id": 7890, "special": "black"}))])
    assert outcome.passed, outcome
    assert outcome.calls == [{"get_user_info": {"user_id": 7890, "special": "black"}}]
    # The model saw the converted tool and the request; the return-direct tool ended the loop.
    assert len(model.prompts) == 1
    options = model.prompts[0].options
    assert options is not None
    (tool,) = options.tool_callbacks
    assert tool.tool_definition.input_schema["properties"]["user_id"]["type"] == "integer"
    assert "7890" in model.prompts[0].messages[-1].text  # type: ignore[union-attr]


def test_live_simple_wrong_value_fails() -> None:
    e = entry("live_simple", "live_simple_0-0-0")
    outcome, _ = run(e, [calls(("get_user_info", {"user_id": 7891, "special": "black"}))])
    assert not outcome.passed
    assert outcome.error_type == "value_error:others"


def test_a_text_answer_fails_an_ast_entry() -> None:
    outcome, _ = run(entry("live_simple", "live_simple_0-0-0"), ["I would need the user id."])
    assert outcome.error_type == "ast_decoder:decoder_failed"
    assert outcome.text == "I would need the user id."


def test_dotted_names_travel_sanitised_and_score_under_bfcls_name() -> None:
    e = entry("live_simple", "live_simple_2-2-0")
    assert e.functions[0]["name"] == "uber.ride"
    arguments = {"loc": "2020 Addison Street, Berkeley, CA, USA", "type": "comfort", "time": 600}
    outcome, model = run(e, [calls(("uber_ride", arguments))])
    assert outcome.passed, outcome
    assert outcome.calls == [{"uber.ride": arguments}]
    options = model.prompts[0].options
    assert options is not None
    assert [t.tool_definition.name for t in options.tool_callbacks] == ["uber_ride"]


def test_only_the_first_response_counts() -> None:
    e = entry("live_simple", "live_simple_0-0-0")
    # An unknown tool is not return-direct: the loop asks again, and the right call comes late.
    late = calls(("get_user_info", {"user_id": 7890, "special": "black"}))
    outcome, model = run(e, [calls(("lookup", {})), late])
    assert len(model.prompts) == 2
    assert not outcome.passed
    assert outcome.calls == [{"lookup": {}}]


def test_irrelevance_passes_without_a_call_and_fails_with_one() -> None:
    e = load("irrelevance")[0]
    assert run(e, ["That tool cannot compute a triangle's area."])[0].passed
    name = e.functions[0]["name"]
    outcome, _ = run(e, [calls((name, {"weight": 1.0, "height": 2.0}))])
    assert outcome.error_type == "irrelevance_error:decoder_success"


def test_multi_turn_plays_the_conversation_on_live_instances() -> None:
    e = entry("multi_turn_base", "multi_turn_base_11")
    outcome, model = run(e, oracle_script(e))
    assert outcome.passed, outcome
    assert outcome.turns_passed == 2
    assert outcome.calls[0] == [{"ls": {"a": True}}]
    # The second turn's prompt holds the first turn: request, call, its real result, answer.
    second = model.prompts[-2].messages
    texts = " ".join(getattr(m, "text", "") for m in second)
    assert e.turns[0][0]["content"] in texts
    results = [r.response_data for m in second for r in getattr(m, "responses", ())]
    assert any("current_directory_content" in r for r in results)


def test_multi_turn_stops_at_the_first_failed_turn() -> None:
    e = entry("multi_turn_base", "multi_turn_base_11")
    script = [
        calls(("ls", {"a": True})),
        "Here they are.",
        calls(("post_tweet", {"content": "wrong", "tags": ["#fileshowcase"]})),
        "Posted.",
    ]
    outcome, model = run(e, script)
    assert not outcome.passed
    assert outcome.error_type == "multi_turn:instance_state_mismatch"
    assert outcome.turns_passed == 1
    assert len(model.prompts) == 4


def test_multi_turn_fails_past_bfcls_step_limit() -> None:
    e = entry("multi_turn_base", "multi_turn_base_11")
    script: list[Any] = [calls(("pwd", {}))] * (MAX_STEPS + 1)
    outcome, _ = run(e, script)
    assert outcome.error_type == "multi_turn:force_terminated"


def test_a_provider_error_is_a_failed_entry() -> None:
    outcome, _ = run(entry("live_simple", "live_simple_0-0-0"), [])
    assert not outcome.passed
    assert outcome.error_type == "run_error"
    assert "ScriptExhaustedError" in outcome.errors[0]


@pytest.mark.parametrize("category", ["live_simple", "live_parallel", "multi_turn_base"])
def test_the_oracle_scores_a_sample_fully(category: str) -> None:
    model_for = model_factory("scripted:oracle")
    outcomes = [run_entry(model_for, e, RunSettings()) for e in sample(load(category), 10, 0)]
    assert all(o.passed for o in outcomes), [o for o in outcomes if not o.passed]


def test_cli_prints_the_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    code = main(
        [
            "--model",
            "scripted:silent",
            "--category",
            "live_irrelevance",
            "--category",
            "live_simple",
            "--limit",
            "5",
            "--output",
            str(out),
        ]
    )
    assert code == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["live_irrelevance", "5/5", "100.0%", "[56.6,", "100.0]", "0.0"] in rows
    assert ["live_simple", "0/5", "0.0%", "[0.0,", "43.4]", "0.0"] in rows
    report = json.loads(out.read_text())
    assert report["summary"]["live_irrelevance"]["passed"] == 5
    assert report["summary"]["live_simple"]["ci95_high"] == pytest.approx(43.4, abs=0.1)
    assert len(report["results"]) == 10
    assert report["failures"]["live_simple"] == {"ast_decoder:decoder_failed": 5}


def test_cli_workers_keep_the_entries_order(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    args = ["--model", "scripted:oracle", "--category", "multi_turn_base", "--limit", "6"]
    assert main([*args, "--workers", "3", "--output", str(out)]) == 0
    results = json.loads(out.read_text())["results"]
    expected = [e.id for e in sample(load("multi_turn_base"), 6, 0)]
    assert [r["id"] for r in results] == expected
    assert all(r["passed"] for r in results)


def test_cli_refuses_final_categories_without_final() -> None:
    with pytest.raises(SystemExit):
        main(["--model", "scripted:silent", "--category", "simple"])


def test_cli_final_hides_the_calls(tmp_path: Path) -> None:
    out = tmp_path / "final.json"
    args = ["--model", "scripted:oracle", "--final", "--category", "simple", "--limit", "2"]
    assert main([*args, "--output", str(out)]) == 0
    (first, _) = json.loads(out.read_text())["results"]
    assert set(first) == {"id", "category", "passed", "error_type", "seconds"}


def test_cli_lists_categories(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert ["live_multiple", "1053", "ast", "tuning"] in rows
    assert ["simple", "400", "ast", "final", "report", "only", "(--final)"] in rows


@pytest.mark.model
def test_two_live_simple_items_on_the_embedded_model(embedded_model: Any) -> None:
    # The two entries with the shortest prompts keep this test at a few seconds.
    entries = [
        entry("live_simple", "live_simple_247-129-0"),
        entry("live_simple", "live_simple_116-72-0"),
    ]
    outcomes = [run_entry(lambda _: embedded_model, e, RunSettings()) for e in entries]
    assert len(outcomes) == 2
    assert all(o.error_type != "run_error" for o in outcomes), outcomes
    assert 0 <= sum(o.passed for o in outcomes) <= 2

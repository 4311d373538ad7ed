"""bench/bfcl/_multi_turn.py: BFCL's API classes run, and the state and response checks."""

from __future__ import annotations

import pytest
from bench.bfcl._data import Entry, load
from bench.bfcl._multi_turn import (
    Backend,
    MultiTurnJudge,
    as_text,
    parse_call,
    response_check,
    state_check,
)


def entry(entry_id: str) -> Entry:
    return next(e for e in load("multi_turn_base") if e.id == entry_id)


def test_parse_call_reads_literal_arguments_only() -> None:
    assert parse_call("mv(source='a.txt', destination='b')") == (
        "mv",
        (),
        {"source": "a.txt", "destination": "b"},
    )
    assert parse_call("sort('final_report.pdf')") == ("sort", ("final_report.pdf",), {})
    assert parse_call("mean(numbers=[1, 2.5])")[2] == {"numbers": [1, 2.5]}
    for bad in ("x.y(1)", "f(g(1))", "f(a=b)", "1 + 2", "f(**k)"):
        with pytest.raises(ValueError, match="not a call"):
            parse_call(bad)


def test_as_text_is_bfcls_result_text() -> None:
    assert as_text("plain") == "plain"
    assert as_text({"a": 1}) == '{"a": 1}'
    assert as_text([1, 2]) == "[1, 2]"
    assert as_text({"v": object()}).startswith("{'v': <object")  # not JSON: str()


def test_backend_runs_the_classes_on_the_initial_config() -> None:
    backend = Backend(entry("multi_turn_base_11"))
    assert set(backend.instances) == {"TwitterAPI", "GorillaFileSystem"}
    listing = backend.execute("ls", (), {"a": True})
    assert "current_directory_content" in listing
    assert backend.execute("nope").startswith("Error during execution: name 'nope'")
    assert backend.execute("run") == "Error during execution: Function call run is not allowed."
    wrong = backend.execute("ls", (), {"bogus": 1})
    assert wrong.startswith("Error during execution:")
    assert "bogus" in wrong


def test_state_check_compares_public_attributes() -> None:
    e = entry("multi_turn_base_11")
    model, truth = Backend(e), Backend(e)
    assert state_check(model, truth).valid
    model.execute("post_tweet", (), {"content": "hello"})
    verdict = state_check(model, truth)
    assert not verdict.valid
    assert verdict.error_type == "multi_turn:instance_state_mismatch"
    assert any(d.startswith("TwitterAPI.") for d in verdict.errors)


def test_response_check_counts_multiplicity_in_any_order() -> None:
    assert response_check(["b", "a", "x"], ["a", "b"]).valid
    assert not response_check(["a"], ["a", "a"]).valid
    assert response_check(["a", "a"], ["a", "a"]).valid


def test_judge_passes_the_ground_truth_and_fails_a_silent_turn() -> None:
    e = entry("multi_turn_base_11")
    judge = MultiTurnJudge(e)
    judge.execute("ls", {"a": True})
    judge.step()
    assert judge.end_turn().valid
    verdict = judge.end_turn()  # turn 2: no call made
    assert verdict.error_type == "multi_turn:empty_turn_model_response"


def test_judge_fails_a_turn_whose_state_differs() -> None:
    judge = MultiTurnJudge(entry("multi_turn_base_11"))
    judge.execute("ls", {"a": True})
    judge.step()
    assert judge.end_turn().valid
    judge.execute("post_tweet", {"content": "something else", "tags": ["#fileshowcase"]})
    judge.step()
    assert judge.end_turn().error_type == "multi_turn:instance_state_mismatch"


def test_a_turn_with_empty_ground_truth_is_not_checked() -> None:
    e = entry("multi_turn_base_167")
    judge = MultiTurnJudge(e)
    judge.turn_index = len(e.answer) - 1  # the last turn's ground truth is []
    assert e.answer[-1] == []
    assert judge.end_turn().valid


def test_force_quit_fails() -> None:
    judge = MultiTurnJudge(entry("multi_turn_base_11"))
    assert judge.end_turn(force_quit=True).error_type == "multi_turn:force_terminated"

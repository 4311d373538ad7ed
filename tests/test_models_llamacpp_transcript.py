"""An answer carries its turn's calls and results; a later prompt shows the turn again."""

from __future__ import annotations

import json

from fake_llama import ASKED, ask, plan, replies
from springtail.memory._codec import decode_message, encode_message
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp._transcript import (
    MAX_TRANSCRIPT_CHARS,
    TURN_KEY,
    expand,
    transcript,
    with_transcript,
)

CALLED = AssistantMessage(
    "", (ToolCall("c1", "weekday", '{"day": "2026-12-25"}'),), {"plan": ["r1 = weekday(...)"]}
)
ANSWERED = ToolResponseMessage((ToolResponse("c1", "weekday", "Friday, 25 December 2026"),))
TURN: list[Message] = [ASKED, CALLED, ANSWERED]


def test_a_turn_with_results_is_carried_with_its_calls_results_and_plan() -> None:
    carried = transcript(TURN)
    assert carried == [
        {
            "text": "",
            "calls": [["c1", "weekday", '{"day": "2026-12-25"}']],
            "metadata": {"plan": ["r1 = weekday(...)"]},
        },
        {"responses": [["c1", "weekday", "Friday, 25 December 2026", False]]},
    ]
    # Only the last turn: an earlier turn's messages are not carried again.
    later: list[Message] = [*TURN, AssistantMessage("Friday."), UserMessage("And today?")]
    assert transcript(later) is None


def test_an_answer_with_no_results_carries_nothing() -> None:
    assert transcript([ASKED]) is None
    assert with_transcript({"x": 1}, [ASKED]) == {"x": 1}


def test_results_too_long_for_the_context_are_not_carried() -> None:
    long = ToolResponseMessage((ToolResponse("c1", "weekday", "x" * (MAX_TRANSCRIPT_CHARS + 1)),))
    assert transcript([ASKED, CALLED, long]) is None


def test_memory_that_kept_request_and_answer_reads_back_as_the_whole_turn() -> None:
    answer = AssistantMessage("It is a Friday.", (), with_transcript({}, TURN))
    # The metadata survives the stores' JSON codec, as memory keeps it.
    stored = decode_message(json.loads(json.dumps(encode_message(answer))))
    shown = expand([ASKED, stored, UserMessage("And 2026-12-26?")])
    assert [type(m).__name__ for m in shown] == [
        "UserMessage",
        "AssistantMessage",
        "ToolResponseMessage",
        "AssistantMessage",
        "UserMessage",
    ]
    assert shown[1] == CALLED
    assert shown[2] == ANSWERED
    assert shown[3] is stored


def test_memory_that_kept_the_calls_is_not_shown_twice() -> None:
    answer = AssistantMessage("It is a Friday.", (), with_transcript({}, TURN))
    inside = [*TURN, answer]
    assert expand(inside) == inside


def test_a_transcript_written_by_something_else_is_ignored() -> None:
    odd = AssistantMessage("It is a Friday.", (), {TURN_KEY: [{"calls": "not a list"}]})
    assert expand([ASKED, odd]) == [ASKED, odd]
    assert expand([ASKED, AssistantMessage("x", (), {TURN_KEY: 7})])[1:] == [
        AssistantMessage("x", (), {TURN_KEY: 7})
    ]


def test_the_embedded_model_s_answer_after_results_carries_the_turn() -> None:
    message = ask(replies("It is a Friday."), TURN)
    assert message.text.startswith("It is a Friday.")
    assert message.metadata[TURN_KEY] == transcript(TURN)


def test_a_later_prompt_shows_the_earlier_turn_s_result() -> None:
    prompts: list[str] = []

    def script(prompt: str) -> list[tuple[str, float]]:
        prompts.append(prompt)
        return [(plan('r1 = weekday(day="2026-12-26")'), 5.0)]

    answer = AssistantMessage("It is a Friday.", (), with_transcript({}, TURN))
    ask(script, [ASKED, answer, UserMessage("And the day after?")])
    assert prompts
    assert "25 December 2026" in prompts[0]  # the result, not only the answer's words
    assert '"2026-12-25"' in prompts[0]  # the earlier call

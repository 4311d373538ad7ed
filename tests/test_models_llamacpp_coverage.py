"""Answers that state every result: the check, and the answer going on on a scripted runtime."""

from __future__ import annotations

from dataclasses import replace

from fake_llama import FakeRuntime, FakeTool, replies, schema
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Prompt,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import LlamaCppChatModel, SmallModelPolicy
from springtail.models._llamacpp._coverage import news, stated_part, unstated
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

ASKED = "Quote shipping for a 2 kg and a 6 kg parcel."
QUOTES = ["Shipping 2 kg: 19.00 EUR.", "Shipping 6 kg: 31.50 EUR."]


def test_a_result_is_stated_by_any_of_its_new_values() -> None:
    assert unstated("It costs 19 EUR and 31.50 EUR.", QUOTES, ASKED) == []
    assert unstated("The 2 kg parcel costs 19.00 EUR.", QUOTES, ASKED) == [QUOTES[1]]
    # The weights the request gave say nothing of a result.
    assert unstated("Parcels of 2 kg and 6 kg.", QUOTES, ASKED) == QUOTES


def test_a_result_without_new_values_counts_as_stated() -> None:
    assert unstated("It is a Friday.", ["Friday", "No events on 2026-03-16."], "2026-03-16") == []


def test_a_time_is_stated_without_its_leading_zero() -> None:
    assert unstated("There is a free slot at 9:30.", ["Free: 09:30-11:00"], "") == []
    assert unstated("There is a free slot.", ["Free: 09:30-11:00"], "") == ["Free: 09:30-11:00"]


QUOTE = ToolDefinition("quote", "A shipping quote.", schema(weight_kg={"type": "number"}))


def _answered() -> list[object]:
    calls = (
        ToolCall("c1", "quote", '{"weight_kg": 2}'),
        ToolCall("c2", "quote", '{"weight_kg": 6}'),
    )
    return [
        UserMessage(ASKED),
        AssistantMessage(
            "",
            calls,
            {
                PLAN_KEY: ["r1 = quote(weight_kg=2)", "r2 = quote(weight_kg=6)"],
                LINES_KEY: ["r1", "r2"],
            },
        ),
        ToolResponseMessage(
            (ToolResponse("c1", "quote", QUOTES[0]), ToolResponse("c2", "quote", QUOTES[1]))
        ),
    ]


SHORT = "The 2 kg parcel costs 19.00 EUR."
WHOLE = SHORT + " The 6 kg parcel costs 31.50 EUR."


def _answer(
    policy: SmallModelPolicy, then: str = WHOLE, *, tools: bool = True
) -> tuple[str, str | None]:
    # The model would end after the first quote, and would go on to ``then`` if it had to.
    model = LlamaCppChatModel._over(FakeRuntime(replies((SHORT, 9.0), (then, 8.0))), policy=policy)
    options = ChatOptions(tool_callbacks=(FakeTool(QUOTE),) if tools else ())
    result = model.call(Prompt(_answered(), options)).result  # type: ignore[arg-type]
    assert result is not None
    return result.output.text, result.metadata.finish_reason


def test_an_answer_that_leaves_a_result_out_goes_on_to_state_it() -> None:
    text, finish = _answer(SmallModelPolicy())
    assert text == WHOLE
    assert finish == "stop"


def test_without_state_results_the_answer_ends_where_the_model_ends_it() -> None:
    policy = SmallModelPolicy()
    plain = SmallModelPolicy(rules=policy.rules, profile=replace(policy.profile, state_results=0))
    text, _ = _answer(plain)
    assert text == SHORT


def test_an_answer_that_goes_on_without_ending_a_sentence_keeps_what_it_had() -> None:
    text, finish = _answer(SmallModelPolicy(), then=SHORT + " And" + " so on" * 40)
    assert text == SHORT
    assert finish == "stop"


def test_a_going_on_cut_at_its_length_keeps_what_it_says_whole_after_the_result() -> None:
    cut = " The 6 kg parcel costs 31.50 EUR, for a parcel" + " of many sizes" * 40
    text, finish = _answer(SmallModelPolicy(), then=SHORT + cut)
    assert text == WHOLE
    assert finish == "stop"
    assert stated_part(" It is 19.00 EUR. And more", ["19.00"]) == " It is 19.00 EUR."
    assert stated_part(" It is 19.00 EUR and more", ["19.00"]) == ""
    code = ' For example:\nr2 = send(to="a@b.example", text="Hi.") And'
    assert stated_part(code, ["a@b.example"]) == ""


def test_an_answer_written_without_the_tools_states_each_result_too() -> None:
    # support-bot's last step answers with the tools taken away: the same answer path.
    text, _ = _answer(SmallModelPolicy(), tools=False)
    assert text == WHOLE


def test_a_value_another_result_gives_too_does_not_state_a_result_with_its_own() -> None:
    asked = "Reserve every SKU-300 we still have."
    results = [
        "SKU-300 RAG Practice Dataset: 4 in stock",
        "Reserved 4 unit(s) of SKU-300 (RAG Practice Dataset); reservation R-1.",
    ]
    # "4" is the lookup's news and the reservation's: only R-1 states the reservation.
    answer = "The SKU-300 product has 4 units in stock."
    assert unstated(answer, results, asked) == results[1:]
    assert unstated(answer + " Reservation R-1 holds them.", results, asked) == []
    # Going on, the answer must write the reservation's own value.
    assert news(results[1:], asked, results[:1]) == ["R-1"]
    assert news(results[1:], asked) == ["4", "R-1"]
    # Two results that give only the same values are each stated by them.
    assert unstated("Both are 19 EUR.", ["19 EUR", "19 EUR"], "") == []


def test_a_whole_number_result_is_also_stated_without_its_decimals() -> None:
    # An average of 14, 18, 22 and 26 returned "20.0"; the answer went on "The order
    # contains 20 units of SKU-5." and was cut later: "20" is the value it stated.
    asked = "Order SKU-5, as many as the average of 14, 18, 22 and 26."
    assert news(["20.0"], asked) == ["20.0", "20"]
    assert news(["20.5"], asked) == ["20.5"]
    cut = " The order contains 20 units of SKU-5. It will be shipped at the price of $2"
    assert stated_part(cut, news(["20.0"], asked)) == " The order contains 20 units of SKU-5."

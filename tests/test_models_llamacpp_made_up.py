"""``MadeUpValues`` on a scripted runtime: a value no one gave, and what the plan does with it."""

from __future__ import annotations

import json

from fake_llama import (
    ASKED,
    CALENDAR,
    DAYS,
    TOOLS,
    FakeRuntime,
    FakeTool,
    Script,
    ask,
    line,
    plan,
    replies,
    schema,
    view,
)
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import (
    Drop,
    Keep,
    LlamaCppChatModel,
    MadeUpValues,
    Prose,
    Retry,
    SmallModelPolicy,
    Wait,
)
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

# -- MadeUpValues: a value invented, not read -----------------------------------------------


def test_a_line_made_of_invented_values_is_prose_without_the_tools() -> None:
    rule = MadeUpValues()
    invented = line('r1 = days_between(start="2023-04-01", end="2023-04-02")')
    asked = view(UserMessage("How many minutes are there in a day?"))
    assert rule.review(asked, invented, [], TOOLS) == Prose(without_tools=True)
    assert rule.review(view(ASKED), line('r1 = weekday(day="2026-12-25")'), [], TOOLS) is None
    # A variable is not a value the model made up.
    assert rule.review(asked, line("r2 = weekday(day=r1)"), [line("r1 = today()")], TOOLS) is None


def test_a_first_line_that_reads_some_values_and_invents_one_is_a_step_too_early() -> None:
    rule = MadeUpValues()
    asked = view(UserMessage("How many days is it from today until 2026-04-01?"))
    early = line('r1 = days_between(start="2026-03-01", end="2026-04-01")')
    # The request names ``today``: the retry looks there first, then anywhere. The line read
    # a value, so the model writes it again itself: which slot the result fills is its to say.
    today_first = Retry("days_between", only=frozenset({"today"}), then=frozenset())
    assert rule.review(asked, early, [], TOOLS) == today_first
    # With one tool, nothing else could come first: prose.
    assert rule.review(asked, early, [], (DAYS,)) == Prose(without_tools=True)


def test_a_message_to_an_address_no_one_gave_is_a_step_too_early() -> None:
    send = ToolDefinition(
        "send_message",
        "Send a message.",
        schema(to={"type": "string"}, text={"type": "string"}),
    )
    find = ToolDefinition("find_person", "Find people by name.", schema(name={"type": "string"}))
    lookup = ToolDefinition(
        "person_lookup",
        "A person's record: name, e-mail and phone.",
        schema(person_id={"type": "string", "description": "The id, e.g. P-101."}),
    )
    tools = (send, find, lookup)
    asked = view(UserMessage("Send Tom Becker a text that the lot is closed."))
    guessed = line('r1 = send_message(to="tom.becker@example.com", text="The lot is closed.")')
    # The address is a record's: the message waits for the step that reads it.
    verdict = MadeUpValues().review(asked, guessed, [], tools)
    assert isinstance(verdict, Retry)
    assert verdict.without == "send_message"
    # An id in the shape of none the conversation gives was not read either: the line
    # must carry what the request gives (the name).
    initials = line('r1 = person_lookup(person_id="T-B")')
    assert MadeUpValues().review(asked, initials, [], tools) == Retry(
        "person_lookup", frozenset({"tom becker"})
    )
    read = view(
        UserMessage("Send Tom Becker a text that the lot is closed."),
    )
    assert (
        MadeUpValues().review(read, line('r1 = find_person(name="Tom Becker")'), [], tools) is None
    )


def test_a_search_for_a_made_up_address_may_take_the_name_the_request_gives() -> None:
    send = ToolDefinition(
        "send_message",
        "Send a patient a message.",
        schema(to={"type": "string"}, text={"type": "string"}),
    )
    tools = (send, *CLINIC)
    asked = view(UserMessage("Send Tom Becker a text that our parking lot is closed this week."))
    guessed = line(
        'r1 = send_message(to="tom.becker@example.com", '
        'text="Our parking lot is closed this week.")'
    )
    verdict = MadeUpValues().review(asked, guessed, [], tools)
    # Held to "our parking lot" alone, the model searched the patients for "parking lot".
    assert isinstance(verdict, Retry)
    assert verdict.only == frozenset({"find_patient"})
    assert verdict.texts == frozenset({"parking lot", "tom becker"})


def test_a_first_line_that_copies_one_request_value_into_two_arguments_is_too_early() -> None:
    asked = view(UserMessage("How many days is it from today until 2026-04-01?"))
    copied = line('r1 = days_between(start="2026-04-01", end="2026-04-01")')
    assert MadeUpValues().review(asked, copied, [], TOOLS) == Retry(
        "days_between", only=frozenset({"today"}), then=frozenset()
    )
    # A request that names no other tool leaves the retry the model's choice.
    unnamed = view(UserMessage("How long is it until 2026-04-01?"))
    assert MadeUpValues().review(unnamed, copied, [], TOOLS) == Retry("days_between")


def test_a_retried_line_may_not_call_a_tool_that_is_not_offered() -> None:
    request = UserMessage("How many days is it from today until 2026-04-01?")
    copied = 'r1 = days_between(start="2026-04-01", end="2026-04-01")'
    # Without its tool the model's likeliest line is a variant of that tool's name, which
    # the unknown-tool rule would have turned into prose: a retry offers only real tools.
    script = replies(
        (plan(copied), 9.0),
        (plan('r1 = days_between_today("2026-04-01")'), 8.5),
        (plan("r1 = today()"), 8.0),
    )
    message = ask(script, [request])
    assert [c.name for c in message.tool_calls] == ["today"]


def test_a_first_line_that_retries_without_its_tool_looks_the_value_up() -> None:
    request = UserMessage("How many days is it from today until 2026-04-01?")

    def script(prompt: str) -> list[tuple[str, float]]:
        early = plan('r1 = days_between(start="2026-03-01", end="2026-04-01")')
        return [(early, 9.0), (plan("r1 = today()"), 8.0)]

    message = ask(script, [request])
    assert [c.name for c in message.tool_calls] == ["today"]


def test_a_later_line_that_invents_a_value_and_adds_nothing_ends_the_plan() -> None:
    rule = MadeUpValues()
    first = line('r1 = weekday(day="2026-12-25")')
    half = line('r2 = days_between(start="2026-12-25", end="2027-01-09")')
    assert rule.review(view(ASKED), half, [first], TOOLS) == Drop()
    # As a first line, a value read and one invented: a step too early.
    assert rule.review(view(ASKED), half, [], TOOLS) == Retry("days_between")


ARITHMETIC = (
    ToolDefinition(
        "calculate",
        "Two numbers added or multiplied.",
        schema(
            operation={"type": "string", "enum": ["add", "multiply"]},
            left={"type": "number"},
            right={"type": "number"},
        ),
    ),
    ToolDefinition(
        "percentage",
        "What percentage one number is of another.",
        schema(part={"type": "number"}, total={"type": "number"}),
    ),
)


def test_a_later_line_that_computed_a_value_ahead_waits_for_the_line_before() -> None:
    rule = MadeUpValues()
    asked = view(UserMessage("What is 12 times 12, and what percentage is that of 576?"))
    first = line('r1 = calculate(operation="multiply", left=12, right=12)')
    ahead = line("r2 = percentage(part=144, total=576)")
    assert rule.review(asked, ahead, [first], ARITHMETIC) == Wait(frozenset({"part"}))


NOTES_AND_DAYS = (
    ToolDefinition(
        "add_note", "Save a note.", schema(title={"type": "string"}, text={"type": "string"})
    ),
    ToolDefinition("list_events", "List the events on one day.", schema(day={"type": "string"})),
    ToolDefinition(
        "find_free_slot",
        "The first free time on a day for an event of the given length.",
        schema(day={"type": "string"}, minutes={"type": "integer"}),
    ),
)


def test_a_later_line_asked_for_whose_line_before_gives_no_number_picked_a_near_tool() -> None:
    rule = MadeUpValues()
    asked = view(
        UserMessage("Save a note 'Gate' with 4471#. Also, what's on my calendar on 2026-03-18?")
    )
    note = line('r1 = add_note(title="Gate", text="4471#")')
    slot = line('r2 = find_free_slot(day="2026-03-18", minutes=60)')
    # A note gives no length: waiting for it took a 4 from its result. The line asked for is
    # written again without the tool that needs the made-up length, and must carry the day.
    retry = Retry("find_free_slot", frozenset({"2026-03-18"}))
    assert rule.review(asked, slot, [note], NOTES_AND_DAYS) == retry


def test_an_invented_call_is_answered_from_a_prompt_without_the_tools() -> None:
    request = UserMessage("How many minutes are there in a day?")

    def script(prompt: str) -> list[tuple[str, float]]:
        if "<tools>" in prompt:
            return [(plan('r1 = days_between(start="2023-04-01", end="2023-04-02")'), 5.0)]
        return [("There are 1,440 minutes in a day.", 5.0)]

    message = ask(script, [SystemMessage("Be brief."), request])
    assert message.tool_calls == ()
    assert message.text == "There are 1,440 minutes in a day."


def test_an_argument_that_repeats_the_request_is_a_step_too_early() -> None:
    note = ToolDefinition(
        "add_note", "Save a note.", schema(title={"type": "string"}, text={"type": "string"})
    )
    request = "Copy my groceries note into a new note called 'Sunday shopping'."
    parroted = line(f'r1 = add_note(title="Sunday shopping", text="{request}")')
    assert MadeUpValues().review(view(UserMessage(request)), parroted, [], (note, *TOOLS)) == Retry(
        "add_note"
    )
    quoted = line('r1 = add_note(title="Sunday shopping", text="milk")')
    assert MadeUpValues().review(view(UserMessage(request)), quoted, [], (note, *TOOLS)) is None


def test_a_step_too_early_is_retried_with_the_tools_the_request_names_first() -> None:
    # ``weekday`` and ``days_between`` speak of days: they take one, they do not give today's.
    add_event = ToolDefinition(
        "add_event",
        "Add an event on a day.",
        schema(title={"type": "string"}, day={"type": "string"}, start={"type": "string"}),
    )
    tools = (add_event, *TOOLS)
    asked = view(UserMessage("Put 'Call the bank' on my calendar for today at 16:00."))
    early = line('r1 = add_event(title="Call the bank", day="2023-04-01", start="16:00")')
    # The tools whose words match the invented parameter are the second choice, less
    # ``weekday``: it takes a ``day`` itself, so it cannot be the step that gives one.
    takers = frozenset({"days_between"})
    assert MadeUpValues().review(asked, early, [], tools) == Retry(
        "add_event", only=frozenset({"today"}), then=takers
    )
    # Without ``named_first`` (the eighth pass's rule), they are the only choice.
    providers_first = MadeUpValues(named_first=False)
    assert providers_first.review(asked, early, [], tools) == Retry("add_event", only=takers)
    # A request that names no other tool is retried as without it.
    unnamed = view(UserMessage("Put 'Call the bank' on my calendar at 16:00."))
    assert MadeUpValues().review(unnamed, early, [], tools) == providers_first.review(
        unnamed, early, [], tools
    )


def test_a_today_the_request_names_starts_the_chain_end_to_end() -> None:
    add_event = ToolDefinition(
        "add_event",
        "Add an event on a day.",
        schema(title={"type": "string"}, day={"type": "string"}, start={"type": "string"}),
    )
    asked = UserMessage("Put 'Call the bank' on my calendar for today at 16:00.")
    early = plan('r1 = add_event(title="Call the bank", day="2023-04-01", start="16:00")')
    taker = plan('r1 = weekday(day="2023-04-01")')
    today = plan("r1 = today()", 'r2 = add_event(title="Call the bank", day=r1, start="16:00")')

    def script() -> Script:
        return replies((early, 9.0), (taker, 8.0), (today, 7.0))

    message = ask(script(), [asked], tools=(add_event, *TOOLS))
    assert [c.name for c in message.tool_calls] == ["today"]
    providers_first = SmallModelPolicy(
        rules=tuple(
            MadeUpValues(named_first=False) if isinstance(r, MadeUpValues) else r
            for r in SmallModelPolicy().rules
        )
    )
    before = ask(script(), [asked], providers_first, (add_event, *TOOLS))
    assert [c.name for c in before.tool_calls] != ["today"]


# -- MadeUpValues: where an invented value comes from --------------------------------------

_DOCTOR_ID: dict[str, object] = {"type": "string", "description": "The doctor id, e.g. D-1"}
_PATIENT_ID: dict[str, object] = {"type": "string", "description": "The patient id, e.g. P-101"}
CLINIC = (
    ToolDefinition(
        "find_patient", "Find patients by name; returns their ids.", schema(name={"type": "string"})
    ),
    ToolDefinition(
        "patient_lookup",
        "A patient's record by id: name, e-mail address and how much their insurance covers.",
        schema(patient_id=_PATIENT_ID),
    ),
    ToolDefinition("list_doctors", "List the clinic's doctors with their ids.", schema()),
    ToolDefinition(
        "book_appointment",
        "Book an appointment for a patient with a doctor; returns its id.",
        schema(patient_id=_PATIENT_ID, doctor_id=_DOCTOR_ID, day={"type": "string"}),
    ),
    ToolDefinition(
        "cancel_appointment",
        "Cancel an appointment by its id.",
        schema(appointment_id={"type": "string", "description": "The appointment id, e.g. A-501"}),
    ),
    ToolDefinition(
        "visit_price", "The price of a visit, before insurance.", schema(kind={"type": "string"})
    ),
    ToolDefinition(
        "patient_share",
        "What the patient pays for a visit.",
        schema(
            price={"type": "number"},
            coverage_percent={"type": "number", "description": "The insurance's share in percent"},
        ),
    ),
    ToolDefinition("todo_add", "Add a task to the to-do list.", schema(title={"type": "string"})),
)


def test_an_invented_first_line_while_the_request_names_something_starts_from_that() -> None:
    asked = view(UserMessage("Cancel Maria Gonzalez's next appointment."))
    # The schema's own example as the id: the chain starts from the name the request gives.
    early = line('r1 = cancel_appointment(appointment_id="A-501")')
    assert MadeUpValues().review(asked, early, [], CLINIC) == Retry(
        "cancel_appointment", frozenset({"maria gonzalez"})
    )


def test_an_invented_value_a_tool_gives_is_looked_up_with_only_that_tool() -> None:
    asked = view(UserMessage("Book P-105 with our cardiologist on 2026-03-19."))
    early = line('r1 = book_appointment(patient_id="P-105", doctor_id="D-1", day="2026-03-19")')
    assert MadeUpValues().review(asked, early, [], CLINIC) == Retry(
        "book_appointment", only=frozenset({"list_doctors"})
    )


def test_a_chain_step_waits_for_the_line_before_when_that_line_gives_its_value() -> None:
    asked = view(UserMessage("What would patient P-101 pay for a blood test?"))
    price = line('r1 = visit_price(kind="blood test")')
    record = line('r2 = patient_lookup(patient_id="P-101")')
    step = line("r3 = patient_share(price=r1, coverage_percent=0.8)")
    assert MadeUpValues().review(asked, step, [price, record], CLINIC) == Wait(
        frozenset({"coverage_percent"})
    )
    # Without the record in the plan, the step between is written first, from the tool
    # that gives the value.
    assert MadeUpValues().review(asked, line("r2 = " + step.source()[5:]), [price], CLINIC) == (
        Retry("patient_share", only=frozenset({"patient_lookup"}))
    )


def test_an_invented_text_that_names_what_the_line_before_looked_up_waits_for_it() -> None:
    asked = view(UserMessage("Look up patient P-102 and add a to-do to call them back."))
    lookup = line('r1 = patient_lookup(patient_id="P-102")')
    todo = line('r2 = todo_add(title="Call P-102 back")')
    assert MadeUpValues().review(asked, todo, [lookup], CLINIC) == Wait(frozenset({"title"}))


def test_an_invented_id_of_what_the_line_before_speaks_of_waits_for_that_line() -> None:
    done = ToolDefinition(
        "todo_complete",
        "Mark a to-do done.",
        schema(id={"type": "integer", "description": "The to-do id, e.g. 3"}),
    )
    request = UserMessage("Put 'Renew the lease' on my to-do list and then mark it as done.")
    asked = view(request)
    added = line('r1 = todo_add(title="Renew the lease")')
    complete = line("r2 = todo_complete(id=1)")
    assert MadeUpValues().review(asked, complete, [added], (*CLINIC, done)) == Wait(
        frozenset({"id"})
    )
    # A "1" the system prompt holds is no to-do's id either.
    prompted = view(SystemMessage("1. Be brief."), request)
    assert MadeUpValues().review(prompted, complete, [added], (*CLINIC, done)) == Wait(
        frozenset({"id"})
    )
    # After an answer, an id may be one that answer gave ("now mark it as done").
    answered = view(
        UserMessage("Put 'Renew the lease' on my to-do list."),
        AssistantMessage("Added to-do #1: Renew the lease."),
        request,
    )
    assert MadeUpValues().review(answered, complete, [added], (*CLINIC, done)) != Wait(
        frozenset({"id"})
    )
    # After a line about another subject the id is not its result: the step was invented.
    other = line('r1 = visit_price(kind="checkup")')
    assert MadeUpValues().review(asked, complete, [other], (*CLINIC, done)) == Drop()


def test_a_made_up_detail_in_a_text_beside_an_earlier_result_waits_for_that_result() -> None:
    send = ToolDefinition(
        "send_message",
        "Send a patient a message.",
        schema(to={"type": "string"}, text={"type": "string"}),
    )
    asked = view(UserMessage("Send patient P-103 an e-mail to bring her insurance card."))
    record = line('r1 = patient_lookup(patient_id="P-103")')
    dated = line('r2 = send_message(to=r1, text="Bring your card on 2023-04-15 at 10:00.")')
    # The text is written once the record is read, beside the address read from it.
    assert MadeUpValues().review(asked, dated, [record], (*CLINIC, send)) == Wait(
        frozenset({"text"})
    )
    # A line that takes no result has nothing to read the detail from; an invented address
    # is no detail.
    alone = line('r2 = send_message(to="P-103", text="Bring your card on 2023-04-15.")')
    assert MadeUpValues().review(asked, alone, [record], (*CLINIC, send)) != Wait(
        frozenset({"text"})
    )
    mailed = line('r2 = send_message(to=r1, text="Write to a.khan2@example.com")')
    assert MadeUpValues().review(asked, mailed, [record], (*CLINIC, send)) != Wait(
        frozenset({"text"})
    )


def test_a_text_built_from_this_turns_results_is_read_not_invented() -> None:
    discount = ToolDefinition(
        "discount",
        "A price after a percentage off.",
        schema(price={"type": "number"}, rate_percent={"type": "number"}),
    )
    todo = ToolDefinition("todo_add", "Add a to-do.", schema(title={"type": "string"}))
    tools = (discount, todo, *TOOLS)
    request = UserMessage("Knock 15% off 1,980 and add a to-do to quote Daniel that price.")
    ran = AssistantMessage(
        "",
        (ToolCall("c1", "discount", '{"price": 1980, "rate_percent": 15}'),),
        {PLAN_KEY: ["r1 = discount(price=1980, rate_percent=15)"], LINES_KEY: ["r1"]},
    )
    result = ToolResponseMessage((ToolResponse("c1", "discount", '{"final_price": 1683.0}'),))
    after = view(request, ran, result)
    # 1,683 is the result's 1683.0: the title is read, and the line stands.
    assert (
        MadeUpValues().review(after, line('r2 = todo_add(title="Quote Daniel 1,683")'), [], tools)
        is None
    )
    # A number no one gave is invented still, results or not.
    guessed = line('r2 = todo_add(title="Quote Daniel 1,700")')
    assert MadeUpValues().review(after, guessed, [], tools) is not None
    # Before the result, the same text is a step too early.
    early = MadeUpValues().review(
        view(request), line('r1 = todo_add(title="Quote Daniel 1,683")'), [], tools
    )
    assert early is not None


def test_a_text_whose_values_only_the_request_gives_is_not_read_from_a_lookup() -> None:
    asked = UserMessage("Look up patient P-102 and add a to-do to call them back.")
    ran = AssistantMessage(
        "",
        (ToolCall("c1", "patient_lookup", '{"patient_id": "P-102"}'),),
        {PLAN_KEY: ['r1 = patient_lookup(patient_id="P-102")'], LINES_KEY: ["r1"]},
    )
    record = ToolResponseMessage(
        (ToolResponse("c1", "patient_lookup", '{"id": "P-102", "name": "Lena Fischer"}'),)
    )
    todo = line('r2 = todo_add(title="Call P-102 back")')
    # P-102 is the request's: the title names the patient instead of reading the record.
    assert MadeUpValues().review(view(asked, ran, record), todo, [], CLINIC) is not None


def test_an_invented_step_that_takes_no_result_still_ends_the_plan() -> None:
    asked = view(UserMessage("Who is patient P-101?"))
    record = line('r1 = patient_lookup(patient_id="P-101")')
    # The record gives coverage, but a step that takes no result was not asked for.
    share = line("r2 = patient_share(price=90, coverage_percent=0.8)")
    assert MadeUpValues().review(asked, share, [record], CLINIC) == Drop()


def test_a_booking_with_an_invented_doctor_lists_the_doctors_first_end_to_end() -> None:
    request = UserMessage("Book P-105 with our cardiologist on 2026-03-19.")
    early = 'r1 = book_appointment(patient_id="P-105", doctor_id="D-1", day="2026-03-19")'
    script = replies(
        (plan(early), 9.0),
        (plan('r1 = find_patient(name="P-105")'), 8.5),
        (plan("r1 = list_doctors()"), 8.0),
    )
    message = ask(script, [request], tools=CLINIC)
    assert [c.name for c in message.tool_calls] == ["list_doctors"]


# -- MadeUpValues: a filter nobody asked for -------------------------------------------------

_SPECIALTY: dict[str, object] = {
    "anyOf": [{"type": "string", "enum": ["cardiology", "dermatology"]}, {"type": "null"}],
    "default": None,
}
DOCTORS = ToolDefinition(
    "list_doctors",
    "List the clinic's doctors with their ids, optionally of one specialty.",
    {"type": "object", "properties": {"specialty": _SPECIALTY}, "required": []},
)


def test_an_optional_filter_the_conversation_never_names_is_left_at_its_default() -> None:
    guessed = line('r1 = list_doctors(specialty="cardiology")')
    brandt = view(UserMessage("When is Dr. Brandt free on 2026-03-18?"))
    assert MadeUpValues().review(brandt, guessed, [], (DOCTORS,)) == Keep(
        defaults=frozenset({"specialty"})
    )
    # Named, if only by a word that starts as the choice does: the filter stands.
    cardiologist = view(UserMessage("Book P-105 with our cardiologist."))
    assert MadeUpValues().review(cardiologist, guessed, [], (DOCTORS,)) is None


def test_a_filter_left_out_does_not_run_end_to_end() -> None:
    request = UserMessage("When is Dr. Brandt free on 2026-03-18?")
    message = ask(
        replies(plan('r1 = list_doctors(specialty="cardiology")')), [request], tools=(DOCTORS,)
    )
    assert [(c.name, json.loads(c.arguments)) for c in message.tool_calls] == [("list_doctors", {})]
    assert message.metadata[PLAN_KEY] == ["r1 = list_doctors()"]


CALENDAR_TOOLS = (
    ToolDefinition(
        "find_events",
        "Find calendar events whose title holds the words; returns their ids.",
        schema(query={"type": "string"}),
    ),
    ToolDefinition(
        "cancel_event", "Cancel an event by its id.", schema(event_id={"type": "string"})
    ),
    ToolDefinition(
        "calculate",
        "Multiply two numbers.",
        schema(left={"type": "number"}, right={"type": "number"}),
    ),
)


def test_an_invented_id_with_nothing_named_is_looked_up_by_the_tool_that_gives_it() -> None:
    # The request names its subject in words only ("the team sync"): no value to carry,
    # but the invented id is one a tool can find (seventh pass).
    asked = view(UserMessage("Please drop the team sync from my calendar, I can't make it."))
    early = line('r1 = cancel_event(event_id="12345")')
    assert MadeUpValues().review(asked, early, [], CALENDAR_TOOLS) == Retry(
        "cancel_event", only=frozenset({"find_events"}), looked_up=frozenset({"event_id"})
    )
    # Invented numbers are a computation nobody asked for, not an id to look up: prose.
    sums = view(UserMessage("How many minutes are there in a day?"))
    product = line("r1 = calculate(left=24, right=60)")
    assert MadeUpValues().review(sums, product, [], CALENDAR_TOOLS) == Prose(without_tools=True)


# -- A tool that needs a value of the invented one's kind does not give it ---------------------

DATE: dict[str, object] = {"type": "string", "format": "date"}
WEEKDAY_OF_DATE = ToolDefinition("weekday", "The day of the week of a date.", schema(day=DATE))
# Date tools whose dates carry their format, beside a search that needs no date.
DATED_TOOLS = (
    WEEKDAY_OF_DATE,
    ToolDefinition(
        "days_between", "The number of days from one date to another.", schema(start=DATE, end=DATE)
    ),
    ToolDefinition("list_events", "List the events on one day.", schema(day=DATE)),
    ToolDefinition(
        "find_events",
        "Find events whose title holds a word of the query; returns ids and days.",
        schema(query={"type": "string"}),
    ),
    ToolDefinition("today", "Today's date.", schema()),
)


def test_a_first_line_s_invented_date_is_looked_up_by_a_tool_that_needs_no_date() -> None:
    # Every tool here speaks of days; only the search needs none to give one. Before, the
    # retry among all four wrote ``days_between`` with two invented dates, then prose.
    asked = view(UserMessage("What weekday is my dentist appointment on?"))
    invented = line('r1 = weekday(day="2023-04-15")')
    day = frozenset({"day"})
    assert MadeUpValues(search_named=False).review(asked, invented, [], DATED_TOOLS) == Retry(
        "weekday", only=frozenset({"find_events"}), looked_up=day
    )
    # The request names the dentist appointment: the search is held to it.
    assert MadeUpValues().review(asked, invented, [], DATED_TOOLS) == Retry(
        "weekday",
        only=frozenset({"find_events"}),
        looked_up=day,
        texts=frozenset({"dentist appointment"}),
    )
    # A date kept by its parameter's name, not its format, is the same kind by that name.
    named = (
        ToolDefinition("weekday", "The day of the week.", schema(day={"type": "string"})),
        ToolDefinition(
            "list_events", "List the events on one day.", schema(day={"type": "string"})
        ),
        ToolDefinition(
            "find_events", "Find events; returns ids and days.", schema(query={"type": "string"})
        ),
    )
    assert MadeUpValues(search_named=False).review(asked, invented, [], named) == Retry(
        "weekday", only=frozenset({"find_events"}), looked_up=day
    )


def test_a_tool_the_request_names_comes_first_for_a_line_of_invented_values() -> None:
    asked = view(UserMessage("Which weekday is it today?"))
    invented = line('r1 = weekday(day="2023-10-05")')
    assert MadeUpValues().review(asked, invented, [], DATED_TOOLS) == Retry(
        "weekday",
        only=frozenset({"today"}),
        then=frozenset({"find_events"}),
        looked_up=frozenset({"day"}),
    )
    # With no giver left, a line of invented values is prose, as before.
    alone = (WEEKDAY_OF_DATE, DATED_TOOLS[1])
    assert MadeUpValues().review(asked, invented, [], alone) == Prose(without_tools=True)


def test_a_line_turned_away_comes_back_after_the_step_that_gives_its_value_end_to_end() -> None:
    # "What else is on the day of my project review?" found the review and ended there: the
    # model wrote no second line. The line it first wrote comes back, its day the search's.
    asked = UserMessage("What else is on the day of my project review?")
    early = plan('r1 = list_events(day="2023-10-15")')
    search = plan('r1 = find_events(query="project review")')

    def script() -> Script:
        return replies((early, 9.0), (search, 8.0))

    message = ask(script(), [asked], tools=DATED_TOOLS)
    assert [c.name for c in message.tool_calls] == ["find_events"]
    assert message.metadata[PLAN_KEY] == [
        'r1 = find_events(query="project review")',
        "r2 = list_events(day=r1)",
    ]
    # The line that waits for the search is not called before its result is in.
    assert message.metadata[LINES_KEY] == ["r1"]


def test_a_line_of_invented_values_comes_back_after_the_tool_the_request_names() -> None:
    asked = UserMessage("Which weekday is it today?")
    early = plan('r1 = weekday(day="2023-10-05")')

    def script() -> Script:
        return replies((early, 9.0), (plan("r1 = today()"), 8.0))

    message = ask(script(), [asked], tools=DATED_TOOLS)
    assert [c.name for c in message.tool_calls] == ["today"]
    assert message.metadata[PLAN_KEY] == ["r1 = today()", "r2 = weekday(day=r1)"]


def test_a_later_line_s_invented_date_is_looked_up_by_a_tool_whose_results_hold_days() -> None:
    # "How many days from today until my team sync?" went from today() to days_between with
    # an end nobody gave; no tool's words match ``end``, so the line was dropped. The search
    # that "returns ids and days" needs no date: it comes first, and the line takes its day.
    asked = view(UserMessage("How many days from today until my team sync?"))
    first = line("r1 = today()")
    ahead = line('r2 = days_between(start=r1, end="2023-04-15")')
    assert MadeUpValues().review(asked, ahead, [first], DATED_TOOLS) == Retry(
        "days_between", only=frozenset({"find_events"}), looked_up=frozenset({"end"})
    )
    # With no tool whose results hold days, the plan ends before the line, as before.
    undated = tuple(d for d in DATED_TOOLS if d.name != "find_events")
    assert MadeUpValues().review(asked, ahead, [first], undated) == Drop()


def test_a_later_line_comes_back_after_the_search_that_gives_its_date_end_to_end() -> None:
    asked = UserMessage("How many days from today until my team sync?")
    invented = plan("r1 = today()", 'r2 = days_between(start=r1, end="2023-04-15")')
    searched = plan("r1 = today()", 'r2 = find_events(query="team sync")')

    def script() -> Script:
        return replies((invented, 9.0), (searched, 8.0))

    message = ask(script(), [asked], tools=DATED_TOOLS)
    assert [c.name for c in message.tool_calls] == ["today", "find_events"]
    assert message.metadata[PLAN_KEY] == [
        "r1 = today()",
        'r2 = find_events(query="team sync")',
        "r3 = days_between(start=r1, end=r2)",
    ]
    assert message.metadata[LINES_KEY] == ["r1", "r2"]


PUSHED = "Push my dentist appointment to 2026-03-19, same time."
EARLY = 'r1 = add_event(title="Dentist", day="2026-03-19", start="10:00")'


def test_a_first_line_s_invented_time_for_a_thing_the_request_names_is_searched_first() -> None:
    asked = view(UserMessage(PUSHED))
    # Before (``search_named=False``): the retry among the tools whose words match
    # ``start``, the free-slot finder, which invented a length; the reply was prose.
    before = MadeUpValues(search_named=False)
    assert before.review(asked, line(EARLY), [], CALENDAR) == Retry(
        "add_event", only=frozenset({"find_free_slot"})
    )
    # Now no search speaks of a start time, and the free-slot finder needs a day and a
    # length: every search comes first, held to the thing named, and the line comes back
    # after it taking the time.
    assert MadeUpValues().review(asked, line(EARLY), [], CALENDAR) == Retry(
        "add_event",
        only=frozenset({"find_events", "search_notes"}),
        looked_up=frozenset({"start"}),
        texts=frozenset({"dentist appointment"}),
    )
    # A quoted title is a value, not a thing to find: the answer of before.
    titled = view(UserMessage("Put 'Call the dentist' on my calendar on 2026-03-19."))
    assert MadeUpValues().review(titled, line(EARLY), [], CALENDAR) == (
        before.review(titled, line(EARLY), [], CALENDAR)
    )


def test_a_search_whose_results_hold_days_is_the_one_for_an_invented_day() -> None:
    asked = view(UserMessage("On the day of my project review, find two free hours."))
    early = line('r1 = find_free_slot(day="2023-10-15", minutes=60)')
    assert MadeUpValues().review(asked, early, [], CALENDAR) == Retry(
        "find_free_slot",
        only=frozenset({"find_events"}),
        looked_up=frozenset({"day"}),
        texts=frozenset({"project review"}),
    )


def test_the_line_comes_back_after_a_search_held_to_what_the_request_names_end_to_end() -> None:
    # The search is written under a grammar whose query is the thing named: left free, the
    # model searched for the new event's title, "Prep". The fake runtime does not read
    # values, so the grammar it was given is the check.
    asked = UserMessage(
        "Put a 30-minute 'Prep' at the first free time on the day of the team sync."
    )
    early = 'r1 = find_free_slot(day="2023-04-15", minutes=30)'
    script = replies((plan(early), 9.0), (plan('r1 = find_events(query="team sync")'), 8.0))
    runtime = FakeRuntime(script)
    model = LlamaCppChatModel._over(runtime)
    options = ChatOptions(tool_callbacks=tuple(FakeTool(t) for t in CALENDAR))
    result = model.call(Prompt([asked], options)).result
    assert result is not None
    message = result.output
    assert [c.name for c in message.tool_calls] == ["find_events"]
    assert message.metadata[PLAN_KEY] == [
        'r1 = find_events(query="team sync")',
        "r2 = find_free_slot(day=r1, minutes=30)",
    ]
    assert message.metadata[LINES_KEY] == ["r1"]
    searched = [g for g in runtime.grammars if g and "find_events(" in g and "t1 ::=" not in g]
    assert searched
    assert all('"\\"team sync\\""' in g for g in searched)

"""The ``MadeUpValues`` rule: a value with digits that no one gave was invented, not read.

Where an invented value comes from decides the answer (a step taken too early,
a value a tool gives, one computed ahead, a filter nobody asked for), and each
of those readings is a helper of this rule alone; they make it the largest
rule by far, so it has a module of its own. The readings it shares with the
other rules are in ``_rule.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from springtail.models._llamacpp._decisions import Drop, Keep, Prose, Retry, Review, Wait
from springtail.models._llamacpp._plan import PlanLine
from springtail.models._llamacpp._plan_grammar import takes_free_text
from springtail.models._llamacpp._rule import (
    Rule,
    literal_arguments,
    takes_id,
    tool_schema,
    unused_values,
)
from springtail.models._llamacpp._searched import named_things, searches
from springtail.models._llamacpp._subjects import (
    named_tools,
    parameter_words,
    providers,
    tool_words,
    words,
)
from springtail.models._llamacpp._values import (
    ADDRESS,
    Known,
    invented,
    literals,
    made_up,
    normal,
    shape,
    unnamed_filters,
    uses,
)
from springtail.models._llamacpp._view import TurnView
from springtail.tools._definition import ToolDefinition

__all__ = ["MadeUpValues", "dated_givers", "givers"]


@dataclass(frozen=True)
class MadeUpValues(Rule):
    """Values with digits that appear nowhere in the conversation were invented, not read.

    A first line made only of such values means no tool was needed: "How
    many minutes are there in a day?" became
    ``days_between("2023-04-01", "2023-04-02")``. The reply is then prose,
    written from the prompt without the tools (with them the model describes
    the call it meant to make). A first line that reads some values and
    invents others is a step taken too early ("Book Tom Becker in with Dr.
    Haddad (D-2)" became a booking for a patient id nobody gave): the plan
    starts again without that tool (the policy says ``Retry``), so the
    first line looks the value up; a retried line that invents again is
    answered in prose. When the request names other tools by a word of
    their names (``named_first``), the retry chooses among those first ("…
    for today at 16:00" names ``today``; the tools whose words match a
    ``day`` parameter are the tools that take one), then, when that line is
    turned away too, among the tools that give the invented value, or any
    (ninth pass in docs/embedded-model.md).

    An argument whose text is the request itself (``add_note(text="Copy my
    groceries note …")``) was not read either: the note's text is a step
    away.

    A chain starts from what the request gives: a first line made only of
    invented values while the request names something no line carries
    ("Cancel Maria Gonzalez's next appointment" became
    ``cancel_appointment(appointment_id="A-501")``, the schema's example) is
    written again without its tool and must carry one of those values. A
    first line that invents a value the tools can give (``doctor_id="D-1"``
    for "our cardiologist") is written again with only the tools whose
    words match that parameter's (``_subjects.providers``: the tool that
    lists doctors with their ids). So is a first line of only invented
    texts when the request names nothing to carry, if a tool gives them
    ("Please drop the team sync from my calendar" wrote
    ``cancel_event(event_id="12345")``: the tool that finds events comes
    first, or a tool the request names: "Which weekday is it today?" names
    ``today``), and the line comes back after that step, its invented
    values taken from the step's result (``Retry.looked_up``); invented
    numbers there are a computation nobody asked for, and the reply is
    prose. For a first line, a tool that requires a parameter of an
    invented value's kind (a date; else a parameter of the same name)
    needs the value itself and gives none: "What weekday is my dentist
    appointment on?" was retried with ``days_between``, which invented two
    dates (eighteenth pass).

    A later line with such a value either computed it ahead or filled a slot
    the request gave no value for. When the line also carries a request value
    no earlier line carries, the request asked for it; if the line before
    writes a number of its own or gives the value by its words, the model
    computed ahead ("12 times 12, and what percentage is that of 576?" went
    on to ``percentage(part=144, total=576)``): the line waits for the line
    before it, whose result the value becomes. Otherwise a near tool was
    picked for a slot the request has no value for (``find_free_slot(day=
    "2026-03-18", minutes=60)`` for "what's on my calendar on 2026-03-18?"
    after a note), and the line is written again without it, carrying the
    request's value (nineteenth pass). A line waits too when it is a step of
    a chain (it takes an earlier result) and the line before gives that value
    (``patient_share(price=r1, coverage_percent=0.8)`` after a patient's
    record), or when its invented text names what the line before looked up
    (``todo_add(title="Call C-102 back")`` after customer C-102's lookup: the
    title is about the customer), and when its invented values are ids of
    what the line before's tool speaks of (``todo_complete(id=1)`` after
    ``todo_add``: an id is read, never computed; twenty-third pass), or
    when it takes an earlier result and its only invented values are
    details with digits in a free text (a reminder's "on 2023-04-15 at
    10:00 AM"): the text is written once that result is read. A chain step
    whose value another tool gives, not yet called, is written again with
    only those tools (the step between); a date or time no tool gives by its
    words is given by a tool whose description speaks of such values and
    needs none ("returns ids and days"), and the line comes back after it,
    taking its result. Otherwise
    the step was invented ("How many units of SKU-200 are left?" went on to
    ``product_reserve(sku="SKU-200", quantity=10)``) and the plan ends before
    it. A variable is a result, not an invention.

    A first line turned away for an invented text (a day, a time, an id),
    where the request names a thing of the user's that no tool's words name
    ("Push my dentist appointment to 2026-03-19, same time":
    ``_searched.named_things``), starts with a search instead: one whose
    words or dated results speak of the invented values, else any search
    (where every tool that speaks of them needs values of its own), its free
    text held by the line's grammar to the things named (``Retry.texts``;
    left free, "Put a 30-minute 'Prep' … on the day of the team sync"
    searched for "Prep"), and the line comes back after it, taking its
    result. A first line retried for a request value no line carries keeps
    that retry (twenty-first pass).
    """

    named_first: bool = True
    search_named: bool = True
    """A first line turned away for an invented text starts with a search where the request
    names a thing (above); off, the rule decides as it did before the twenty-first pass."""

    def review(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """Prose for an invented first line; a search, a wait or the plan's end (above)."""
        verdict = self._verdict(view, line, written, tools)
        if not self.search_named or written or not isinstance(verdict, Retry | Prose):
            return verdict
        if isinstance(verdict, Retry) and verdict.wanted:
            return verdict
        found = _found_by_search(view, line, tools)
        if found is None:
            return verdict
        # A name the request gives that no call carries is a thing it names too: held to
        # "our parking lot" alone, "Send Tom Becker a text that our parking lot is closed"
        # searched the patients for "parking lot" (twenty-second pass).
        names = view.values.names & unused_values(view, written, tools)
        texts = frozenset(named_things(view.request, tools)) | names
        return Retry(line.tool, only=found[0], looked_up=found[1], texts=texts)

    def _verdict(
        self,
        view: TurnView,
        line: PlanLine,
        written: Sequence[PlanLine],
        tools: Sequence[ToolDefinition],
    ) -> Review | None:
        """The review before a search is considered for a first line."""
        arguments, schema = literal_arguments(line), tool_schema(tools, line.tool)
        made_alone = invented(arguments, view.known, schema) - _from_results(arguments, view)
        made = made_alone | _parroted(arguments, view.request)
        ids = _ids_of_the_line_before(view, arguments, schema, written, tools)
        if ids:
            # An id is read, never computed: one neither the request nor a result gives (a
            # "1" the system prompt happens to hold is no to-do's id), after a line about
            # that subject, is that line's result ("Put 'Send the SKU-300 catalogue' on my
            # to-do list and then mark it as done." went on to ``todo_complete(id=1)``, run
            # beside the ``todo_add`` and before it; twenty-third pass).
            return Wait(ids)
        if not made:
            # A filter the conversation never asked for is a choice made up: it is left out.
            unasked = unnamed_filters(arguments, schema, view.known.text)
            return Keep(defaults=unasked) if unasked else None
        if not written and len(tools) < 2:
            return Prose(without_tools=True)
        # A text that repeats the request names no subject a tool gives ("Copy my groceries
        # note into a new note" as the new note's text): only invented values say which tool
        # to call first.
        given = givers(line, tools, made_alone)
        if not written:
            # A tool that needs a value of the invented one's kind does not give it: asked
            # "What weekday is my dentist appointment on?", the retry among the tools whose
            # words match ``day`` wrote ``days_between`` with two invented dates.
            given = _without_needs(given, made_alone, schema, tools)
            named = named_tools(view.request, tools) - {line.tool} if self.named_first else None
            named = _without_needs(named or frozenset(), made_alone, schema, tools)
        if not written and made_up(arguments, view.known, schema):
            unused = unused_values(view, (line,), tools)
            if unused:
                return Retry(line.tool, unused)
            # A text no one gave (an id, not a computed number) that a tool can look up:
            # the chain starts there ("drop the team sync" wrote event_id="12345"), or at a
            # tool the request names ("Which weekday is it today?" names ``today``).
            if not (given and _all_text(made_alone, schema)):
                return Prose(without_tools=True)
            # The line comes back after that step, its invented values taken from the step's
            # result: "What else is on the day of my project review?" found the review and
            # ended there, without the day's events. (A line that read some values is written
            # again by the model: which slot a result fills is its to say.)
            if named:
                return Retry(line.tool, only=named, then=given, looked_up=made_alone)
            return Retry(line.tool, only=given, looked_up=made_alone)
        if not written:
            # The request's words may name where the chain starts ("… for today at 16:00"
            # names ``today``; the tools whose words match ``day`` are those that take one).
            # They are a guess: a line among them that does not stand either is written once
            # more with the tools that give the invented value (or any).
            if named:
                return Retry(line.tool, only=named, then=given)
            return Retry(line.tool, only=given)
        before = written[-1]
        if (line.refs and before.tool in given) or _names_key(arguments, made, before):
            return Wait(made)
        if line.refs and made == made_alone and _detail_made_up(arguments, made, schema):
            # A text that invents a detail in a line that takes an earlier result is written
            # once that result is read ("Send patient P-103 an e-mail reminding her to bring
            # her insurance card" wrote "… your appointment on 2023-04-15 at 10:00 AM." beside
            # the record's address; twenty-third pass).
            return Wait(made)
        added = _added_request_values(view, line, written, tools)
        if added:
            # The request asked for the line, and the line before computed the value ahead, if
            # it can give one: asked "what's on my calendar on 2026-03-18?" after two notes, the
            # model wrote ``find_free_slot(day="2026-03-18", minutes=60)``, which waited for a
            # note's search and took a 4 from it. A line before that writes no number of its
            # own and gives no such value by its words leaves a near tool, picked for a slot
            # the request has no value for: the line is written again without it.
            if before.tool in given or _writes_number(before):
                return Wait(made)
            return Retry(line.tool, added)
        between = given - {w.tool for w in written}
        if line.refs and between:
            return Retry(line.tool, only=between)
        # A date no tool gives by its words may be one a tool's results hold: asked "How many
        # days from today until my team sync?", the plan went from ``today()`` to
        # ``days_between(start=r1, end="2023-04-15")``; the search that "returns ids and
        # days" finds the sync, and the line comes back taking its day (nineteenth pass).
        dated = _without_needs(dated_givers(made_alone, schema, tools), made_alone, schema, tools)
        between = dated - {line.tool} - {w.tool for w in written}
        if line.refs and between:
            return Retry(line.tool, only=between, looked_up=made_alone)
        return Drop()


def _found_by_search(
    view: TurnView, line: PlanLine, tools: Sequence[ToolDefinition]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The searches that find what the request names, and the invented texts they give."""
    arguments, schema = literal_arguments(line), tool_schema(tools, line.tool)
    texts = frozenset(
        name
        for name in invented(arguments, view.known, schema)
        if isinstance(arguments.get(name), str) and shape(normal(arguments[name])) != "number"
    )
    found = searches(tools) - {line.tool}
    if not texts or not found or not named_things(view.request, tools):
        return None
    given = givers(line, tools, texts)
    speaking = (given | dated_givers(texts, schema, tools)) & found
    if speaking:
        return speaking, texts
    if all((tool_schema(tools, name) or {}).get("required") for name in given):
        return found, texts
    return None


def givers(line: PlanLine, tools: Sequence[ToolDefinition], made: frozenset[str]) -> frozenset[str]:
    """The tools that give every invented argument of ``line`` (by their words), if any."""
    properties: Mapping[str, Any] = (tool_schema(tools, line.tool) or {}).get("properties") or {}
    found: frozenset[str] | None = None
    for name in made:
        tools_for = providers(name, properties.get(name), tools, besides=line.tool)
        found = tools_for if found is None else found & tools_for
    return found or frozenset()


def _from_results(arguments: Mapping[str, Any], view: TurnView) -> frozenset[str]:
    """The text arguments built from this turn's results: every value with digits is read.

    After a discount came back as 1683.0, the model wrote ``todo_add(title="Quote
    Daniel on 1,683")``: a text no message holds whole, though each of its values
    with digits is read, one of them from a result and not from the request
    (tenth pass). A text whose values the request alone gives (``"Call C-102
    back"`` after C-102's lookup) is still about the lookup, not read from it.
    """
    if not view.answered:
        return frozenset()
    results, request = Known(" ".join(view.answered)), Known(view.request)
    built: set[str] = set()
    for name, value in arguments.items():
        if not isinstance(value, str):
            continue
        read = [v for v in literals(value) if any(c.isdigit() for c in v)]
        if (
            read
            and all(view.known.holds(v) for v in read)
            and any(results.holds(v) and not request.holds(v) for v in read)
        ):
            built.add(name)
    return frozenset(built)


def _all_text(names: frozenset[str], schema: Mapping[str, Any] | None) -> bool:
    """Whether every parameter in ``names`` takes a string (an id or a name, not a number)."""
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    return bool(names) and all(
        (properties.get(name) or {}).get("type") == "string" for name in names
    )


def _detail_made_up(
    arguments: Mapping[str, Any], made: frozenset[str], schema: Mapping[str, Any] | None
) -> bool:
    """Whether every invented value is a free text whose made-up part has digits (no address)."""
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    return bool(made) and all(
        takes_free_text(properties.get(name))
        and isinstance(arguments.get(name), str)
        and any(c.isdigit() for c in arguments[name])
        and ADDRESS.search(arguments[name]) is None
        for name in made
    )


def _ids_of_the_line_before(
    view: TurnView,
    arguments: Mapping[str, Any],
    schema: Mapping[str, Any] | None,
    written: Sequence[PlanLine],
    tools: Sequence[ToolDefinition],
) -> frozenset[str]:
    """A later line's ids that neither the request nor a result gives, if about the line before.

    Every such id must be of what the line before's tool speaks of (its
    words), or none is returned. A request that follows an answer may name
    an id that answer gave ("cancel that one"): none is returned there.
    """
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    giver = next((d for d in tools if written and d.name == written[-1].tool), None)
    if giver is None or view.follow_up:
        return frozenset()
    written_ids = {
        name: value
        for name, value in arguments.items()
        if takes_id(name, properties.get(name))
        and isinstance(value, str | int)
        and not isinstance(value, bool)
    }
    if not written_ids:
        return frozenset()  # most lines write no id: the texts are not read for them
    read = Known(" ".join((view.request, *view.answered)))
    ids = frozenset(n for n, v in written_ids.items() if not read.holds(normal(str(v))))
    spoken = tool_words(giver) - {"id"}  # most tools speak of ids
    if all(parameter_words(name, properties.get(name)) & spoken for name in ids):
        return ids
    return frozenset()


def _names_key(arguments: Mapping[str, Any], made: frozenset[str], before: PlanLine) -> bool:
    """Whether an invented text holds an id the line before looked up (a text about it)."""
    keys = {
        normal(v)
        for v in literal_arguments(before).values()
        if isinstance(v, str) and any(c.isdigit() for c in v) and shape(normal(v)) != "number"
    }
    return any(
        isinstance(arguments.get(name), str) and any(k in normal(arguments[name]) for k in keys)
        for name in made
    )


def _parroted(arguments: Mapping[str, Any], request: str) -> frozenset[str]:
    """The arguments whose text is the request itself: a placeholder, not a value read.

    "Copy my groceries note into a new note called 'Sunday shopping'" became
    ``add_note(title="Sunday shopping", text="Copy my groceries note …")``.
    """
    said = " ".join(request.lower().split())
    if len(said) < 20:
        return frozenset()
    return frozenset(
        name
        for name, value in arguments.items()
        if isinstance(value, str)
        and len(" ".join(value.lower().split())) >= 0.8 * len(said)
        and " ".join(value.lower().split()) in said
    )


def _added_request_values(
    view: TurnView, line: PlanLine, written: Sequence[PlanLine], tools: Sequence[ToolDefinition]
) -> frozenset[str]:
    """The values of the request that ``line`` carries and no earlier line carries."""
    request = view.values.literals
    earlier: set[str] = set()
    for other in written:
        earlier |= uses(literal_arguments(other), request, tool_schema(tools, other.tool))
    carried = uses(literal_arguments(line), request, tool_schema(tools, line.tool))
    return frozenset(carried - earlier)


def _writes_number(line: PlanLine) -> bool:
    """Whether a line writes a number of its own (a computation's operand), alone or in a list."""
    return any(
        _is_number(item)
        for value in literal_arguments(line).values()
        for item in (value if isinstance(value, list) else [value])
    )


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _without_needs(
    tools_for: frozenset[str],
    made: frozenset[str],
    schema: Mapping[str, Any] | None,
    tools: Sequence[ToolDefinition],
) -> frozenset[str]:
    """Those of ``tools_for`` that require no value of an invented argument's kind themselves.

    A kind is a parameter's format (a date), or else its name (``patient_id``).
    """
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    kinds = {_kind(name, properties.get(name)) for name in made}
    kept = set()
    for name in tools_for:
        other = tool_schema(tools, name) or {}
        specs: Mapping[str, Any] = other.get("properties") or {}
        if not kinds & {_kind(n, specs.get(n)) for n in other.get("required") or ()}:
            kept.add(name)
    return frozenset(kept)


_DATED_WORDS = {
    "date": frozenset({"date", "day"}),
    "date-time": frozenset({"date", "day", "time"}),
    "time": frozenset({"time"}),
}
"""The words a tool that gives a value of each JSON Schema format speaks of (its results)."""


def dated_givers(
    made: frozenset[str], schema: Mapping[str, Any] | None, tools: Sequence[ToolDefinition]
) -> frozenset[str]:
    """The tools whose descriptions speak of every invented argument's format (its dates).

    Only arguments with a date or time format have such givers: a text's
    kind is its name, which ``givers`` reads already.
    """
    properties: Mapping[str, Any] = (schema or {}).get("properties") or {}
    found: frozenset[str] | None = None
    for name in made:
        spec = properties.get(name)
        form = spec.get("format") if isinstance(spec, Mapping) else None
        spoken = _DATED_WORDS.get(form) if isinstance(form, str) else None
        if spoken is None:
            return frozenset()
        tools_for = frozenset(d.name for d in tools if words(d.description) & spoken)
        found = tools_for if found is None else found & tools_for
    return found or frozenset()


def _kind(name: str, spec: Any) -> str:
    """A parameter's kind: its format where it has one, else its name."""
    form = spec.get("format") if isinstance(spec, Mapping) else None
    return f"format {form}" if isinstance(form, str) else f"name {name.lower()}"

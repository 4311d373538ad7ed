"""Streaming a reply's text: prose passes once it cannot be a call; stop sequences cut.

Generation itself needs the real model; its behaviour is tested through
``LlamaCppChatModel`` in ``test_models_llamacpp.py`` and
``test_support_bot_embedded.py`` (marker ``model``).
"""

from __future__ import annotations

from springtail.models._llamacpp._parse import ReplyKind
from springtail.models._llamacpp._stream import StopScanner, StreamGate, named_tool


def test_prose_streams_as_soon_as_it_cannot_be_a_call() -> None:
    sent: list[str] = []
    gate = StreamGate(sent.append)
    for piece in ["`", "``", "python", "\nprint(1)"]:
        gate.feed(piece)
    assert "".join(sent) == "`" + "``" + "python" + "\nprint(1)"


def test_a_call_is_never_streamed_as_text() -> None:
    sent: list[str] = []
    gate = StreamGate(sent.append)
    for piece in ["```", "json", "\n{", '"name"']:
        gate.feed(piece)
    assert sent == []
    assert gate.kind is ReplyKind.CALLS


def test_stop_sequences_cut_the_text_even_across_pieces() -> None:
    scanner = StopScanner(["END"])
    assert scanner.feed("The answer is 4") == ("The answer is 4", False)
    assert scanner.feed("096 E") == ("096 ", False)  # "E" may begin the stop sequence
    assert scanner.feed("ND and more") == ("", True)
    assert scanner.stopped


def test_text_held_for_a_possible_stop_sequence_is_released_at_the_end() -> None:
    scanner = StopScanner(["###"])
    assert scanner.feed("a #") == ("a ", False)
    assert scanner.rest() == "#"


def test_a_held_first_sentence_that_names_a_tool_is_a_call_never_shown() -> None:
    sent: list[str] = []
    gate = StreamGate(sent.append, code=True)
    gate.hold_first_sentence({"list_appointments", "find_patient"})
    for piece in [
        "To find",
        " her visits, I",
        " call `list_appointments`",
        " with P-101.",
        " Then",
    ]:
        gate.feed(piece)
    assert sent == []
    assert gate.kind is ReplyKind.CALLS
    assert gate.named == "list_appointments"


def test_a_held_first_sentence_that_names_no_tool_is_sent_once_it_ends() -> None:
    sent: list[str] = []
    gate = StreamGate(sent.append, code=True)
    gate.hold_first_sentence({"list_appointments"})
    gate.feed("Hello there")
    assert sent == []  # the sentence goes on: it may still name one
    gate.feed("! How can I help?")
    assert "".join(sent) == "Hello there! How can I help?"
    assert gate.kind is ReplyKind.TEXT
    assert gate.named is None


def test_a_one_word_tool_name_is_a_tool_only_in_backticks_or_called() -> None:
    names = {"today", "list_events"}
    assert named_tool("What's on today? Let me see.", names) is None
    assert named_tool("I would call `today` first.", names) == "today"
    assert named_tool("Run today() first.", names) == "today"
    assert named_tool("Use list_events for that day.", names) == "list_events"
    assert named_tool("Use list_events_v2 for that day.", names) is None


def test_a_held_reply_of_one_sentence_that_names_a_tool_ends_as_a_call() -> None:
    sent: list[str] = []
    gate = StreamGate(sent.append, code=True)
    gate.hold_first_sentence({"search_notes"})
    gate.feed("You can use the `search_notes` function with the query.")
    assert sent == []  # nothing follows the full stop yet
    assert gate.ended_as_call()
    assert gate.named == "search_notes"
    plain = StreamGate(sent.append, code=True)
    plain.hold_first_sentence({"search_notes"})
    plain.feed("It is a Friday.")
    assert not plain.ended_as_call()
    plain.flush()
    assert "".join(sent) == "It is a Friday."

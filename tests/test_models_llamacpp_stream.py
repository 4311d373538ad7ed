"""Streaming a reply's text: prose passes once it cannot be a call; stop sequences cut.

Generation itself needs the real model; its behaviour is tested through
``LlamaCppChatModel`` in ``test_models_llamacpp.py`` and
``test_support_bot_embedded.py`` (marker ``model``).
"""

from __future__ import annotations

from springtail.models._llamacpp._parse import ReplyKind
from springtail.models._llamacpp._stream import StopScanner, StreamGate


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

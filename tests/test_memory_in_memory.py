"""InMemoryChatMemoryRepository: the repository contract, in one process."""

from __future__ import annotations

import threading

from springtail.memory import ChatMemoryRepository, InMemoryChatMemoryRepository
from springtail.messages import AssistantMessage, Message, UserMessage


def test_is_a_chat_memory_repository() -> None:
    assert isinstance(InMemoryChatMemoryRepository(), ChatMemoryRepository)


def test_save_all_replaces_the_conversation() -> None:
    repository = InMemoryChatMemoryRepository()
    repository.save_all("c", [UserMessage("1"), UserMessage("2")])
    repository.save_all("c", [UserMessage("3")])
    assert repository.find_by_conversation_id("c") == [UserMessage("3")]


def test_unknown_conversation_is_empty_and_delete_is_a_no_op() -> None:
    repository = InMemoryChatMemoryRepository()
    assert repository.find_by_conversation_id("nobody") == []
    repository.delete_by_conversation_id("nobody")
    assert repository.find_conversation_ids() == []


def test_ids_list_only_conversations_with_messages() -> None:
    repository = InMemoryChatMemoryRepository()
    repository.save_all("a", [UserMessage("x")])
    repository.save_all("b", [UserMessage("y")])
    repository.save_all("c", [UserMessage("z")])
    repository.save_all("b", [])
    repository.delete_by_conversation_id("c")
    assert repository.find_conversation_ids() == ["a"]


def test_stored_lists_are_not_shared_with_callers() -> None:
    repository = InMemoryChatMemoryRepository()
    given: list[Message] = [UserMessage("x")]
    repository.save_all("c", given)
    given.append(UserMessage("changed after saving"))
    read = repository.find_by_conversation_id("c")
    read.append(UserMessage("changed after reading"))
    assert repository.find_by_conversation_id("c") == [UserMessage("x")]


def test_messages_are_stored_as_given_without_copies() -> None:
    repository = InMemoryChatMemoryRepository()
    message = AssistantMessage("shared, immutable")
    repository.save_all("c", [message])
    assert repository.find_by_conversation_id("c")[0] is message


def test_update_is_atomic_across_threads() -> None:
    repository = InMemoryChatMemoryRepository()

    def writer() -> None:
        for _ in range(300):
            repository.update("c", lambda current: [*current, UserMessage("+")])

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(repository.find_by_conversation_id("c")) == 1200

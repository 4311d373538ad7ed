"""The persistent to-do list."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from springtail import Param, tool
from support_bot._store_base import BusinessStore, UnknownTodoError
from support_bot.tool_names import TODO_ADD, TODO_COMPLETE, TODO_LIST
from support_bot.tools._limits import MAX_ID, MAX_TEXT_CHARS

__all__ = ["TodoTools"]


class TodoTools:
    """``todo_add``, ``todo_list`` and ``todo_complete`` over the store's ``todos`` table."""

    def __init__(self, store: BusinessStore) -> None:
        self._store = store

    @tool(
        name=TODO_ADD,
        description=(
            "Add a task to the persistent to-do list. Call it whenever the user asks to add "
            "something as a to-do, a task or a reminder, also together with other tools."
        ),
    )
    def todo_add(self, title: Annotated[str, Param("What needs to be done")]) -> str:
        """Answer with the new to-do's id, which ``todo_complete`` needs."""
        if len(title) > MAX_TEXT_CHARS:  # checked here: a long maxLength bloats the grammar
            return (
                f"The title has {len(title):,} characters; give at most {MAX_TEXT_CHARS}. "
                "Nothing was added."
            )
        try:
            todo = self._store.add_todo(title)
        except ValueError as exc:
            return str(exc)
        return f"Added to-do #{todo.id}: {todo.title}"

    @tool(name=TODO_LIST, description="Show the to-do list with ids and whether each is done.")
    def todo_list(self) -> str:
        """One line per to-do, ``[x]`` for done."""
        todos = self._store.todos()
        if not todos:
            return "The to-do list is empty."
        lines = [f"#{t.id} [{'x' if t.done else ' '}] {t.title}" for t in todos]
        open_count = sum(not t.done for t in todos)
        return "\n".join([f"To-do list ({open_count} open):", *lines])

    @tool(name=TODO_COMPLETE, description="Mark a to-do as done, by its id number from todo_list.")
    def todo_complete(
        self, id: Annotated[int, Param("The to-do id, e.g. 3"), Field(ge=1, le=MAX_ID)]
    ) -> str:
        """Completing twice is harmless and says so."""
        try:
            todo, was_open = self._store.complete_todo(id)
        except UnknownTodoError as exc:
            return str(exc)
        if not was_open:
            return f"To-do #{todo.id} was already done: {todo.title}"
        return f"Completed to-do #{todo.id}: {todo.title}"

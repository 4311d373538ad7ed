from __future__ import annotations

import json
from pathlib import Path

import pytest

from springtail import ToolArgumentsError
from support_bot._store import Store
from support_bot.tool_names import TODO_ADD, TODO_COMPLETE, TODO_LIST
from support_bot.tools import TodoTools, business_tools


@pytest.fixture
def todos(tmp_path: Path) -> TodoTools:
    return TodoTools(Store.in_data_dir(tmp_path))


def test_add_list_complete(todos: TodoTools) -> None:
    assert todos.todo_list() == "The to-do list is empty."
    assert (
        todos.todo_add("Ship 2 x SKU-100 to C-100") == "Added to-do #1: Ship 2 x SKU-100 to C-100"
    )
    assert todos.todo_add("Call C-101") == "Added to-do #2: Call C-101"
    assert todos.todo_complete(1) == "Completed to-do #1: Ship 2 x SKU-100 to C-100"
    assert todos.todo_list() == (
        "To-do list (1 open):\n#1 [x] Ship 2 x SKU-100 to C-100\n#2 [ ] Call C-101"
    )


def test_edge_cases_are_messages(todos: TodoTools) -> None:
    assert "empty" in todos.todo_add("  ")
    assert "No to-do with id 7" in todos.todo_complete(7)
    todos.todo_add("once")
    todos.todo_complete(1)
    assert "already done" in todos.todo_complete(1)


def test_todos_persist_across_processes_sharing_the_file(tmp_path: Path) -> None:
    TodoTools(Store.in_data_dir(tmp_path)).todo_add("persist me")
    assert "persist me" in TodoTools(Store.in_data_dir(tmp_path)).todo_list()


def test_tools_take_json_from_the_model(tmp_path: Path) -> None:
    tools = {cb.tool_definition.name: cb for cb in business_tools(Store.in_data_dir(tmp_path))}
    assert tools[TODO_ADD].call('{"title": "from json"}') == "Added to-do #1: from json"
    assert tools[TODO_COMPLETE].call('{"id": 1}') == "Completed to-do #1: from json"
    assert "#1 [x] from json" in tools[TODO_LIST].call("{}")


def test_an_id_beyond_sqlite_integers_is_refused_by_the_schema(tmp_path: Path) -> None:
    tools = {cb.tool_definition.name: cb for cb in business_tools(Store.in_data_dir(tmp_path))}
    with pytest.raises(ToolArgumentsError) as info:
        tools[TODO_COMPLETE].call(json.dumps({"id": 2**63}))
    assert "'id'" in str(info.value)
    assert "SQLite" not in str(info.value)


def test_a_title_too_long_is_refused_and_nothing_is_added(todos: TodoTools) -> None:
    answer = todos.todo_add("x" * 200_000)
    assert len(answer) < 200
    assert "at most 500" in answer
    assert todos.todo_list() == "The to-do list is empty."

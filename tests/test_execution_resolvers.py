"""Resolvers: static, delegating, and entry points of a really installed distribution."""

from __future__ import annotations

import importlib
import logging
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from springtail.execution import (
    DelegatingToolCallbackResolver,
    EntryPointToolCallbackResolver,
    StaticToolCallbackResolver,
    ToolCallbackResolver,
    ToolCallingManager,
)
from springtail.messages import AssistantMessage, ChatOptions, ChatResponse, Prompt, ToolCall
from springtail.tools._context import ToolContext
from springtail.tools._definition import ToolDefinition, ToolMetadata

FIXTURE = Path(__file__).parent / "fixtures" / "entrypoint_dist"


class Named:
    is_async = True

    def __init__(self, name: str, answer: str = "") -> None:
        self.tool_definition = ToolDefinition(name, f"The {name} tool.", {"type": "object"})
        self.tool_metadata = ToolMetadata()
        self.answer = answer

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.answer

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> str:
        return self.answer


def test_static_resolver_finds_tools_by_name() -> None:
    a, b = Named("a"), Named("b")
    resolver = StaticToolCallbackResolver([a, b])
    assert isinstance(resolver, ToolCallbackResolver)
    assert resolver.resolve("a") is a
    assert resolver.resolve("b") is b
    assert resolver.resolve("c") is None
    assert resolver.tool_names() == ("a", "b")


def test_static_resolver_rejects_two_tools_with_one_name() -> None:
    with pytest.raises(ValueError, match="'a'"):
        StaticToolCallbackResolver([Named("a"), Named("b"), Named("a")])


def test_static_resolver_rejects_what_is_not_a_tool() -> None:
    with pytest.raises(TypeError, match="not a ToolCallback"):
        StaticToolCallbackResolver([lambda: None])  # type: ignore[list-item]


def test_delegating_resolver_takes_the_first_hit_in_order() -> None:
    first_a, second_a, b = Named("a", "first"), Named("a", "second"), Named("b")
    resolver = DelegatingToolCallbackResolver(
        [StaticToolCallbackResolver([first_a]), StaticToolCallbackResolver([second_a, b])]
    )
    assert resolver.resolve("a") is first_a
    assert resolver.resolve("b") is b
    assert resolver.resolve("z") is None
    assert resolver.tool_names() == ("a", "b")


# -- entry points, from a real installed distribution --------------------------------


@pytest.fixture(scope="module")
def installed_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Install tests/fixtures/entrypoint_dist into a folder on sys.path, like pip would."""
    root = tmp_path_factory.mktemp("entrypoint_dist")
    source = root / "src"
    shutil.copytree(FIXTURE, source)  # building writes nothing into the repository
    target = root / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-compile",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
    )
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    yield target
    sys.path.remove(str(target))
    for name in [m for m in sys.modules if m.startswith("springtail_ep_fixture")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def test_entry_point_resolver_loads_a_published_tool(installed_fixture: Path) -> None:
    resolver = EntryPointToolCallbackResolver()
    assert resolver.group == "springtail.tools"
    shout = resolver.resolve("shout")
    assert shout is not None
    assert shout.tool_definition.name == "shout"
    assert shout.call('{"text": "hello"}') == "HELLO"
    assert resolver.resolve("shout") is shout  # loaded once


def test_entry_point_resolver_calls_a_zero_argument_factory_once(installed_fixture: Path) -> None:
    resolver = EntryPointToolCallbackResolver()
    whisper = resolver.resolve("whisper")
    assert whisper is not None
    assert whisper.call('{"text": "QUIET"}') == "quiet"
    assert resolver.resolve("whisper") is whisper
    assert sys.modules["springtail_ep_fixture"].FACTORY_CALLS == ["whisper"]


def test_entry_point_resolver_loads_a_decorated_function(installed_fixture: Path) -> None:
    greet = EntryPointToolCallbackResolver().resolve("greet")
    assert greet is not None
    assert greet.tool_definition.description == "Greet someone by name."
    assert greet.call('{"name": "Ada"}') == "Hello, Ada!"


def test_entry_point_resolver_lists_what_is_installed(installed_fixture: Path) -> None:
    names = EntryPointToolCallbackResolver().tool_names()
    assert {"shout", "whisper", "greet"} <= set(names)


def test_entry_point_resolver_knows_nothing_of_other_names_or_groups(
    installed_fixture: Path,
) -> None:
    assert EntryPointToolCallbackResolver().resolve("no_such_tool") is None
    assert EntryPointToolCallbackResolver(group="acme.other").resolve("shout") is None


def test_an_entry_point_whose_module_is_missing_is_a_clear_import_error(
    installed_fixture: Path,
) -> None:
    with pytest.raises(ImportError, match=r"missing_module.*springtail-entrypoint-fixture"):
        EntryPointToolCallbackResolver().resolve("missing_module")


@pytest.mark.parametrize("name", ["not_a_tool", "needs_arguments"])
def test_an_entry_point_to_something_else_is_a_clear_type_error(
    installed_fixture: Path, name: str
) -> None:
    with pytest.raises(TypeError, match="not a tool"):
        EntryPointToolCallbackResolver().resolve(name)


def test_an_entry_point_named_unlike_its_tool_is_logged(
    installed_fixture: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="springtail.execution"):
        callback = EntryPointToolCallbackResolver().resolve("misnamed")
    assert callback is not None
    assert "misnamed" in caplog.text
    assert "'shout'" in caplog.text


async def test_the_manager_runs_entry_point_tools_and_answers_broken_ones(
    installed_fixture: Path,
) -> None:
    manager = ToolCallingManager(resolver=EntryPointToolCallbackResolver())
    result = await manager.aexecute_tool_calls(
        Prompt("hi", ChatOptions(tool_names=("shout",))),
        ChatResponse.of(
            AssistantMessage(
                "",
                (
                    ToolCall("1", "shout", '{"text": "hi"}'),
                    ToolCall("2", "missing_module", "{}"),
                ),
            )
        ),
    )
    shouted, broken = result.conversation_history[-1].responses  # type: ignore[union-attr]
    assert shouted.response_data == "HI"
    assert broken.is_error
    assert "missing_module" in broken.response_data
    assert [
        d.name for d in manager.resolve_tool_definitions(ChatOptions(tool_names=("shout",)))
    ] == ["shout"]


def test_resolvers_are_protocol_instances() -> None:
    resolvers: list[Any] = [
        StaticToolCallbackResolver([]),
        DelegatingToolCallbackResolver([]),
        EntryPointToolCallbackResolver(),
    ]
    assert all(isinstance(r, ToolCallbackResolver) for r in resolvers)

"""Tool search: offer each model call the few tools it needs, out of many.

An application with one or two MCP servers has dozens of tools, and every
definition sent costs prompt tokens, time and, with a small model, wrong
choices. ``ToolCallingAdvisor(tool_search=ToolSearch(...))`` narrows what each
model call is offered (Spring AI's ``ToolSearchToolCallingAdvisor``, as a
setting of the one tool loop). Two modes:

- ``"retrieve"``: before each model call the framework ranks the tools
  against the user's request and the turn so far (calls and results) and
  offers the best, up to a count or a token budget. No extra model round.
- ``"search_tool"``: the model is offered ``tool_search(query)``; the tools
  it finds are offered for the rest of the turn.

Tools marked always-on are offered every time. What is offered is a
permission: a call to a tool of the request that was not offered this round
is answered as an unknown tool, unless ``run_unoffered=True`` adds it and runs
it. The order is stable (always-on first, then the others in the tool set's
own order, never in rank order), so that a provider's prompt, and the
embedded model's KV and prompt caches, keep the same prefix across requests.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Final, Literal

from springtail.client._tool_index import (
    Bm25ToolIndex,
    ToolIndex,
    ToolIndexFactory,
    estimated_tool_tokens,
    require_search_extra,
)
from springtail.messages import AssistantMessage, ChatResponse, ToolResponseMessage, UserMessage
from springtail.tools import Param, ToolDefinition, tool, tool_callbacks

if TYPE_CHECKING:
    from springtail.client._advisor import ChatClientRequest
    from springtail.tools import ToolCallback

__all__ = [
    "SEARCH_TOOL_NAME",
    "TOOL_SEARCH_OFFERED",
    "ToolSearch",
    "ToolSearchMode",
    "ToolSearchTurn",
]

ToolSearchMode = Literal["retrieve", "search_tool"]

SEARCH_TOOL_NAME: Final[str] = "tool_search"
"""The name of the tool the model searches with in ``"search_tool"`` mode."""

TOOL_SEARCH_OFFERED: Final[str] = "springtail.tool_search.offered"
"""Context key: a list with, per model call of the turn, the names of the tools offered."""

_TURN_TEXT_CHARS = 400
"""Of each call's arguments and each result, this much joins the query: enough for its words."""

_INDEX_CACHE_SIZE = 8
"""Tool sets whose index is kept: a server with a few per-user tool sets rebuilds none."""


@dataclass(frozen=True, slots=True)
class _IndexedSet:
    """One tool set, indexed: built once, shared by every request with the same tools."""

    definitions: tuple[ToolDefinition, ...]
    index: ToolIndex
    tokens: tuple[int, ...]
    """Estimated prompt tokens of each definition, in tool-set order."""
    names: tuple[str, ...] = ()
    position: dict[str, int] = field(default_factory=dict)

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens)


class ToolSearch:
    """How the tool loop narrows a large tool set: ``ToolCallingAdvisor(tool_search=...)``.

    Args:
        mode: ``"retrieve"`` (the framework picks, no extra model round) or
            ``"search_tool"`` (the model searches with ``tool_search(query)``).
        always_on: Names of tools offered on every model call, whatever the
            request (names the request lacks are ignored: a server's list
            may change).
        max_tools: The most tools one model call is offered, always-on ones
            included (``None``: no count limit).
        max_tool_tokens: The most estimated prompt tokens (see
            [`estimated_tool_tokens`][]) the offered definitions may take,
            always-on ones included (``None``: no budget). Always-on tools are
            offered even past it.
        min_score_ratio: In ``"retrieve"`` mode, a tool that matches less
            than this share of the best match's score is not offered (0, the
            default, offers every match up to the limits). A few strong
            matches then stay a few tools, instead of being topped up with
            weak ones.
        max_results: Tools one ``tool_search`` call adds (``"search_tool"``).
        run_unoffered: ``True`` runs a call to a tool of the request that was
            not offered this round, and offers it for the rest of the turn.
            Off by default: such a call is answered as an unknown tool,
            naming the tools that were offered.
        index_factory: Builds the index of a tool set; default
            [`Bm25ToolIndex`][] (the ``search`` extra).
        token_estimator: Prompt tokens of one definition; default
            [`estimated_tool_tokens`][].

    When every tool fits (no more than ``max_tools``, within
    ``max_tool_tokens``), each model call is offered all of them, in both
    modes: narrowing only helps once a set is too large. An index is built
    once per tool set and built again when the set changes (an MCP server's
    list changed); the last few sets are kept.

    Raises:
        ValueError: a limit is not positive, or the mode is unknown.
        ImportError: the default index's library (``bm25s``) is missing.
    """

    __slots__ = (
        "_always_on",
        "_cache",
        "_estimate",
        "_factory",
        "_last",
        "_lock",
        "_max_results",
        "_max_tokens",
        "_max_tools",
        "_min_ratio",
        "_mode",
        "_run_unoffered",
    )

    def __init__(
        self,
        *,
        mode: ToolSearchMode = "retrieve",
        always_on: Collection[str] = (),
        max_tools: int | None = 8,
        max_tool_tokens: int | None = None,
        min_score_ratio: float = 0.0,
        max_results: int = 5,
        run_unoffered: bool = False,
        index_factory: ToolIndexFactory | None = None,
        token_estimator: Callable[[ToolDefinition], int] | None = None,
    ) -> None:
        if mode not in ("retrieve", "search_tool"):
            raise ValueError(f"mode must be 'retrieve' or 'search_tool', got {mode!r}")
        if isinstance(always_on, str):
            raise TypeError(
                f"always_on takes a collection of tool names, got the string {always_on!r}; "
                f"write always_on=[{always_on!r}]"
            )
        for name, value in (("max_tools", max_tools), ("max_tool_tokens", max_tool_tokens)):
            if value is not None:
                _positive(name, value)
        _positive("max_results", max_results)
        if isinstance(min_score_ratio, bool) or not 0.0 <= min_score_ratio <= 1.0:
            raise ValueError(f"min_score_ratio must lie between 0 and 1, got {min_score_ratio!r}")
        if index_factory is None:
            require_search_extra()
        self._mode: ToolSearchMode = mode
        self._always_on = frozenset(always_on)
        self._max_tools = max_tools
        self._max_tokens = max_tool_tokens
        self._max_results = max_results
        self._min_ratio = float(min_score_ratio)
        self._run_unoffered = bool(run_unoffered)
        self._factory: ToolIndexFactory = index_factory or Bm25ToolIndex
        self._estimate = token_estimator or estimated_tool_tokens
        self._cache: OrderedDict[tuple[ToolDefinition, ...], _IndexedSet] = OrderedDict()
        self._lock = threading.Lock()
        self._last: _IndexedSet | None = None

    @property
    def mode(self) -> ToolSearchMode:
        """``"retrieve"`` or ``"search_tool"``."""
        return self._mode

    @property
    def always_on(self) -> frozenset[str]:
        """Tools offered on every model call."""
        return self._always_on

    @property
    def max_tools(self) -> int | None:
        """The most tools one model call is offered."""
        return self._max_tools

    @property
    def max_tool_tokens(self) -> int | None:
        """The most estimated tokens the offered definitions may take."""
        return self._max_tokens

    @property
    def min_score_ratio(self) -> float:
        """Share of the best match's score a retrieved tool needs."""
        return self._min_ratio

    @property
    def max_results(self) -> int:
        """Tools one ``tool_search`` call adds."""
        return self._max_results

    @property
    def run_unoffered(self) -> bool:
        """Whether a call to a known tool that was not offered is added and run."""
        return self._run_unoffered

    def __repr__(self) -> str:
        return (
            f"ToolSearch(mode={self._mode!r}, always_on={sorted(self._always_on)!r}, "
            f"max_tools={self._max_tools}, max_tool_tokens={self._max_tokens}, "
            f"min_score_ratio={self._min_ratio}, run_unoffered={self._run_unoffered})"
        )

    def begin_turn(self) -> ToolSearchTurn:
        """The state of one turn (one request through the tool loop); the loop calls this."""
        return ToolSearchTurn(self)

    def _indexed(self, tools: Sequence[ToolCallback]) -> _IndexedSet:
        """The index of this tool set: from the cache, or built now (the set is new or changed)."""
        key = tuple(cb.tool_definition for cb in tools)
        last = self._last
        if last is not None and _same(last.definitions, key):
            return last  # the usual case: the tool set of the previous request, as it was
        with self._lock:
            entry = self._cache.get(key)
            if entry is not None:
                self._cache.move_to_end(key)
                self._last = entry
                return entry
        names = tuple(d.name for d in key)
        entry = _IndexedSet(
            key,
            self._factory(key),
            tuple(self._estimate(d) for d in key),
            names,
            {n: i for i, n in enumerate(names)},
        )
        with self._lock:
            self._cache[key] = entry
            while len(self._cache) > _INDEX_CACHE_SIZE:
                self._cache.popitem(last=False)
        self._last = entry
        return entry

    def _fits(self, entry: _IndexedSet) -> bool:
        """Whether the whole set is within ``max_tools`` and ``max_tool_tokens``."""
        return (self._max_tools is None or len(entry.definitions) <= self._max_tools) and (
            self._max_tokens is None or entry.total_tokens <= self._max_tokens
        )

    def _pick(self, entry: _IndexedSet, query: str, *, keep: Collection[str] = ()) -> set[int]:
        """Positions of the tools to offer: always-on, ``keep``, then the best matches that fit."""
        names = entry.names
        position = entry.position
        chosen = {position[n] for n in (*self._always_on, *keep) if n in position}
        count = len(chosen)
        tokens = sum(entry.tokens[i] for i in chosen)
        if self._mode == "search_tool":
            return chosen
        hits = entry.index.search(query, limit=len(names))
        floor = hits[0].score * self._min_ratio if hits else 0.0
        for hit in hits:
            i = position.get(hit.name)
            if hit.score < floor:
                break
            if i is None or i in chosen:
                continue
            if self._max_tools is not None and count >= self._max_tools:
                break
            if self._max_tokens is not None and tokens + entry.tokens[i] > self._max_tokens:
                continue  # a smaller tool further down may still fit
            chosen.add(i)
            count += 1
            tokens += entry.tokens[i]
        return chosen

    def _ordered(self, entry: _IndexedSet, chosen: Collection[int]) -> list[int]:
        """Always-on tools first, then the rest, each group in the tool set's own order."""
        ranked = sorted(chosen)
        always = [i for i in ranked if entry.definitions[i].name in self._always_on]
        return always + [i for i in ranked if entry.definitions[i].name not in self._always_on]


class ToolSearchTurn:
    """What one turn has searched, found and called; asked by the loop before each model call.

    The tool loop calls ``offer`` before each model call and
    ``admit`` before running the calls of a response.
    """

    __slots__ = ("_entry", "_kept", "_request", "_search", "_search_tool", "_turn_text")

    def __init__(self, search: ToolSearch) -> None:
        self._search = search
        self._request = ""
        self._turn_text: list[str] = []
        self._kept: dict[str, None] = {}  # used, found or admitted this turn; insertion order
        self._entry: _IndexedSet | None = None
        self._search_tool: ToolCallback | None = None

    @property
    def kept(self) -> tuple[str, ...]:
        """Tools this turn called, found or admitted: offered until the turn ends."""
        return tuple(self._kept)

    def offer(self, current: ChatClientRequest) -> ChatClientRequest:
        """``current`` with only the tools this model call is offered, in a stable order."""
        self._read(current)
        options = current.prompt.options
        tools = options.tool_callbacks if options is not None else ()
        if options is None or not tools:
            return current
        search = self._search
        entry = search._indexed(tools)
        self._entry = entry
        offered: list[ToolCallback]
        whole = search._fits(entry)
        if whole:
            offered = list(tools)
        else:
            query = " ".join([self._request, self._request, *self._turn_text])
            chosen = search._pick(entry, query, keep=self._kept)
            offered = [tools[i] for i in search._ordered(entry, chosen)]
            if search.mode == "search_tool":
                offered.insert(self._after_always_on(offered), self._tool(tools))
        record = current.context.setdefault(TOOL_SEARCH_OFFERED, [])
        record.append(tuple(cb.tool_definition.name for cb in offered))
        if whole and not options.tool_names:
            return current
        narrowed = options.copy_with(tool_callbacks=tuple(offered), tool_names=())
        return current.with_prompt(current.prompt.with_options(narrowed))

    def admit(
        self, offered: ChatClientRequest, current: ChatClientRequest, response: ChatResponse
    ) -> ChatClientRequest:
        """The request the response's calls run against: ``offered``, and unoffered ones if allowed.

        Tools called this turn stay offered for the rest of it.
        """
        calls = [c for g in response.results for c in g.output.tool_calls]
        for call in calls:
            self._turn_text.append(f"{call.name} {call.arguments[:_TURN_TEXT_CHARS]}")
        options = offered.prompt.options
        full = current.prompt.options
        if options is None or full is None:
            return offered
        given = {cb.tool_definition.name for cb in options.tool_callbacks}
        known = {cb.tool_definition.name: cb for cb in full.tool_callbacks}
        for call in calls:
            if call.name in given and call.name in known:
                self._kept.setdefault(call.name)
        if not self._search.run_unoffered:
            return offered
        extra = [known[c.name] for c in calls if c.name in known and c.name not in given]
        if not extra:
            return offered
        for callback in extra:
            self._kept.setdefault(callback.tool_definition.name)
        added = options.copy_with(tool_callbacks=(*options.tool_callbacks, *dict.fromkeys(extra)))
        return offered.with_prompt(offered.prompt.with_options(added))

    # -- the search tool ---------------------------------------------------------

    @tool(
        name=SEARCH_TOOL_NAME,
        description=(
            "Find the tools for a task. Describe what you need in a few words, e.g. "
            "'shipping cost of a parcel'; the tools found can be called next."
        ),
    )
    def tool_search(
        self, query: Annotated[str, Param("What the tool should do, in a few words")]
    ) -> str:
        """Search the request's tools; those found are offered for the rest of the turn."""
        entry = self._entry
        hits = entry.index.search(query, limit=self._search.max_results) if entry else []
        if not hits:
            return (
                f"No tool matches {query!r}. Search again with other words, or answer "
                "without a tool."
            )
        by_name = {d.name: d for d in entry.definitions} if entry else {}
        lines = []
        for hit in hits:
            self._kept.setdefault(hit.name)
            lines.append(f"- {hit.name}: {_short(by_name[hit.name].description)}")
        return f"Found {len(hits)} tool(s), which can be called now:\n" + "\n".join(lines)

    def _tool(self, tools: Sequence[ToolCallback]) -> ToolCallback:
        if any(cb.tool_definition.name == SEARCH_TOOL_NAME for cb in tools):
            raise ValueError(
                f"The request has a tool named {SEARCH_TOOL_NAME!r}, the name tool search "
                "gives its own search tool in 'search_tool' mode; rename that tool "
                "(@tool(name=...)) or use mode='retrieve'."
            )
        if self._search_tool is None:
            (self._search_tool,) = tool_callbacks(self)
        return self._search_tool

    def _after_always_on(self, offered: Sequence[ToolCallback]) -> int:
        always = self._search.always_on
        return sum(1 for cb in offered if cb.tool_definition.name in always)

    def _read(self, current: ChatClientRequest) -> None:
        """Take the request from the first prompt, and each iteration's calls and results."""
        if not self._request:
            for message in reversed(current.prompt.messages):
                if isinstance(message, UserMessage):
                    self._request = message.text
                    break
        for message in current.loop_messages:
            if isinstance(message, ToolResponseMessage):
                self._turn_text.extend(
                    r.response_data[:_TURN_TEXT_CHARS] for r in message.responses
                )
            elif isinstance(message, AssistantMessage) and message.text:
                self._turn_text.append(message.text[:_TURN_TEXT_CHARS])


def _same(a: tuple[ToolDefinition, ...], b: tuple[ToolDefinition, ...]) -> bool:
    """The same definition objects in the same order: no hashing, no comparing schemas."""
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _short(text: str, limit: int = 160) -> str:
    """A description cut to ``limit`` characters at a word: the full one comes with the tool."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def _positive(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")

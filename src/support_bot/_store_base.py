"""What every support-bot store offers, whichever database holds it.

The tools, the steps and the web service talk to a ``BusinessStore``;
``support_bot._store.Store`` keeps it in one SQLite file next to the chat
memory, ``support_bot._store_postgres.PostgresStore`` in a PostgreSQL database
that several ``support-bot serve`` processes share. The value types, errors
and input normalizers live here so both implementations answer alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from springtail import ChatMemoryRepository

__all__ = [
    "BusinessStore",
    "Customer",
    "InsufficientStockError",
    "Product",
    "Reservation",
    "ServedConversation",
    "StoreError",
    "Todo",
    "UnknownProductError",
    "UnknownTodoError",
    "normalize_customer_id",
    "normalize_sku",
]


def normalize_sku(sku: str) -> str:
    """Accept what people and small models type: ``" sku-100 "``, ``"SKU100"``, ``"100"``."""
    text = sku.strip().upper()
    match = re.fullmatch(r"(?:SKU)?[\s_-]*(\d+)", text)
    return f"SKU-{match.group(1)}" if match else text


def normalize_customer_id(customer_id: str) -> str:
    """Accept ``" c-100 "``, ``"C100"`` and ``"100"`` for ``C-100``."""
    text = customer_id.strip().upper()
    match = re.fullmatch(r"(?:C|CUSTOMER)?[\s_-]*(\d+)", text)
    return f"C-{match.group(1)}" if match else text


class StoreError(Exception):
    """The database could not be used; the message says which one and what to do.

    ``path`` is the SQLite file, or for PostgreSQL a ``Path`` of the server's
    description (host, port, database; never the password).
    """

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class UnknownProductError(LookupError):
    """No product has this SKU; ``known`` lists the SKUs that exist."""

    def __init__(self, sku: str, known: tuple[str, ...]) -> None:
        super().__init__(f"No product with SKU {sku!r}. Known SKUs: {', '.join(known)}.")
        self.sku = sku
        self.known = known


class InsufficientStockError(Exception):
    """The stock does not cover the requested quantity; nothing was reserved."""

    def __init__(self, product: Product, requested: int) -> None:
        super().__init__(
            f"Only {product.stock} unit(s) of {product.sku} ({product.name}) in stock; "
            f"cannot reserve {requested}. Nothing was reserved."
        )
        self.product = product
        self.requested = requested


class UnknownTodoError(LookupError):
    """No to-do has this id."""

    def __init__(self, todo_id: int) -> None:
        super().__init__(f"No to-do with id {todo_id}. Use todo_list to see the ids.")
        self.todo_id = todo_id


@dataclass(frozen=True, slots=True)
class Product:
    """A product and its current stock."""

    sku: str
    name: str
    stock: int


@dataclass(frozen=True, slots=True)
class Reservation:
    """A completed reservation and the stock left right after it."""

    id: int
    sku: str
    name: str
    quantity: int
    stock_left: int


@dataclass(frozen=True, slots=True)
class Todo:
    """One entry of the persistent to-do list."""

    id: int
    title: str
    done: bool


@dataclass(frozen=True, slots=True)
class Customer:
    """A customer's contact card."""

    id: str
    name: str
    company: str
    email: str
    phone: str


@dataclass(frozen=True, slots=True)
class ServedConversation:
    """A web conversation: who owns it and how far it got.

    ``owner`` is a digest of the browser session that created it, never the
    session secret itself, so a database reader cannot take over a session.
    """

    id: str
    owner: str
    title: str
    turns: int
    created_at: str


@runtime_checkable
class BusinessStore(Protocol):
    """The business data the tools read and change, and where chat memory lives.

    Every method is blocking I/O, safe to call from several threads and
    processes at once; failures leave as ``StoreError``.
    """

    @property
    def location(self) -> str:
        """Where the data is, for banners and logs (never a password)."""

    def chat_memory_repository(self) -> ChatMemoryRepository:
        """A chat memory repository in the same database."""

    def products(self) -> list[Product]:
        """Every product, by SKU."""

    def product(self, sku: str) -> Product:
        """The product with this SKU (normalized), or ``UnknownProductError``."""

    def reserve(self, sku: str, quantity: int) -> Reservation:
        """Take ``quantity`` units of ``sku`` from stock, all or nothing; never oversells."""

    def reservations(self) -> list[tuple[int, str, int]]:
        """``(id, sku, quantity)`` of every reservation, oldest first."""

    def add_todo(self, title: str) -> Todo:
        """Append a to-do; ``title`` must not be blank."""

    def todos(self) -> list[Todo]:
        """Every to-do, oldest first."""

    def complete_todo(self, todo_id: int) -> tuple[Todo, bool]:
        """Mark a to-do done; returns it and whether it was open before."""

    def customer(self, customer_id: str) -> Customer | None:
        """The customer with this id (normalized), or ``None``."""

    def customer_ids(self) -> list[str]:
        """Every customer id, sorted."""

    def add_conversation(self, conversation_id: str, owner: str, title: str) -> ServedConversation:
        """Record a new web conversation owned by ``owner``."""

    def conversation(self, conversation_id: str) -> ServedConversation | None:
        """The web conversation with this id, or ``None``."""

    def conversations(self, owner: str) -> list[ServedConversation]:
        """The web conversations of ``owner``, newest first."""

    def count_turn(self, conversation_id: str, title: str) -> None:
        """One more finished turn; the first one also names the conversation."""

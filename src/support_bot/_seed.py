"""What a fresh store starts with: the book's products and a few customers."""

from __future__ import annotations

from typing import Final

__all__ = ["SEED_CUSTOMERS", "SEED_PRODUCTS"]

SEED_PRODUCTS: Final[tuple[tuple[str, str, int], ...]] = (
    ("SKU-100", "Spring AI Starter Workbook", 12),
    ("SKU-200", "Agent Design Notes", 7),
    ("SKU-300", "RAG Practice Dataset", 4),
)
"""``(sku, name, stock)``."""

# (id, name, company, email, phone); the addresses use the reserved .example domain.
SEED_CUSTOMERS: Final[tuple[tuple[str, str, str, str, str], ...]] = (
    ("C-100", "Minji Kim", "Spring Books Ltd.", "minji.kim@springbooks.example", "+82 2 555 0100"),
    (
        "C-101",
        "Daniel Park",
        "Harbor Coffee",
        "daniel.park@harborcoffee.example",
        "+82 51 555 0101",
    ),
    ("C-102", "Sofia Rossi", "Rossi Design", "sofia@rossidesign.example", "+39 06 5550 0102"),
    (
        "C-103",
        "James O'Connor",
        "Northwind Training",
        "j.oconnor@northwind.example",
        "+1 212 5550103",
    ),
    (
        "C-104",
        "Aiko Tanaka",
        "Sakura Data Lab",
        "aiko.tanaka@sakuradata.example",
        "+81 3 5550 0104",
    ),
    (
        "C-105",
        "Lucas Meyer",
        "Meyer Logistics",
        "lucas.meyer@meyer-log.example",
        "+49 30 5550 0105",
    ),
)

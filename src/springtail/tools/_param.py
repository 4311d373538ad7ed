"""Per-parameter facts the type hint cannot carry."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Param"]


@dataclass(frozen=True, slots=True)
class Param:
    """Describe a tool parameter inside ``Annotated[T, Param(...)]``.

    The description is what the model reads to decide what to pass, so it
    takes precedence over every other source (``Annotated`` text, pydantic
    ``Field``, the docstring). ``required`` overrides the rule that derives
    requiredness from defaults and ``None``-admitting types: ``True`` forces
    the model to send the field, ``False`` lets it leave the field out, in
    which case the tool receives its default, or ``None`` when it has none.
    """

    description: str | None = None
    required: bool | None = None

    def __init__(self, description: str | None = None, *, required: bool | None = None) -> None:
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "required", required)

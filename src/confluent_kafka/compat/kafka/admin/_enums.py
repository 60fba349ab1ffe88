"""The lookup helpers kafka-python's admin enums share (``build_from`` and ``value_for``)."""
from __future__ import annotations

from typing import Any

__all__ = ["EnumHelper"]


class EnumHelper:
    """Mixed into an Enum: look a member up by itself, its value or its name (case and ``-``
    insensitive)."""

    @classmethod
    def build_from(cls, val: Any) -> Any:
        """:returns: the member for a member, a value or a name.

        :raises ValueError: nothing matches.
        """
        enum: Any = cls
        if isinstance(val, enum):
            return val
        try:
            return enum(val)
        except ValueError:
            pass
        key = str(val).strip().upper().replace("-", "_")
        try:
            return enum[key]
        except KeyError:
            raise ValueError(f"Unrecognized {cls.__name__}: {val}") from None

    @classmethod
    def value_for(cls, val: Any) -> Any:
        """:returns: the value of the member given as a member, an int or a name.

        :raises ValueError: nothing matches.
        """
        enum: Any = cls
        if isinstance(val, enum):
            return val.value
        if isinstance(val, int):
            return enum(val).value
        key = str(val).upper().replace("-", "_")
        try:
            return enum[key].value
        except KeyError:
            raise ValueError(f"Unrecognized {cls.__name__}: {val}") from None

"""Small helpers the admin value classes share: turning names and numbers into enum members,
and the not-None / is-a-string checks of their constructors."""

from __future__ import annotations

from enum import Enum
from typing import Any, Iterable, Type, TypeVar

E = TypeVar("E", bound=Enum)

try:  # upstream's public alias for the string type (``basestring`` on Python 2)
    string_type = basestring  # type: ignore[name-defined]
except NameError:
    string_type = str


def to_enum(value: Any, cls: Type[E]) -> E:
    """``value`` as a member of ``cls``: a member passes, a str is looked up by name (any case),
    an int by value.

    :raises ValueError: No member has that name or value.
    :raises TypeError: ``value`` is none of those.
    """
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            raise ValueError(f'Unknown value "{value}": should be a {cls.__name__}') from None
    if isinstance(value, int):
        return cls(value)
    if not isinstance(value, cls):
        raise TypeError(f'Unknown value "{value}": should be a {cls.__name__}')
    return value


def check_not_none(obj: object, names: Iterable[str]) -> None:
    """:raises ValueError: One of the named attributes of ``obj`` is None."""
    for name in names:
        if getattr(obj, name) is None:
            raise ValueError(f"Expected {name} to be not None")


def check_strings(obj: object, names: Iterable[str]) -> None:
    """:raises TypeError: One of the named attributes of ``obj`` is neither None nor a str."""
    for name in names:
        value = getattr(obj, name)
        if value is not None and not isinstance(value, string_type):
            raise TypeError(f"Expected {name} to be a string")

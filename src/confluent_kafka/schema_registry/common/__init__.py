"""What the sync and async Schema Registry clients and serdes share: the data model, the REST
exchange, the client operations and the serde logic, all free of I/O."""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

__all__ = ["asyncinit"]

C = TypeVar("C", bound=type)


def asyncinit(cls: C) -> C:
    """Make ``cls(...)`` return an awaitable of the instance, for a class whose ``__init__`` is a
    coroutine function: ``serializer = await AsyncAvroSerializer(client, schema)``.

    :param cls: the class.
    :returns: the same class, with ``__new__`` and ``__init__`` replaced.
    """
    init: Callable[..., Any] = cls.__init__  # type: ignore[misc]

    def new(klass: Any, *args: Any, **kwargs: Any) -> Any:
        instance = object.__new__(klass)

        async def build() -> Any:
            await init(instance, *args, **kwargs)
            return instance

        return build()

    @functools.wraps(init)
    def no_init(self: Any, *args: Any, **kwargs: Any) -> None:
        pass

    cls.__new__ = new  # type: ignore[assignment]
    cls.__init__ = no_init  # type: ignore[misc]
    return cls

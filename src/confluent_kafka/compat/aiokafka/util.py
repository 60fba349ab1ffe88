"""``aiokafka.util`` of the aiokafka facade: the helpers aiokafka exports from it.

``create_future()`` and ``create_task()`` make their future or task on the running loop, as
aiokafka's do; the two integer bounds are Kafka's int32 range. ``NO_EXTENSIONS`` reads
``AIOKAFKA_NO_EXTENSIONS`` as aiokafka does, though the facade has none of aiokafka's C
extensions to turn off (its hot paths are this package's C core either way).
"""
from __future__ import annotations

import asyncio
import os
from typing import Any, Coroutine, Optional, TypeVar

__all__ = ["INTEGER_MAX_VALUE", "INTEGER_MIN_VALUE", "NO_EXTENSIONS", "create_future", "create_task"]

T = TypeVar("T")

NO_EXTENSIONS = bool(os.environ.get("AIOKAFKA_NO_EXTENSIONS"))
INTEGER_MAX_VALUE = 0x7FFF_FFFF  # Kafka's int32 bounds
INTEGER_MIN_VALUE = -0x8000_0000


def get_running_loop() -> asyncio.AbstractEventLoop:
    """The loop running in this thread.

    :raises RuntimeError: outside a running loop.
    """
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError("The object should be created within an async function or provide loop directly.") from None


def create_future(loop: Optional[asyncio.AbstractEventLoop] = None) -> "asyncio.Future[Any]":
    """A new future of ``loop``, or of the running loop.

    :raises RuntimeError: without ``loop``, outside a running loop.
    """
    return (loop if loop is not None else get_running_loop()).create_future()


def create_task(coro: Coroutine[Any, Any, T]) -> "asyncio.Task[T]":
    """Schedule ``coro`` as a task of the running loop.

    :raises RuntimeError: outside a running loop.
    """
    return get_running_loop().create_task(coro)

"""Helpers for the asyncio tests: a bounded asyncio.run, with uvloop on request."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, TypeVar

T = TypeVar("T")

LOOPS = ["asyncio", "uvloop"]


def run(make: Callable[[], Awaitable[T]], loop: str = "asyncio", timeout: float = 120.0) -> T:
    """Run ``make()`` on a fresh event loop of kind ``loop``; fail after ``timeout`` seconds."""

    async def bounded() -> T:
        return await asyncio.wait_for(make(), timeout)

    if loop == "uvloop":
        import uvloop

        runner: Any = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    else:
        runner = asyncio.Runner()
    with runner:
        return runner.run(bounded())

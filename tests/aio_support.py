"""Helpers for the asyncio tests: a bounded asyncio.run, with uvloop on request."""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Awaitable, Callable, TypeVar

T = TypeVar("T")

LOOPS = ["asyncio", "uvloop"]


def run(make: Callable[[], Awaitable[T]], loop: str = "asyncio", timeout: float = 120.0) -> T:
    """Run ``make()`` on a fresh event loop of kind ``loop``; fail after ``timeout`` seconds."""

    async def bounded() -> T:
        return await asyncio.wait_for(make(), timeout)

    factory: Callable[[], asyncio.AbstractEventLoop] = asyncio.new_event_loop
    if loop == "uvloop":
        import uvloop

        factory = uvloop.new_event_loop
    if sys.version_info < (3, 11):  # no asyncio.Runner: what it does, by hand
        return _run_without_runner(factory, bounded)
    runner: Any = asyncio.Runner(loop_factory=factory)
    with runner:
        return runner.run(bounded())


def _run_without_runner(factory: Callable[[], asyncio.AbstractEventLoop],
                        main: Callable[[], Awaitable[T]]) -> T:
    """asyncio.Runner's steps for Python 3.10: run on a new current loop, then cancel what is
    left, finish async generators and the default executor, and close the loop."""
    event_loop = factory()
    asyncio.set_event_loop(event_loop)
    try:
        return event_loop.run_until_complete(main())
    finally:
        try:
            left = [t for t in asyncio.all_tasks(event_loop) if not t.done()]
            for task in left:
                task.cancel()
            if left:
                event_loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            event_loop.run_until_complete(event_loop.shutdown_asyncgens())
            event_loop.run_until_complete(event_loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            event_loop.close()

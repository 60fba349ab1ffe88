"""``async def`` client callbacks (error_cb, stats_cb, on_delivery, on_commit...) for the asyncio
clients.

The C client calls its callbacks while the event loop serves it, so a plain function simply
runs there. A coroutine function cannot be awaited from inside that call: each call starts it
as a task on the loop instead, in call order, and an exception it raises is handed to the client,
which raises it from its next call (as it does for a plain callback that raised).
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, Callable, Dict, Optional, Set

#: The configuration callbacks that may be coroutine functions.
CONF_CALLBACKS = ("error_cb", "throttle_cb", "stats_cb", "on_delivery", "dr_cb", "on_commit")


def is_async(fn: Any) -> bool:
    """Whether calling ``fn`` makes a coroutine (an ``async def`` function or callable object)."""
    return inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(getattr(fn, "__call__", None))


class Tasks:
    """Runs the coroutines of ``async def`` callbacks of one client as tasks.

    :param report: called with the exception of a callback task that raised.
    :param loop_of: the loop the client is bound to, for a callback called outside it.
    """

    __slots__ = ("_loop_of", "_report", "_running")

    def __init__(self, report: Callable[[BaseException], None],
                 loop_of: Callable[[], Optional[asyncio.AbstractEventLoop]]) -> None:
        self._report = report
        self._loop_of = loop_of
        self._running: Set["asyncio.Task[Any]"] = set()

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., None]:
        """``fn`` itself if it is a plain function, else a function that starts it as a task."""
        if not is_async(fn):
            return fn

        def start(*args: Any) -> None:
            self.start(fn(*args))
        return start

    def adapt(self, conf: Dict[str, Any]) -> Dict[str, Any]:
        """``conf`` with its ``async def`` callbacks wrapped by :meth:`wrap` (a new dict)."""
        out = dict(conf)
        for name in CONF_CALLBACKS:
            fn = out.get(name)
            if fn is not None and callable(fn):
                out[name] = self.wrap(fn)
        return out

    def start(self, coro: Any) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:  # called outside the loop (e.g. while the client is destroyed)
            bound = self._loop_of()
            if bound is None or bound.is_closed():
                coro.close()
                return
            bound.call_soon_threadsafe(self._spawn, bound, coro)
            return
        self._spawn(running, coro)

    def _spawn(self, loop: asyncio.AbstractEventLoop, coro: Any) -> None:
        task = loop.create_task(coro)
        self._running.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: "asyncio.Task[Any]") -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._report(task.exception())  # type: ignore[arg-type]

    async def settle(self) -> None:
        """Wait for the callback tasks started so far."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

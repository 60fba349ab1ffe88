"""The event-loop side of a client's wake-up pipe.

librdkafka writes a byte to the pipe when the queue the client serves goes from empty to
non-empty (``rd_kafka_queue_io_event_enable``). The loop watches the read end with
``add_reader``; no thread polls. The next byte only comes after the queue was empty again, so
whoever is woken must serve the queue until it is empty (``poll(0)`` until nothing).
"""

from __future__ import annotations

import asyncio
import os
from typing import Callable, List, Optional


def _wake(fut: "asyncio.Future[None]") -> None:
    if not fut.done():
        fut.set_result(None)


class Wakeup:
    """Watches one wake-up descriptor on whichever event loop is running when it is used.

    ``on_wake`` (may be None) runs on each wake-up before the waiters are woken.
    """

    __slots__ = ("_fd", "_loop", "_on_wake", "_waiters")

    def __init__(self, fd: int, on_wake: Optional[Callable[[], None]]) -> None:
        self._fd = fd
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._on_wake = on_wake
        self._waiters: List["asyncio.Future[None]"] = []

    @property
    def loop(self) -> Optional[asyncio.AbstractEventLoop]:
        """The loop the descriptor is watched on, if any."""
        return self._loop

    def bind(self) -> asyncio.AbstractEventLoop:
        """Watch the descriptor on the running loop (moving from an earlier loop) and return it."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self.unbind()
            loop.add_reader(self._fd, self._readable)
            self._loop = loop
        return loop

    def unbind(self) -> None:
        """Stop watching. Waiters are woken (they find the client closed or re-bind); those of
        a loop that was closed meanwhile are dropped, since that loop can no longer run them."""
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._fd)
            self.notify()
        self._waiters = []

    def _readable(self) -> None:
        try:
            while os.read(self._fd, 512):
                pass
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            # The client was closed under us: nothing more will be written.
            self.unbind()
            return
        if self._on_wake is not None:
            self._on_wake()
        self.notify()

    def notify(self) -> None:
        """Wake every waiter (also used after serving work that did not come through the pipe)."""
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait(self, timeout: Optional[float]) -> None:
        """Return after the next wake-up, or after ``timeout`` seconds (None: no limit)."""
        loop = self.bind()
        fut: "asyncio.Future[None]" = loop.create_future()
        self._waiters.append(fut)
        if timeout is None:
            await fut
            return
        timer = loop.call_later(max(timeout, 0.0), _wake, fut)
        try:
            await fut
        finally:
            timer.cancel()

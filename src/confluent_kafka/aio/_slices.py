"""Blocking librdkafka calls run from the event loop: in short slices where librdkafka allows it.

* ``init_transactions`` is resumable: librdkafka keeps the operation going in the background
  when a call times out with a retriable ``_TIMED_OUT`` error, and the next call resumes it;
  the protocol requests are not bounded by the call's timeout. It runs with a zero timeout,
  and the loop sleeps between slices.
* ``commit_transaction`` and ``abort_transaction`` are documented as resumable, but resuming
  them is unsafe: their first step is not resumable, so a call that times out there resets the
  API state while that step still runs, and the broker's answer to an EndTxn sent meanwhile is
  then taken for an abort's (librdkafka asserts on the state change and aborts the process).
  They run once, with the caller's whole timeout, on a thread of their own, as below.
* ``send_offsets_to_transaction`` is retriable but not resumable. Its timeout bounds the whole
  AddOffsetsToTxn + TxnOffsetCommit exchange, so a zero timeout fails every attempt (and a
  TxnOffsetCommit that runs out of time makes the transaction abortable), while the call waits
  for the exchange to end whatever its timeout, so no slice bounds how long it blocks. It runs
  once, with the caller's whole timeout, on a thread of its own for that one call
  (:func:`on_own_thread`); the loop awaits it.
* Queries without an asynchronous or resumable form (``list_topics``, ``committed``,
  ``offsets_for_times``, un-cached watermarks): each attempt is a fresh request with a short
  timeout that grows from a few milliseconds, so against a healthy broker the first attempt
  answers; the loop is never held for longer than one slice (``MAX_SLICE``).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Optional, TypeVar

from ..cimpl import KafkaError, KafkaException

T = TypeVar("T")

MAX_SLICE = 0.2  # longest single blocking attempt of a non-resumable query, in seconds
_FIRST_SLICE = 0.02
_MAX_NAP = 0.05  # longest sleep between resumable slices


def _code(exc: KafkaException) -> object:
    err = exc.args[0] if exc.args else None
    return err.code() if isinstance(err, KafkaError) else None


def _timed_out(exc: KafkaException) -> bool:
    return _code(exc) == KafkaError._TIMED_OUT


# What a short attempt reports when no broker connection was up yet within its slice.
_NOT_YET = (KafkaError._TIMED_OUT, KafkaError._TRANSPORT)


def check_timeout(timeout: Any) -> None:
    """Refuse a timeout that is not a number of seconds (None is allowed: no limit)."""
    if timeout is not None and not isinstance(timeout, (int, float)):
        raise TypeError(f"must be real number, not {type(timeout).__name__}")


def _deadline(loop: asyncio.AbstractEventLoop, timeout: Optional[float]) -> Optional[float]:
    return None if timeout is None or timeout < 0 else loop.time() + timeout


async def resumable(call: Callable[[float], Any], timeout: Optional[float],
                    nap: Callable[[float], Any]) -> Any:
    """Run ``call(0)`` until it does not time out, within ``timeout`` seconds (None: no limit).

    ``nap(seconds)`` is awaited between slices (a wake-up wait, so delivery reports keep being
    served while e.g. a commit flushes).
    """
    loop = asyncio.get_running_loop()
    deadline = _deadline(loop, timeout)
    pause = 0.001
    while True:
        try:
            return call(0)
        except KafkaException as e:
            if not _timed_out(e) or (deadline is not None and loop.time() >= deadline):
                raise
        left = None if deadline is None else deadline - loop.time()
        await nap(pause if left is None else max(0.0, min(pause, left)))
        pause = min(pause * 2, _MAX_NAP)


async def bounded(call: Callable[[float], Any], timeout: Optional[float]) -> Any:
    """Run ``call(slice_seconds)`` with growing slices until it answers or ``timeout`` passes."""
    loop = asyncio.get_running_loop()
    deadline = _deadline(loop, timeout)
    slice_s = _FIRST_SLICE
    while True:
        left = None if deadline is None else deadline - loop.time()
        this = slice_s if left is None else max(0.0, min(slice_s, left))
        try:
            return call(this)
        except KafkaException as e:
            if _code(e) not in _NOT_YET or (left is not None and left <= this):
                raise
        await asyncio.sleep(0)
        slice_s = min(slice_s * 2, MAX_SLICE)


async def on_own_thread(call: Callable[[], T], name: str) -> T:
    """Run the blocking ``call()`` once, on a new thread of its own, and await its result.

    For the one librdkafka call that can neither be sliced nor resumed. No pool: the thread
    lives for this call only. If the awaiting task is cancelled the call still runs to its
    end (librdkafka offers no way to stop it) and its result is dropped.
    """
    loop = asyncio.get_running_loop()
    fut: "asyncio.Future[T]" = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if fut.done():
            return  # the awaiting task was cancelled
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)

    def run() -> None:
        outcome: "tuple[bool, Any]"
        try:
            outcome = (True, call())
        except BaseException as e:  # handed to the awaiting task, which raises it
            outcome = (False, e)
        try:
            loop.call_soon_threadsafe(settle, *outcome)
        except RuntimeError:
            pass  # the loop was closed meanwhile: nobody is waiting any more

    threading.Thread(target=run, name=name, daemon=True).start()
    return await fut

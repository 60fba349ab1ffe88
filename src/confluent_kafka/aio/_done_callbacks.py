"""Run the done-callbacks of the futures one drain of delivery reports settled, as one loop callback.

asyncio's ``Future.set_result()`` gives every done-callback a loop handle of its own, which costs
more than the rest of a delivered message's path when each future is awaited (``gather()``, a
task awaiting it). The C drain takes the callbacks out of the futures it settles and schedules
:func:`run_done_callbacks` once instead (src/confluent_kafka/src/done_batch.c). Each callback
still runs on the loop, in the order its handle would have, in its own context; one that raises
goes to the loop's exception handler as a handle's would, and the others still run.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, List


def run_done_callbacks(loop: asyncio.AbstractEventLoop, items: List[Any]) -> None:
    """Call each ``callback(future)`` of ``items`` (callback, context, future, ... flat) in its context.

    :param loop: the loop the futures belong to, for the exception handler.
    :param items: the triples, flat, in the order their handles would have run.
    """
    it = iter(items)
    for callback, context, fut in zip(it, it, it):
        try:
            context.run(callback, fut)
        except (SystemExit, KeyboardInterrupt):
            # Out of the loop, as from a handle; the callbacks not run yet run when it resumes.
            rest = list(it)
            if rest:
                loop.call_soon(run_done_callbacks, loop, rest)
            raise
        except BaseException as exc:  # noqa: B036 - what asyncio's Handle catches and reports
            _report(loop, callback, context, fut, exc)


def _report(loop: asyncio.AbstractEventLoop, callback: Callable[..., Any], context: Any, fut: Any,
            exc: BaseException) -> None:
    """Hand a callback's exception to the loop's handler as asyncio's Handle would."""
    handle = asyncio.Handle(callback, (fut,), loop, context=context)
    # _repr_info() is [class name, the callback's source]: the text asyncio's own message uses.
    source = handle._repr_info()[-1]  # type: ignore[attr-defined]
    loop.call_exception_handler({"message": f"Exception in callback {source}", "exception": exc,
                                 "handle": handle})

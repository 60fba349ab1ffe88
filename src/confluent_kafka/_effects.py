"""Running effect generators: code written once, free of I/O, yields what it needs done, and a
sync or an async shell answers each effect. The Schema Registry's client operations and serde
steps are written so, and the serializing clients' serde building and closing."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Generator, Optional


class _Run:
    """One run of an effect generator: ``effect`` is what it waits for until ``done``; then
    ``result`` is what it returned."""

    __slots__ = ("_op", "done", "effect", "result")

    def __init__(self, op: Generator[Any, Any, Any]) -> None:
        self._op, self.done, self.effect, self.result = op, False, None, None
        self.step(None, None)

    def step(self, value: Any, error: Optional[BaseException]) -> None:
        """Hand the generator the answer to its effect (``value``, or the ``error`` it raised) and
        take its next effect. What the generator raises propagates."""
        try:
            self.effect = self._op.throw(error) if error is not None else self._op.send(value)
        except StopIteration as finished:
            self.done, self.effect, self.result = True, None, finished.value


def drive(op: Generator[Any, Any, Any], perform: Callable[[Any], Any]) -> Any:
    """Run ``op`` to its end, ``perform(effect)`` answering each effect it yields. What ``perform``
    raises is thrown into ``op``, which decides what it means: a KeyboardInterrupt or a
    cancellation too, so that the op's cleanup runs then, not when the generator is collected.

    :param op: the generator.
    :param perform: answers one effect.
    :returns: what ``op`` returns.
    """
    run = _Run(op)
    while not run.done:
        try:
            value, error = perform(run.effect), None
        except BaseException as exc:  # noqa: BLE001 - handed to the generator, which decides
            value, error = None, exc
        run.step(value, error)  # (outside the handler: what the generator raises is not chained to it)
    return run.result


async def drive_async(op: Generator[Any, Any, Any], perform: Callable[[Any], Awaitable[Any]]) -> Any:
    """:func:`drive` for an async shell: ``perform`` is a coroutine function, each answer awaited."""
    run = _Run(op)
    while not run.done:
        try:
            value, error = await perform(run.effect), None
        except BaseException as exc:  # noqa: BLE001 - handed to the generator, which decides
            value, error = None, exc
        run.step(value, error)  # (outside the handler: what the generator raises is not chained to it)
    return run.result

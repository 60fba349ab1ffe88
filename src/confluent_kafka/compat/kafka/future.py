"""``kafka.future``: the callback-carrying future kafka-python returns from asynchronous calls."""
from __future__ import annotations

import functools
import logging
import threading
from typing import Any, Callable, Generator, List, Optional

from confluent_kafka.compat.kafka.errors import RetriableError

__all__ = ["Future"]

log = logging.getLogger("kafka.future")  # kafka-python's name, for its base and its record futures


def _exception_of(e: Any) -> BaseException:
    """What a future fails with: ``e`` itself, or an instance of ``e`` when it is a class.

    :raises TypeError: if that is not an exception.
    """
    exception = e() if isinstance(e, type) else e
    if not isinstance(exception, BaseException):
        raise TypeError("future failed without an exception")
    return exception


class Future:
    """A result that arrives later: ``success(value)`` or ``failure(exception)`` settles it once,
    and callbacks/errbacks added before or after run with the value or the exception."""

    # No __slots__ (kafka-python's has none either): FutureRecordMetadata adds this class to a C
    # base, and two bases with their own slots could not be combined.
    error_on_callbacks = False

    def __init__(self) -> None:
        self.is_done = False
        self.value: Any = None
        self.exception: Optional[BaseException] = None
        self._callbacks: Optional[List[Callable[[Any], Any]]] = []
        self._errbacks: Optional[List[Callable[[Any], Any]]] = []
        self._lock = threading.Lock()

    def succeeded(self) -> bool:
        """:returns: True once settled with a value."""
        return self.is_done and self.exception is None

    def failed(self) -> bool:
        """:returns: True once settled with an exception."""
        return self.is_done and self.exception is not None

    def retriable(self) -> bool:
        """:returns: True if it failed with a retriable error."""
        return self.is_done and isinstance(self.exception, RetriableError)

    def _callback_failed(self, exc: BaseException, what: str) -> bool:
        """A callback or errback raised ``exc``: log it, as kafka-python does (the C record future
        calls this too).

        :returns: True to raise it (``error_on_callbacks``), False to go on with the next one.
        """
        log.error("Error processing %s", what, exc_info=exc)
        return bool(self.error_on_callbacks)

    def _run(self, fns: Optional[List[Callable[[Any], Any]]], arg: Any, what: str) -> None:
        for fn in fns or ():
            try:
                fn(arg)
            except Exception as exc:
                if self._callback_failed(exc, what):
                    raise

    def success(self, value: Any) -> "Future":
        """Settle with ``value`` and run the callbacks.

        :param value: the result.
        :returns: self.
        """
        with self._lock:
            self.value, self.is_done = value, True
            callbacks, self._callbacks, self._errbacks = self._callbacks, None, None
        self._run(callbacks, value, "callback")
        return self

    def failure(self, e: Any) -> "Future":
        """Settle with an exception (an instance or a class to instantiate) and run the errbacks.

        :param e: the exception.
        :returns: self.
        :raises TypeError: if ``e`` is not an exception.
        """
        exception = _exception_of(e)
        with self._lock:
            self.exception, self.is_done = exception, True
            errbacks, self._callbacks, self._errbacks = self._errbacks, None, None
        self._run(errbacks, exception, "errback")
        return self

    def _add(self, errback: bool, f: Callable[..., Any], args: Any, kwargs: Any) -> "Future":
        """What add_callback (``errback`` False) and add_errback do: queue ``f`` (bound to ``args``
        and ``kwargs``) while unsettled, or run it now if the future settled the way it waits for."""
        if args or kwargs:
            f = functools.partial(f, *args, **kwargs)
        with self._lock:
            if not self.is_done:
                (self._errbacks if errback else self._callbacks).append(f)  # type: ignore[union-attr]
                return self
        if errback and self.exception is not None:
            self._run([f], self.exception, "errback")
        elif not errback and self.exception is None:
            self._run([f], self.value, "callback")
        return self

    def add_callback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future":
        """Call ``f(*args, value, **kwargs)`` on success (now, if already succeeded).

        :returns: self.
        """
        return self._add(False, f, args, kwargs)

    def add_errback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future":
        """Call ``f(*args, exception, **kwargs)`` on failure (now, if already failed).

        :returns: self.
        """
        return self._add(True, f, args, kwargs)

    def add_both(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future":
        """Call ``f`` with the value or the exception, whichever comes.

        :returns: self.
        """
        self.add_callback(f, *args, **kwargs)
        return self.add_errback(f, *args, **kwargs)

    def chain(self, future: "Future") -> "Future":
        """Settle ``future`` the same way as this one.

        :returns: self.
        """
        self.add_callback(future.success)
        return self.add_errback(future.failure)

    def __await__(self) -> Generator[Any, None, Any]:
        if not self.is_done:
            yield self
        if self.exception is not None:
            raise self.exception
        return self.value

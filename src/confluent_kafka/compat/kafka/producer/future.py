"""``kafka.producer.future``: the future ``send()`` returns and the :data:`RecordMetadata` it yields."""
from __future__ import annotations

import functools
import logging
import time
from collections import namedtuple
from typing import Any, Callable, Dict, List, Optional, Tuple

from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka.future import Future, _exception_of
from confluent_kafka.compat.kafka.structs import TopicPartition

__all__ = ["FutureRecordMetadata", "RecordMetadata"]

RecordMetadata = namedtuple("RecordMetadata", [
    "topic", "partition", "topic_partition", "offset", "timestamp", "checksum",
    "serialized_key_size", "serialized_value_size", "serialized_header_size"])
RecordMetadata.__doc__ = ("Where an acknowledged record was written: topic, partition, offset, its timestamp "
                          "(ms) and the serialized sizes (-1 when absent); ``checksum`` is None.")

_new = tuple.__new__
log = logging.getLogger("kafka.future")
_TPS: Dict[Tuple[str, int], Any] = {}  # (topic, partition) -> TopicPartition, shared by the delivery reports


def _tp(topic: str, partition: int) -> Any:
    tp = _TPS.get((topic, partition))
    if tp is None:
        if len(_TPS) > 100_000:
            _TPS.clear()
        tp = _TPS[(topic, partition)] = _new(TopicPartition, (topic, partition))
    return tp


def _metadata(msg: Any, args: Tuple[Any, ...]) -> Any:
    """The RecordMetadata of a delivered message; ``args`` as FutureRecordMetadata keeps them."""
    timestamp_ms, ksize, vsize, hsize = args
    topic, partition = msg.topic(), msg.partition()
    ts = msg.timestamp()[1]
    return _new(RecordMetadata, (
        topic, partition, _TPS.get((topic, partition)) or _tp(topic, partition), msg.offset(),
        ts if ts is not None and ts >= 0 else (timestamp_ms if timestamp_ms is not None else -1),
        None, ksize, vsize, hsize))


class FutureRecordMetadata(Future):
    """The pending result of one ``send()``: :meth:`get` waits for its :data:`RecordMetadata`.

    The delivery report only keeps librdkafka's message; the RecordMetadata is built when someone
    asks (``value``, ``get()``, a callback), so records nobody looks at cost little.
    """

    # No __slots__: the class attributes below are the defaults, so building one (once per
    # record) sets two attributes instead of Future's nine. No lock either: the callbacks and
    # errbacks wait in lists in the instance dict, and whoever runs them takes each with
    # list.pop(), an atomic step (with or without a GIL), so a function added while the delivery
    # report settles the future runs once, on one thread or the other. (A lock shared by every
    # record, as before, made send() and the delivery thread wait on each other whenever a GIL
    # switch came while one held it: 85,000 context switches per 300,000 records.)
    is_done = False
    exception = None
    _msg = None
    _value = None
    _callbacks: Optional[List[Callable[[Any], Any]]] = None  # (in the instance dict once queued)
    _errbacks: Optional[List[Callable[[Any], Any]]] = None

    def __init__(self, wait: Callable[[float], Any], args: Tuple[Any, ...]) -> None:
        self._wait = wait
        self.args = args  # (timestamp_ms, key size, value size, header size)

    @property
    def value(self) -> Any:
        """The RecordMetadata once delivered (None before, or after a failure)."""
        if self._value is None and self._msg is not None:
            self._value = _metadata(self._msg, self.args)
            self._msg = None
        return self._value

    @value.setter
    def value(self, value: Any) -> None:
        self._value = value

    def _delivered(self, err: Any, msg: Any) -> None:
        """librdkafka's delivery report for this record."""
        if err is not None:
            from confluent_kafka.compat.kafka._util import translate_error
            self.failure(translate_error(err))
            return
        self._msg = msg  # before is_done: get() in another thread may read value at once
        self.is_done = True
        d = self.__dict__
        if "_errbacks" in d:
            d.pop("_errbacks", None)
        fns = d.pop("_callbacks", None)
        if fns:  # otherwise the RecordMetadata is built if someone asks
            value = self._value = _metadata(msg, self.args)
            while True:  # _drain(), inline: this runs once per record
                try:
                    fn = fns.pop(0)
                except IndexError:
                    return
                try:
                    fn(value)
                except Exception:
                    log.exception("Error processing callback")
                    if self.error_on_callbacks:
                        raise

    def success(self, value: Any) -> "FutureRecordMetadata":
        """Settle with ``value`` and run the callbacks.

        :param value: the result.
        :returns: self.
        """
        self._value = value
        self.is_done = True
        self._settled()
        return self

    def failure(self, e: Any) -> "FutureRecordMetadata":
        """Settle with an exception (an instance or a class to instantiate) and run the errbacks.

        :param e: the exception.
        :returns: self.
        :raises TypeError: if ``e`` is not an exception.
        """
        self.exception = _exception_of(e)
        self.is_done = True
        self._settled()
        return self

    def _settled(self) -> None:
        """Once is_done is set: run the functions queued for the outcome, drop the others."""
        d = self.__dict__
        failed = self.exception is not None
        d.pop("_callbacks" if failed else "_errbacks", None)
        fns = d.pop("_errbacks" if failed else "_callbacks", None)
        if fns:
            self._drain(fns)

    def _drain(self, fns: List[Callable[[Any], Any]]) -> None:
        """Run and remove every function of ``fns`` (of the outcome's kind), one at a time."""
        failed = self.exception is not None
        arg = self.exception if failed else self.value
        while True:
            try:
                fn = fns.pop(0)
            except IndexError:
                return
            try:
                fn(arg)
            except Exception:
                log.exception("Error processing %s", "errback" if failed else "callback")
                if self.error_on_callbacks:
                    raise

    def _add(self, errback: bool, f: Callable[..., Any], args: Any, kwargs: Any) -> "FutureRecordMetadata":
        """Queue ``f`` for the outcome it waits for, or run it now if the future settled that way.

        dict.setdefault and list.append are each one atomic step: if the future settles in
        between, is_done is True when checked again, and this thread takes what is left.
        """
        if args or kwargs:
            f = functools.partial(f, *args, **kwargs)
        if not self.is_done:
            new = [f]
            fns = self.__dict__.setdefault("_errbacks" if errback else "_callbacks", new)
            if fns is not new:
                fns.append(f)
            if not self.is_done:
                return self  # the settling thread takes the list after setting is_done
        else:
            fns = [f]
        if errback == (self.exception is not None):
            self._drain(fns)
        return self

    def get(self, timeout: Optional[float] = None) -> Any:
        """Wait for the broker's acknowledgement.

        :param timeout: seconds to wait (None: as long as it takes).
        :returns: the :data:`RecordMetadata`.
        :raises KafkaTimeoutError: when the timeout passes first.
        :raises KafkaError: the error the record failed with.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.is_done:
            left = 0.1 if deadline is None else min(0.1, deadline - time.monotonic())
            if left <= 0:
                raise Errors.KafkaTimeoutError(f"Timeout after waiting for {timeout} secs.")
            self._wait(left)
        if self.exception is not None:
            raise self.exception
        return self.value

"""``kafka.producer.future``: the future ``send()`` returns and the :data:`RecordMetadata` it yields."""
from __future__ import annotations

import logging
import threading
import time
from collections import namedtuple
import functools
from typing import Any, Callable, List, Optional, Tuple

from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka.future import Future
from confluent_kafka.compat.kafka.structs import TopicPartition

__all__ = ["FutureRecordMetadata", "RecordMetadata"]

RecordMetadata = namedtuple("RecordMetadata", [
    "topic", "partition", "topic_partition", "offset", "timestamp", "checksum",
    "serialized_key_size", "serialized_value_size", "serialized_header_size"])
RecordMetadata.__doc__ = ("Where an acknowledged record was written: topic, partition, offset, its timestamp "
                          "(ms) and the serialized sizes (-1 when absent); ``checksum`` is None.")

_new = tuple.__new__
log = logging.getLogger("kafka.future")
# One lock for every record future: it guards a few attribute writes, so sharing it costs less
# than a lock per record.
_LOCK = threading.Lock()


class FutureRecordMetadata(Future):
    """The pending result of one ``send()``: :meth:`get` waits for its :data:`RecordMetadata`.

    The delivery report only keeps librdkafka's message; the RecordMetadata is built when someone
    asks (``value``, ``get()``, a callback), so records nobody looks at cost little.
    """

    # No __slots__: the class attributes below are the defaults, so building one (once per
    # record) sets two attributes instead of Future's nine.
    is_done = False
    exception = None
    _msg = None
    _value = None
    _callbacks: Optional[List[Callable[[Any], Any]]] = None
    _errbacks: Optional[List[Callable[[Any], Any]]] = None
    _lock = _LOCK

    def __init__(self, wait: Callable[[float], Any], args: Tuple[Any, ...]) -> None:
        self._wait = wait
        self.args = args  # (timestamp_ms, key size, value size, header size)

    def add_callback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future":
        """Call ``f(*args, metadata, **kwargs)`` once delivered (now, if already delivered).

        :returns: self.
        """
        if args or kwargs:
            f = functools.partial(f, *args, **kwargs)
        lock = self._lock
        lock.acquire()
        if not self.is_done:
            if self._callbacks is None:
                self._callbacks = [f]
            else:
                self._callbacks.append(f)
            lock.release()
            return self
        lock.release()
        if self.exception is None:
            self._run([f], self.value, "callback")
        return self

    def add_errback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> "Future":
        """Call ``f(*args, exception, **kwargs)`` if the record fails (now, if it already failed).

        :returns: self.
        """
        if args or kwargs:
            f = functools.partial(f, *args, **kwargs)
        lock = self._lock
        lock.acquire()
        if not self.is_done:
            if self._errbacks is None:
                self._errbacks = [f]
            else:
                self._errbacks.append(f)
            lock.release()
            return self
        lock.release()
        if self.exception is not None:
            self._run([f], self.exception, "errback")
        return self

    @property
    def value(self) -> Any:
        """The RecordMetadata once delivered (None before, or after a failure)."""
        if self._value is None and self._msg is not None:
            msg = self._msg
            timestamp_ms, ksize, vsize, hsize = self.args
            topic, partition = msg.topic(), msg.partition()
            ts = msg.timestamp()[1]
            self._value = _new(RecordMetadata, (
                topic, partition, _new(TopicPartition, (topic, partition)), msg.offset(),
                ts if ts is not None and ts >= 0 else (timestamp_ms if timestamp_ms is not None else -1),
                None, ksize, vsize, hsize))
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
        lock = self._lock
        lock.acquire()
        self.is_done = True
        callbacks = self._callbacks
        lock.release()
        if callbacks is not None:  # otherwise the RecordMetadata is built if someone asks
            self._callbacks = self._errbacks = None
            timestamp_ms, ksize, vsize, hsize = self.args
            topic, partition = msg.topic(), msg.partition()
            ts = msg.timestamp()[1]
            value = self._value = _new(RecordMetadata, (
                topic, partition, _new(TopicPartition, (topic, partition)), msg.offset(),
                ts if ts is not None and ts >= 0 else (timestamp_ms if timestamp_ms is not None else -1),
                None, ksize, vsize, hsize))
            for fn in callbacks:
                try:
                    fn(value)
                except Exception:
                    log.exception("Error processing callback")
                    if self.error_on_callbacks:
                        raise

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

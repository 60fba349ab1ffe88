"""``kafka.producer.future``: the future ``send()`` returns and the :data:`RecordMetadata` it yields."""
from __future__ import annotations

import logging
import threading
import time
from collections import namedtuple
from typing import Any, Callable, Dict, List, Optional, Tuple

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
        _LOCK.acquire()  # (self._lock is _LOCK: the global is the cheaper lookup)
        self.is_done = True
        callbacks = self._callbacks
        _LOCK.release()
        if callbacks is not None:  # otherwise the RecordMetadata is built if someone asks
            self._callbacks = self._errbacks = None
            value = self._value = _metadata(msg, self.args)
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

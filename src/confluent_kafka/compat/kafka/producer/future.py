"""``kafka.producer.future``: the future ``send()`` returns and the :data:`RecordMetadata` it yields."""
from __future__ import annotations

import time
from collections import namedtuple
from typing import Any, Callable, Optional

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


class FutureRecordMetadata(Future):
    """The pending result of one ``send()``: :meth:`get` waits for its :data:`RecordMetadata`."""

    __slots__ = ("_wait", "args")

    def __init__(self, wait: Callable[[float], Any], timestamp_ms: Optional[int], key_size: int,
                 value_size: int, header_size: int) -> None:
        super().__init__()
        self._wait = wait
        self.args = (timestamp_ms, key_size, value_size, header_size)

    def _delivered(self, err: Any, msg: Any) -> None:
        """librdkafka's delivery report for this record."""
        if err is not None:
            from confluent_kafka.compat.kafka._util import translate_error
            self.failure(translate_error(err))
            return
        timestamp_ms, ksize, vsize, hsize = self.args
        topic, partition = msg.topic(), msg.partition()
        ts = msg.timestamp()[1]
        self.success(_new(RecordMetadata, (
            topic, partition, _new(TopicPartition, (topic, partition)), msg.offset(),
            ts if ts is not None and ts >= 0 else (timestamp_ms if timestamp_ms is not None else -1),
            None, ksize, vsize, hsize)))

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

"""``kafka.producer.future``: the future ``send()`` returns and the :data:`RecordMetadata` it yields."""
from __future__ import annotations

from collections import namedtuple
from typing import Any, Callable, Dict, Optional, Tuple

from confluent_kafka.cimpl import _RecordFuture
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka.future import Future
from confluent_kafka.compat.kafka.structs import TopicPartition

__all__ = ["FutureRecordMetadata", "RecordMetadata"]

RecordMetadata = namedtuple("RecordMetadata", [
    "topic", "partition", "topic_partition", "offset", "timestamp", "checksum",
    "serialized_key_size", "serialized_value_size", "serialized_header_size"])
RecordMetadata.__doc__ = ("Where an acknowledged record was written: topic, partition, offset, its timestamp "
                          "(ms) and the serialized sizes (-1 when absent); ``checksum`` is None.")


class FutureRecordMetadata(_RecordFuture, Future):
    """The pending result of one ``send()``: :meth:`get` waits for its :data:`RecordMetadata`.

    ``FutureRecordMetadata(wait, args)``: ``wait(future, timeout)`` returns once the future is
    settled, or raises KafkaTimeoutError after ``timeout`` seconds (None: no limit); ``args`` is
    ``(timestamp_ms, key size, value size, header size)`` of the record.

    Its state, :meth:`add_callback`, :meth:`add_errback`, :meth:`success` and :meth:`failure` are
    C (``cimpl._RecordFuture``): the producer's delivery report settles it without a Python call,
    and its RecordMetadata is built only when someone asks (``value``, ``get()``, a callback). A
    function added while another thread settles the future runs exactly once, on one of them.
    """

    def get(self, timeout: Optional[float] = None) -> Any:
        """Wait for the broker's acknowledgement.

        :param timeout: seconds to wait (None: as long as it takes).
        :returns: the :data:`RecordMetadata`.
        :raises KafkaTimeoutError: when the timeout passes first.
        :raises KafkaError: the error the record failed with.
        """
        if not self.is_done:
            self._wait(self, timeout)
        if self.exception is not None:
            raise self.exception
        return self.value


def _delivery_failed(future: FutureRecordMetadata, err: Any, msg: Any) -> None:
    """A failed delivery report (a successful one settles the future in C)."""
    from confluent_kafka.compat.kafka._util import translate_error
    future.failure(translate_error(err))


# What Producer._produce_record() builds a delivered record's RecordMetadata from: the classes,
# the failure path, no exception to ignore, and the TopicPartitions the reports share.
SPEC: Tuple[type, type, Callable[..., Any], Tuple[type, ...], Dict[Any, Any]] = (
    RecordMetadata, TopicPartition, _delivery_failed, (), {})

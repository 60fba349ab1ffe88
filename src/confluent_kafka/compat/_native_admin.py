"""What both facades' admin clients need to read the results of this package's AdminClient.

A native admin future fails with ``KafkaException(KafkaError)``. Either the error is about the one
item the future stands for (a broker's error code, or librdkafka's local unknown topic/partition,
which is about the item too), and the facades report it in the item's result, or the request
itself failed (timeout, lost connection, an API the broker lacks) and the facades raise.
"""
from __future__ import annotations

from typing import Optional

from confluent_kafka.cimpl import KafkaError, KafkaException

__all__ = ["UNKNOWN_TOPIC_CODES", "is_item_error", "item_code", "native_error"]

#: librdkafka's local codes for a topic or partition the cluster does not have.
UNKNOWN_TOPIC_CODES = (KafkaError._UNKNOWN_TOPIC, KafkaError._UNKNOWN_PARTITION)


def native_error(exc: BaseException) -> Optional[KafkaError]:
    """:returns: the ``KafkaError`` a ``KafkaException`` carries, or None for any other exception."""
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        return exc.args[0]
    return None


def item_code(err: KafkaError) -> int:
    """:returns: the Kafka protocol code of an item's error (3, UNKNOWN_TOPIC_OR_PARTITION, for
        librdkafka's local unknown topic/partition codes)."""
    return 3 if err.code() in UNKNOWN_TOPIC_CODES else int(err.code())


def is_item_error(err: KafkaError) -> bool:
    """:returns: whether ``err`` is about one item (a broker code, or an unknown topic/partition)
        rather than about the whole request."""
    return err.code() >= 0 or err.code() in UNKNOWN_TOPIC_CODES

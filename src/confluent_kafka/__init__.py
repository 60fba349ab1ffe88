"""A fast, crash-free Python client for Apache Kafka over librdkafka.

The public API matches confluent-kafka-python 2.x: :class:`Producer`,
:class:`Consumer`, :class:`Message`, :class:`TopicPartition`,
:class:`KafkaError` and :class:`KafkaException`, the offset and timestamp
constants, and the partitioner helpers.
"""

from ._model import ThrottleEvent
from ._version import __version__
from .cimpl import (
    OFFSET_BEGINNING,
    OFFSET_END,
    OFFSET_INVALID,
    OFFSET_STORED,
    TIMESTAMP_CREATE_TIME,
    TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE,
    Consumer,
    KafkaError,
    KafkaException,
    Message,
    Producer,
    TopicPartition,
    consistent,
    fnv1a,
    libversion,
    murmur2,
    version,
)

__all__ = [
    "Consumer",
    "KafkaError",
    "KafkaException",
    "Message",
    "OFFSET_BEGINNING",
    "OFFSET_END",
    "OFFSET_INVALID",
    "OFFSET_STORED",
    "Producer",
    "TIMESTAMP_CREATE_TIME",
    "TIMESTAMP_LOG_APPEND_TIME",
    "TIMESTAMP_NOT_AVAILABLE",
    "ThrottleEvent",
    "TopicPartition",
    "__version__",
    "consistent",
    "fnv1a",
    "libversion",
    "murmur2",
    "version",
]

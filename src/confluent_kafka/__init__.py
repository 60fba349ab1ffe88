"""A fast, crash-free Python client for Apache Kafka over librdkafka.

The public API matches confluent-kafka-python 2.x: :class:`Producer`,
:class:`Consumer`, :class:`Message`, :class:`TopicPartition`,
:class:`KafkaError` and :class:`KafkaException`, the offset and timestamp
constants, the partitioner helpers, and the admin model types upstream also exports here
(the :class:`~confluent_kafka.admin.AdminClient` itself lives in :mod:`confluent_kafka.admin`),
and the serializing clients :class:`SerializingProducer` and :class:`DeserializingConsumer`
(their serializers live in :mod:`confluent_kafka.serialization`).
"""

from ._model import AcknowledgeType, Messages, ThrottleEvent
from . import _share  # installs the share consumer names into cimpl, as upstream has them there
from .admin import Uuid
from .admin._model_types import *  # noqa: F401,F403 - the admin model types upstream has here
from ._version import __version__
from .cimpl import (
    OFFSET_BEGINNING,
    OFFSET_END,
    OFFSET_INVALID,
    OFFSET_STORED,
    TIMESTAMP_CREATE_TIME,
    TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE,
    ArrowBatch,
    ConcurrentModificationException,
    Consumer,
    IllegalStateException,
    KafkaError,
    KafkaException,
    Message,
    Producer,
    ShareConsumer,
    TopicPartition,
    consistent,
    fnv1a,
    libversion,
    murmur2,
    version,
)
from . import serialization
from .deserializing_consumer import DeserializingConsumer
from .deserializing_share_consumer import DeserializingShareConsumer
from .serializing_producer import SerializingProducer

__all__ = [
    "AcknowledgeType",
    "ArrowBatch",
    "ConcurrentModificationException",
    "DeserializingShareConsumer",
    "IllegalStateException",
    "Messages",
    "ShareConsumer",
    "Consumer",
    "ConsumerGroupState",
    "DeserializingConsumer",
    "ConsumerGroupTopicPartitions",
    "ConsumerGroupType",
    "ElectionType",
    "IsolationLevel",
    "Node",
    "TopicCollection",
    "TopicPartitionInfo",
    "Uuid",
    "KafkaError",
    "KafkaException",
    "Message",
    "OFFSET_BEGINNING",
    "OFFSET_END",
    "OFFSET_INVALID",
    "OFFSET_STORED",
    "Producer",
    "SerializingProducer",
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
    "serialization",
    "version",
]

"""The kafka-python 3.0 API over this package's librdkafka core: ``import kafka`` for
``from confluent_kafka.compat import kafka`` (or run an unmodified program with
``python -m confluent_kafka.compat run app.py``). See docs/kafka_python.md."""
from __future__ import annotations

import logging

from confluent_kafka.compat.kafka import errors
from confluent_kafka.compat.kafka._config import KAFKA_PYTHON_VERSION as __version__
from confluent_kafka.compat.kafka.admin import KafkaAdminClient
from confluent_kafka.compat.kafka.consumer import KafkaConsumer
from confluent_kafka.compat.kafka.consumer.fetcher import ConsumerRecord
from confluent_kafka.compat.kafka.consumer.subscription_state import (
    AsyncConsumerRebalanceListener, ConsumerRebalanceListener)
from confluent_kafka.compat.kafka.producer import KafkaProducer
from confluent_kafka.compat.kafka.producer.future import FutureRecordMetadata, RecordMetadata
from confluent_kafka.compat.kafka.serializer import DefaultSerializer, Deserializer, JsonSerializer, Serializer
from confluent_kafka.compat.kafka.structs import (
    ConsumerGroupMetadata, IsolationLevel, OffsetAndMetadata, OffsetAndTimestamp, OffsetSpec, TopicPartition,
    TopicPartitionReplica)

logging.getLogger(__name__).addHandler(logging.NullHandler())

__all__ = [
    "KafkaAdminClient", "KafkaConsumer", "KafkaProducer",
    "AsyncConsumerRebalanceListener", "ConsumerRebalanceListener",
    "DefaultSerializer", "JsonSerializer", "Serializer", "Deserializer",
    "ConsumerGroupMetadata", "OffsetAndMetadata", "TopicPartition", "TopicPartitionReplica",
    "IsolationLevel", "OffsetSpec",
]

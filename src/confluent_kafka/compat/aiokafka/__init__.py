"""The aiokafka facade: aiokafka 0.14's API on this package's asyncio clients (no thread pool).

``from confluent_kafka.compat.aiokafka import AIOKafkaProducer, AIOKafkaConsumer`` replaces
``from aiokafka import ...``; ``python -m confluent_kafka.compat run app.py`` runs a program that
imports ``aiokafka`` on it unchanged. The options and their librdkafka properties are listed in
docs/aiokafka.md (the table is :mod:`._options`).
"""
from .abc import ConsumerRebalanceListener
from .consumer import AIOKafkaConsumer
from .errors import ConsumerStoppedError, IllegalOperation
from .producer import AIOKafkaProducer
from .structs import ConsumerRecord, OffsetAndMetadata, OffsetAndTimestamp, TopicPartition

__version__ = "0.14.0"

__all__ = ["AIOKafkaConsumer", "AIOKafkaProducer", "ConsumerRebalanceListener", "ConsumerRecord",
           "ConsumerStoppedError", "IllegalOperation", "OffsetAndMetadata", "OffsetAndTimestamp", "TopicPartition"]

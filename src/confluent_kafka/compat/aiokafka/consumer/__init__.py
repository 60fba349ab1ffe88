"""``aiokafka.consumer`` of the aiokafka facade: ``AIOKafkaConsumer``, defined in
``aiokafka.consumer.consumer`` as in aiokafka."""
from .consumer import AIOKafkaConsumer

__all__ = ["AIOKafkaConsumer"]

"""``kafka.consumer``: the consumer of the kafka-python facade."""
from confluent_kafka.compat.kafka.consumer.group import KafkaConsumer

__all__ = ["KafkaConsumer"]

"""``kafka.producer``: the producer of the kafka-python facade."""
from confluent_kafka.compat.kafka.producer.kafka import KafkaProducer

__all__ = ["KafkaProducer"]

"""``kafka.partitioner.default``: Java's murmur2 partitioner, the path kafka-python 2.x code imports it from."""
from confluent_kafka.compat.kafka.partitioner import DefaultPartitioner, murmur2

__all__ = ["DefaultPartitioner", "murmur2"]

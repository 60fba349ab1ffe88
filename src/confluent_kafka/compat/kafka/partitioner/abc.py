"""``kafka.partitioner.abc``: the partitioner interface (also in ``kafka.partitioner``)."""
from confluent_kafka.compat.kafka.partitioner import Partitioner

__all__ = ["Partitioner"]

"""``kafka.partitioner.sticky``: the sticky partitioner (also in ``kafka.partitioner``)."""
from confluent_kafka.compat.kafka.partitioner import StickyPartitioner

__all__ = ["StickyPartitioner"]

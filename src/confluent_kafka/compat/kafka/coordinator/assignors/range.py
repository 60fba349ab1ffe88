"""``kafka.coordinator.assignors.range``."""
from confluent_kafka.compat.kafka.coordinator.assignors import AbstractPartitionAssignor

__all__ = ["RangePartitionAssignor"]


class RangePartitionAssignor(AbstractPartitionAssignor):
    """Per topic, contiguous ranges of partitions to the members in order (librdkafka ``range``)."""

    name = "range"

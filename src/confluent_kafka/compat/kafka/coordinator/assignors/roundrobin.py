"""``kafka.coordinator.assignors.roundrobin``."""
from confluent_kafka.compat.kafka.coordinator.assignors import AbstractPartitionAssignor

__all__ = ["RoundRobinPartitionAssignor"]


class RoundRobinPartitionAssignor(AbstractPartitionAssignor):
    """All partitions dealt to the members in turn (librdkafka ``roundrobin``)."""

    name = "roundrobin"

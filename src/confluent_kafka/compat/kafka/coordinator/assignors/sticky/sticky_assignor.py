"""``kafka.coordinator.assignors.sticky.sticky_assignor``: importable, refused as an assignor."""
from confluent_kafka.compat.kafka.coordinator.assignors import AbstractPartitionAssignor

__all__ = ["StickyPartitionAssignor"]


class StickyPartitionAssignor(AbstractPartitionAssignor):
    """kafka-python's eager sticky assignor: librdkafka has only the cooperative one, so
    ``partition_assignment_strategy`` refuses it with KafkaConfigurationError."""

    name = "sticky"

"""``kafka.coordinator.assignors.abstract``: the assignors" base class, where custom assignors import it from."""
from confluent_kafka.compat.kafka.coordinator.assignors import AbstractPartitionAssignor

__all__ = ["AbstractPartitionAssignor"]

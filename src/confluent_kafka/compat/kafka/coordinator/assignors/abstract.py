"""``kafka.coordinator.assignors.abstract``: the assignors' base class and the rebalance
protocols, where custom assignors import them from."""
from confluent_kafka.compat.kafka.coordinator.assignors import AbstractPartitionAssignor, RebalanceProtocol

__all__ = ["AbstractPartitionAssignor", "RebalanceProtocol"]

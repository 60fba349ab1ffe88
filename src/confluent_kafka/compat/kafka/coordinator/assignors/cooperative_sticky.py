"""``kafka.coordinator.assignors.cooperative_sticky``: librdkafka's ``cooperative-sticky``.

Under it a rebalance revokes only the partitions that move; the consumer's rebalance listener is
told of those (``on_partitions_revoked``) and of the partitions added (``on_partitions_assigned``),
each only when there are some, as kafka-python 3.0 does.
"""
from typing import List

from confluent_kafka.compat.kafka.coordinator.assignors import RebalanceProtocol
from confluent_kafka.compat.kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

__all__ = ["CooperativeStickyAssignor"]


class CooperativeStickyAssignor(StickyPartitionAssignor):
    """The sticky assignment, moved in two rebalances so that no partition has two owners
    (librdkafka ``cooperative-sticky``)."""

    name = "cooperative-sticky"
    version = 1

    def supported_protocols(self) -> List[RebalanceProtocol]:
        """:returns: ``[COOPERATIVE]``: it cannot be mixed with eager assignors."""
        return [RebalanceProtocol.COOPERATIVE]

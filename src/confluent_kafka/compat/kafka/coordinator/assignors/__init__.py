"""``kafka.coordinator.assignors``: the group assignors a program can name.

librdkafka runs the assignment; these classes only carry the protocol ``name`` the facade maps to
``partition.assignment.strategy`` (``range``, ``roundrobin``, ``cooperative-sticky``) and the
rebalance protocol each takes part in. kafka-python's eager ``sticky`` assignor has no librdkafka
equivalent and is refused.
"""
from __future__ import annotations

from enum import IntEnum
from typing import List

__all__ = ["AbstractPartitionAssignor", "RebalanceProtocol"]


class RebalanceProtocol(IntEnum):
    """How a rebalance moves partitions: EAGER revokes every member's whole assignment first;
    COOPERATIVE (KIP-429) revokes only the partitions that move, and the rebalance listener is
    told only of those and of the partitions added."""

    EAGER = 0
    COOPERATIVE = 1


class AbstractPartitionAssignor:
    """Base of the assignors: ``name`` is the group protocol name, ``version`` its version."""

    name = "abstract"
    version = 0

    def supported_protocols(self) -> List[RebalanceProtocol]:
        """:returns: the rebalance protocols this assignor takes part in (EAGER, as every
            assignor but the cooperative one)."""
        return [RebalanceProtocol.EAGER]

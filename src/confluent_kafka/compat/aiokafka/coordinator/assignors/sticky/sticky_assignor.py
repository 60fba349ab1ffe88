"""``aiokafka.coordinator.assignors.sticky.sticky_assignor`` of the aiokafka facade.

aiokafka's sticky assignor runs in Python under the eager rebalance protocol. librdkafka has no
eager sticky assignor: its ``cooperative-sticky`` is another protocol, in which a rebalance
listener is told only of the partitions that move, so it would break listeners written for
aiokafka. The class is importable; passing it in ``partition_assignment_strategy`` raises
``UnsupportedOption`` naming it.
"""
from __future__ import annotations

from typing import Any

from ..abstract import AbstractPartitionAssignor

__all__ = ["StickyPartitionAssignor"]


class StickyPartitionAssignor(AbstractPartitionAssignor):
    """aiokafka's sticky assignor; refused by the facade's consumer (see the module)."""

    name = "sticky"
    version = 0

    @classmethod
    def assign(cls, cluster: Any, members: Any) -> Any:
        """Not available: librdkafka runs the assignment and has no eager sticky assignor.

        :param cluster: the cluster metadata.
        :param members: the group members' subscriptions.
        :returns: never.
        :raises NotImplementedError: always.
        """
        raise NotImplementedError("librdkafka has no eager sticky assignor")

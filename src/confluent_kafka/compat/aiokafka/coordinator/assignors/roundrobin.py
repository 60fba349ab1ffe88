"""``aiokafka.coordinator.assignors.roundrobin`` of the aiokafka facade."""
from __future__ import annotations

from typing import Any

from .abstract import AbstractPartitionAssignor

__all__ = ["RoundRobinPartitionAssignor"]


class RoundRobinPartitionAssignor(AbstractPartitionAssignor):
    """librdkafka's ``roundrobin`` assignor (pass the class in ``partition_assignment_strategy``)."""

    name = "roundrobin"

    @classmethod
    def assign(cls, cluster: Any, members: Any) -> Any:
        """Not available: librdkafka computes the assignment in C.

        :param cluster: the cluster metadata.
        :param members: the group members' subscriptions.
        :returns: never.
        :raises NotImplementedError: always.
        """
        raise NotImplementedError("librdkafka runs the roundrobin assignment itself")

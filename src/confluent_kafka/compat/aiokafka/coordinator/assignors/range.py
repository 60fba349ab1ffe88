"""``aiokafka.coordinator.assignors.range`` of the aiokafka facade."""
from __future__ import annotations

from typing import Any

from .abstract import AbstractPartitionAssignor

__all__ = ["RangePartitionAssignor"]


class RangePartitionAssignor(AbstractPartitionAssignor):
    """librdkafka's ``range`` assignor (pass the class in ``partition_assignment_strategy``)."""

    name = "range"

    @classmethod
    def assign(cls, cluster: Any, members: Any) -> Any:
        """Not available: librdkafka computes the assignment in C.

        :param cluster: the cluster metadata.
        :param members: the group members' subscriptions.
        :returns: never.
        :raises NotImplementedError: always.
        """
        raise NotImplementedError("librdkafka runs the range assignment itself")

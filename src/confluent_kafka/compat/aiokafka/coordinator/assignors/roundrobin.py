"""``aiokafka.coordinator.assignors.roundrobin`` of the aiokafka facade."""
from __future__ import annotations

from .abstract import AbstractPartitionAssignor, _BuiltInAssignor  # noqa: F401 (aiokafka's module has both names)

__all__ = ["RoundRobinPartitionAssignor"]


class RoundRobinPartitionAssignor(_BuiltInAssignor):
    """librdkafka's ``roundrobin`` assignor (pass the class in ``partition_assignment_strategy``)."""

    name = "roundrobin"

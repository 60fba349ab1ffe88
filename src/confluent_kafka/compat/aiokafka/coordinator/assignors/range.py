"""``aiokafka.coordinator.assignors.range`` of the aiokafka facade."""
from __future__ import annotations

from .abstract import AbstractPartitionAssignor, _BuiltInAssignor  # noqa: F401 (aiokafka's module has both names)

__all__ = ["RangePartitionAssignor"]


class RangePartitionAssignor(_BuiltInAssignor):
    """librdkafka's ``range`` assignor (pass the class in ``partition_assignment_strategy``)."""

    name = "range"

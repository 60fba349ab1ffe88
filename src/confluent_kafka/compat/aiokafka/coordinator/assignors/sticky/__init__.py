"""``aiokafka.coordinator.assignors.sticky`` of the aiokafka facade."""
from __future__ import annotations

from .sticky_assignor import StickyPartitionAssignor

__all__ = ["StickyPartitionAssignor"]

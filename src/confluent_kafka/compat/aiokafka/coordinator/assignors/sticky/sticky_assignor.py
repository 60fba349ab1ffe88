"""``aiokafka.coordinator.assignors.sticky.sticky_assignor`` of the aiokafka facade.

aiokafka's sticky assignor runs in Python under the eager rebalance protocol. librdkafka has no
eager sticky assignor: its ``cooperative-sticky`` is another protocol, in which a rebalance
listener is told only of the partitions that move, so it would break listeners written for
aiokafka. The class is importable; passing it in ``partition_assignment_strategy`` raises
``UnsupportedOption`` naming it.
"""
from __future__ import annotations

from ..abstract import _BuiltInAssignor

__all__ = ["StickyPartitionAssignor"]


class StickyPartitionAssignor(_BuiltInAssignor):
    """aiokafka's sticky assignor; refused by the facade's consumer (see the module)."""

    name = "sticky"
    version = 0
    _unavailable = "librdkafka has no eager sticky assignor"

"""``kafka.coordinator.assignors``: the group assignors a program can name.

librdkafka runs the assignment; these classes only carry the protocol ``name`` the facade maps to
``partition.assignment.strategy`` (``range``, ``roundrobin``). kafka-python's eager ``sticky``
assignor has no librdkafka equivalent and is refused.
"""
from __future__ import annotations

__all__ = ["AbstractPartitionAssignor"]


class AbstractPartitionAssignor:
    """Base of the assignors: ``name`` is the group protocol name, ``version`` its version."""

    name = "abstract"
    version = 0

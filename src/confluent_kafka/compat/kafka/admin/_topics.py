"""``kafka.admin``'s :class:`NewTopic` (deprecated in kafka-python in favour of a dict)."""
from __future__ import annotations

from typing import Dict, List, Optional

__all__ = ["NewTopic"]


class NewTopic:
    """A topic to create: name, partitions, replication factor (-1: the broker's default, or
    given by ``replica_assignments``), replica assignments and configs."""

    def __init__(self, name: str, num_partitions: int = -1, replication_factor: int = -1,
                 replica_assignments: Optional[Dict[int, List[int]]] = None,
                 topic_configs: Optional[Dict[str, str]] = None) -> None:
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.replica_assignments = replica_assignments or {}
        self.topic_configs = topic_configs or {}

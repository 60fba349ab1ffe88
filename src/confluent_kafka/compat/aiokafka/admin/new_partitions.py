"""``aiokafka.admin.new_partitions``: :class:`NewPartitions`, a topic's new partition count for
``AIOKafkaAdminClient.create_partitions``."""
from __future__ import annotations

from typing import List, Optional

__all__ = ["NewPartitions"]


class NewPartitions:
    """The total number of partitions a topic should have.

    :param total_count: the new total (more than the topic has now).
    :param new_assignments: one list of broker ids per added partition; None lets the broker place
        them.
    """

    def __init__(self, total_count: int, new_assignments: Optional[List[List[int]]] = None) -> None:
        self.total_count = total_count
        self.new_assignments = new_assignments

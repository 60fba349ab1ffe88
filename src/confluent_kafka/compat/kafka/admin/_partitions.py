"""``kafka.admin``'s partition types: :class:`NewPartitions` (kafka-python's deprecated form of a
partition count), and the offset specs of :meth:`KafkaAdminClient.list_partition_offsets`."""
from __future__ import annotations

from typing import List, Optional

from confluent_kafka.compat.kafka.structs import OffsetSpec

__all__ = ["NewPartitions", "OffsetSpec", "OffsetTimestamp"]


class OffsetTimestamp(int):
    """A timestamp (ms since the epoch) as an offset spec: the first offset whose record's
    timestamp is at or after it. Tells a timestamp apart from an explicit offset where both may
    appear (:meth:`KafkaAdminClient.reset_group_offsets`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"OffsetTimestamp({int(self)})"


class NewPartitions:
    """Deprecated in kafka-python: a topic's new total partition count, with optional replica
    assignments (one broker-id list per added partition)."""

    def __init__(self, total_count: int, new_assignments: Optional[List[List[int]]] = None) -> None:
        self.total_count = total_count
        self.new_assignments = new_assignments

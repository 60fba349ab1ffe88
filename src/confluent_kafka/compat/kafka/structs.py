"""``kafka.structs``: the small value types of the kafka-python API, as named tuples."""
from __future__ import annotations

from collections import namedtuple
from enum import IntEnum

__all__ = ["IsolationLevel", "OffsetSpec", "TopicPartition", "TopicPartitionReplica", "OffsetAndMetadata", "OffsetAndTimestamp",
           "MemberState", "ConsumerGroupMetadata"]

TopicPartition = namedtuple("TopicPartition", ["topic", "partition"])
TopicPartition.__doc__ = "A topic name and a partition number."

TopicPartitionReplica = namedtuple("TopicPartitionReplica", ["topic", "partition", "broker_id"])
TopicPartitionReplica.__doc__ = "A partition replica: topic, partition and the broker that hosts it."

OffsetAndMetadata = namedtuple("OffsetAndMetadata", ["offset", "metadata", "leader_epoch"],
                               defaults=[None, "", -1])
OffsetAndMetadata.__doc__ = "An offset to commit (or a committed one), its metadata string and leader epoch."

OffsetAndTimestamp = namedtuple("OffsetAndTimestamp", ["offset", "timestamp", "leader_epoch"])
OffsetAndTimestamp.__doc__ = "The offset found for a timestamp, the timestamp of that record and its leader epoch."


class MemberState:
    """The states of a group member, as ``ConsumerGroupMetadata.state`` reports them."""

    UNJOINED = "<unjoined>"
    REBALANCING = "<rebalancing>"
    STABLE = "<stable>"


ConsumerGroupMetadata = namedtuple(
    "ConsumerGroupMetadata", ["group_id", "generation_id", "member_id", "group_instance_id", "state"],
    defaults=[None, -1, "", None, MemberState.UNJOINED])
ConsumerGroupMetadata.__doc__ = "A consumer's group membership: group, generation, member id, instance id, state."


class IsolationLevel(IntEnum):
    """Which records a consumer sees: all, or only those of committed transactions."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class OffsetSpec(IntEnum):
    """Symbolic offsets for offset look-ups (a value >= 0 is a timestamp instead)."""

    LATEST = -1
    EARLIEST = -2
    MAX_TIMESTAMP = -3
    EARLIEST_LOCAL = -4
    LATEST_TIERED = -5

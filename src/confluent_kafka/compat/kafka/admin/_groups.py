"""``kafka.admin``'s consumer group types."""
from __future__ import annotations

from enum import Enum
from typing import Any, Optional

from confluent_kafka.compat.kafka.admin._enums import EnumHelper

__all__ = ["GroupState", "GroupType", "MemberToRemove"]


class GroupState(EnumHelper, str, Enum):
    """A consumer group's state, by the name the broker reports (KIP-518, KIP-848)."""

    UNKNOWN = "Unknown"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"


class GroupType(EnumHelper, str, Enum):
    """A group's protocol (KIP-848)."""

    UNKNOWN = "Unknown"
    CLASSIC = "classic"
    CONSUMER = "consumer"
    SHARE = "share"


class MemberToRemove:
    """A member to take out of a group: by its member id (dynamic membership) or by its
    ``group.instance.id`` (static membership), with an optional reason."""

    __slots__ = ("member_id", "group_instance_id", "reason")

    def __init__(self, member_id: Optional[str] = None, group_instance_id: Optional[str] = None,
                 reason: Optional[str] = None) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.reason = reason

    def __repr__(self) -> str:
        return (f"<MemberToRemove member_id={self.member_id}, group_instance_id={self.group_instance_id}, "
                f"reason={self.reason}>")

    def __eq__(self, other: Any) -> bool:
        return bool(self.member_id == other.member_id and self.group_instance_id == other.group_instance_id
                and self.reason == other.reason)

    def __hash__(self) -> int:
        return hash((self.member_id, self.group_instance_id, self.reason))

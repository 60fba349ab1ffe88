"""Consumer groups as DescribeGroups v3 reports them, from native group descriptions."""
from __future__ import annotations

import struct
from collections import defaultdict
from typing import Any, Dict, List, Optional, Tuple

from confluent_kafka.cimpl import KafkaError as _RdKafkaError
from confluent_kafka.compat._native_admin import item_code

__all__ = ["NOT_REQUESTED", "authorized_operations", "encode_assignment", "group_entry"]

#: the protocol's authorized_operations when they were not asked for (INT32_MIN)
NOT_REQUESTED = -2147483648
_GROUP_ID_NOT_FOUND = 69

# The state names the broker sends, by librdkafka's ConsumerGroupState names.
_STATES = {"PREPARING_REBALANCING": "PreparingRebalance", "COMPLETING_REBALANCING": "CompletingRebalance",
           "STABLE": "Stable", "DEAD": "Dead", "EMPTY": "Empty"}


def authorized_operations(ops: Optional[List[Any]]) -> int:
    """:returns: the protocol's bit field (bit n for ACL operation n) for native operations, or
        :data:`NOT_REQUESTED` for None."""
    if ops is None:
        return NOT_REQUESTED
    bits = 0
    for op in ops:
        bits |= 1 << int(getattr(op, "value", op))
    return bits


def _string(text: str) -> bytes:
    data = text.encode("utf-8")
    return struct.pack(">h", len(data)) + data


def encode_assignment(partitions: List[Any]) -> bytes:
    """A member's assignment in the consumer protocol's encoding (version 0, empty user data), as
    the broker hands it to DescribeGroups callers.

    :param partitions: the assigned partitions (objects with ``topic`` and ``partition``).
    """
    by_topic: Dict[str, List[int]] = defaultdict(list)
    for tp in partitions:
        by_topic[tp.topic].append(int(tp.partition))
    out = [struct.pack(">hi", 0, len(by_topic))]
    for topic in sorted(by_topic):
        ids = sorted(by_topic[topic])
        out.append(_string(topic) + struct.pack(f">i{len(ids)}i", len(ids), *ids))
    out.append(struct.pack(">i", 0))
    return b"".join(out)


def _member(m: Any) -> Tuple[Any, ...]:
    parts = m.assignment.topic_partitions if m.assignment is not None else []
    # librdkafka does not report a member's subscription (member_metadata): empty bytes.
    return (m.member_id, m.client_id or "", m.host or "", b"", encode_assignment(parts))


def group_entry(group_id: str, desc: Any, err: Optional[_RdKafkaError]) -> Tuple[Any, ...]:
    """One entry of DescribeGroupsResponse_v3.groups.

    :param group_id: the group asked about.
    :param desc: its native ``ConsumerGroupDescription`` (None on error).
    :param err: the group's own error.
    :returns: ``(error_code, group, state, protocol_type, protocol, members, authorized_operations)``.
    """
    if desc is None:
        assert err is not None
        code = item_code(err)
        if code == _GROUP_ID_NOT_FOUND:  # DescribeGroups v3 answers a missing group as Dead
            return (0, group_id, "Dead", "", "", [], NOT_REQUESTED)
        return (code, group_id, "", "", "", [], NOT_REQUESTED)
    state = _STATES.get(getattr(desc.state, "name", ""), "")
    protocol_type = "" if desc.is_simple_consumer_group else "consumer"
    return (0, desc.group_id, state, protocol_type, desc.partition_assignor or "",
            [_member(m) for m in desc.members], authorized_operations(desc.authorized_operations))

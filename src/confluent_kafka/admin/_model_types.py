"""The admin model types upstream keeps in ``confluent_kafka._model`` (and re-exports from
``confluent_kafka``): brokers, topic collections, group and partition states.

They are defined here, with the admin types that use them, and carry ``confluent_kafka._model``
as their module, so that pickles and reprs name them where upstream does; that module imports
them from here.
"""

from __future__ import annotations

from enum import Enum
from typing import List, Optional

from .. import cimpl
from ..cimpl import TopicPartition

__all__ = [
    "ConsumerGroupState",
    "ConsumerGroupTopicPartitions",
    "ConsumerGroupType",
    "ElectionType",
    "IsolationLevel",
    "Node",
    "TopicCollection",
    "TopicPartitionInfo",
]

_MODULE = "confluent_kafka._model"


class Node:
    """A broker, as admin results describe it.

    :param id: The node id.
    :param host: The host name.
    :param port: The port.
    :param rack: The rack, or None.
    """

    __module__ = _MODULE

    def __init__(self, id: int, host: str, port: int, rack: Optional[str] = None) -> None:
        self.id = id
        self.id_string = str(id)
        self.host = host
        self.port = port
        self.rack = rack

    def __str__(self) -> str:
        rack = f"(Rack - {self.rack})" if self.rack else ""
        return f"({self.id}) {self.host}:{self.port} {rack}"


class ConsumerGroupTopicPartitions:
    """A consumer group and some of its partitions: the request and the result of
    :meth:`AdminClient.list_consumer_group_offsets` and
    :meth:`AdminClient.alter_consumer_group_offsets`.

    :param group_id: The group id.
    :param topic_partitions: The partitions (with offsets, for an alteration), or None for all.
    """

    __module__ = _MODULE

    def __init__(self, group_id: str, topic_partitions: Optional[List[TopicPartition]] = None) -> None:
        self.group_id = group_id
        self.topic_partitions = topic_partitions


class ConsumerGroupState(Enum):
    """The state of a consumer group. ``UNKOWN`` is upstream's misspelt alias of ``UNKNOWN``."""

    __module__ = _MODULE

    UNKNOWN = cimpl.CONSUMER_GROUP_STATE_UNKNOWN  #: Not known, or not set.
    UNKOWN = UNKNOWN  #: Deprecated spelling of UNKNOWN.
    PREPARING_REBALANCING = cimpl.CONSUMER_GROUP_STATE_PREPARING_REBALANCE  #: A rebalance is being prepared.
    COMPLETING_REBALANCING = cimpl.CONSUMER_GROUP_STATE_COMPLETING_REBALANCE  #: A rebalance is completing.
    STABLE = cimpl.CONSUMER_GROUP_STATE_STABLE  #: The group is stable.
    DEAD = cimpl.CONSUMER_GROUP_STATE_DEAD  #: The group has no members and no metadata.
    EMPTY = cimpl.CONSUMER_GROUP_STATE_EMPTY  #: The group has no members.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ConsumerGroupState):
            return NotImplemented
        return bool(self.value < other.value)


class ConsumerGroupType(Enum):
    """The protocol of a consumer group: KIP-848's CONSUMER, or CLASSIC."""

    __module__ = _MODULE

    UNKNOWN = cimpl.CONSUMER_GROUP_TYPE_UNKNOWN  #: Not known, or not set.
    CONSUMER = cimpl.CONSUMER_GROUP_TYPE_CONSUMER  #: The consumer protocol (KIP-848).
    CLASSIC = cimpl.CONSUMER_GROUP_TYPE_CLASSIC  #: The classic protocol.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ConsumerGroupType):
            return NotImplemented
        return bool(self.value < other.value)


class TopicCollection:
    """Topics named for :meth:`AdminClient.describe_topics`.

    :param topic_names: The topic names (a list).
    """

    __module__ = _MODULE

    def __init__(self, topic_names: List[str]) -> None:
        self.topic_names = topic_names


class TopicPartitionInfo:
    """One partition of a described topic.

    :param id: The partition id.
    :param leader: The leader, or None.
    :param replicas: The brokers holding a replica.
    :param isr: The in-sync replicas.
    """

    __module__ = _MODULE

    def __init__(self, id: int, leader: Optional[Node], replicas: List[Node], isr: List[Node]) -> None:
        self.id = id
        self.leader = leader
        self.replicas = replicas
        self.isr = isr


class IsolationLevel(Enum):
    """Which offsets :meth:`AdminClient.list_offsets` may return."""

    __module__ = _MODULE

    READ_UNCOMMITTED = cimpl.ISOLATION_LEVEL_READ_UNCOMMITTED  #: Every offset.
    READ_COMMITTED = cimpl.ISOLATION_LEVEL_READ_COMMITTED  #: Up to the last stable offset.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, IsolationLevel):
            return NotImplemented
        return bool(self.value < other.value)


class ElectionType(Enum):
    """The kind of leader election :meth:`AdminClient.elect_leaders` runs."""

    __module__ = _MODULE

    PREFERRED = cimpl.ELECTION_TYPE_PREFERRED  #: Elect the preferred replica.
    UNCLEAN = cimpl.ELECTION_TYPE_UNCLEAN  #: Elect any replica, even one out of sync.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ElectionType):
            return NotImplemented
        return bool(self.value < other.value)

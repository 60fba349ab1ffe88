"""Cluster metadata (``list_topics()``) and group metadata (``list_groups()``).

The C extension makes these with no arguments and then assigns their attributes.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..cimpl import KafkaError

__all__ = ["BrokerMetadata", "ClusterMetadata", "GroupMember", "GroupMetadata", "PartitionMetadata",
           "TopicMetadata"]


class ClusterMetadata:
    """The brokers and topics of the cluster, as ``list_topics()`` returns them."""

    def __init__(self) -> None:
        self.cluster_id: Optional[str] = None
        """The cluster id, or None when the broker does not say."""
        self.controller_id = -1
        """The controller's broker id, or -1."""
        self.brokers: Dict[int, BrokerMetadata] = {}
        """The brokers, by broker id."""
        self.topics: Dict[str, TopicMetadata] = {}
        """The topics, by name."""
        self.orig_broker_id = -1
        """The id of the broker that answered."""
        self.orig_broker_name: Optional[str] = None
        """The name of the broker that answered."""

    def __repr__(self) -> str:
        return f"ClusterMetadata({self.cluster_id})"

    def __str__(self) -> str:
        return str(self.cluster_id)


class BrokerMetadata:
    """One broker of the cluster."""

    def __init__(self) -> None:
        self.id = -1
        """The broker id."""
        self.host: Optional[str] = None
        """The host name."""
        self.port = -1
        """The port."""

    def __repr__(self) -> str:
        return f"BrokerMetadata({self.id}, {self.host}:{self.port})"

    def __str__(self) -> str:
        return f"{self.host}:{self.port}/{self.id}"


class TopicMetadata:
    """One topic and its partitions."""

    def __init__(self) -> None:
        self.topic: Optional[str] = None
        """The topic name."""
        self.partitions: Dict[int, PartitionMetadata] = {}
        """The partitions, by partition id."""
        self.error: Optional[KafkaError] = None
        """A ``KafkaError`` for the topic (an unknown topic, say), or None."""

    def __repr__(self) -> str:
        if self.error is not None:
            return f"TopicMetadata({self.topic}, {len(self.partitions)} partitions, {self.error})"
        return f"TopicMetadata({self.topic}, {len(self.partitions)} partitions)"

    def __str__(self) -> str:
        return str(self.topic)


class PartitionMetadata:
    """One partition of a topic. Its broker ids may briefly name brokers missing from
    :attr:`ClusterMetadata.brokers`."""

    def __init__(self) -> None:
        self.id = -1
        """The partition id."""
        self.leader = -1
        """The leader's broker id, or -1."""
        self.replicas: List[int] = []
        """The broker ids of the replicas."""
        self.isrs: List[int] = []
        """The broker ids of the in-sync replicas."""
        self.error: Optional[KafkaError] = None
        """A ``KafkaError`` for the partition, or None."""

    def __repr__(self) -> str:
        if self.error is not None:
            return f"PartitionMetadata({self.id}, {self.error})"
        return f"PartitionMetadata({self.id})"

    def __str__(self) -> str:
        return f"{self.id}"


class GroupMember:
    """One member of a group, as ``list_groups()`` reports it."""

    def __init__(self) -> None:
        self.id: Optional[str] = None
        """The member id."""
        self.client_id: Optional[str] = None
        """The client id."""
        self.client_host: Optional[str] = None
        """The client's host."""
        self.metadata: Optional[bytes] = None
        """The member metadata (bytes; the format depends on the protocol type)."""
        self.assignment: Optional[bytes] = None
        """The member assignment (bytes; the format depends on the protocol type)."""


class GroupMetadata:
    """One group, as ``list_groups()`` reports it."""

    def __init__(self) -> None:
        self.broker: Any = None
        """The broker that answered (:class:`BrokerMetadata`)."""
        self.id: Optional[str] = None
        """The group id."""
        self.error: Optional[KafkaError] = None
        """A ``KafkaError`` from the broker, or None."""
        self.state: Optional[str] = None
        """The group state."""
        self.protocol_type: Optional[str] = None
        """The protocol type."""
        self.protocol: Optional[str] = None
        """The protocol."""
        self.members: List[GroupMember] = []
        """The members (:class:`GroupMember`)."""

    def __repr__(self) -> str:
        if self.error is not None:
            return f"GroupMetadata({self.id}, {self.error})"
        return f"GroupMetadata({self.id})"

    def __str__(self) -> str:
        return str(self.id)

"""Cluster metadata as returned by ``Producer.list_topics()`` and ``Consumer.list_topics()``.

The C extension creates these objects with no arguments and then fills in their
attributes, so every attribute has a harmless default and can be assigned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional

if TYPE_CHECKING:  # pragma: no cover - typing only
    from confluent_kafka.cimpl import KafkaError

__all__ = ["ClusterMetadata", "BrokerMetadata", "TopicMetadata", "PartitionMetadata"]


class ClusterMetadata:
    """A snapshot of the cluster: its brokers and (some of) its topics.

    Attributes:
        cluster_id: The cluster id the broker reported, or None when unknown.
        controller_id: Node id of the current controller broker, -1 when unknown.
        brokers: Broker node id -> :class:`BrokerMetadata`.
        topics: Topic name -> :class:`TopicMetadata`.
        orig_broker_id: Node id of the broker that answered the metadata request.
        orig_broker_name: Name (``host:port/id``) of the broker that answered.
    """

    cluster_id: Optional[str]
    controller_id: int
    brokers: Dict[int, "BrokerMetadata"]
    topics: Dict[str, "TopicMetadata"]
    orig_broker_id: int
    orig_broker_name: Optional[str]

    def __init__(self) -> None:
        self.cluster_id = None
        self.controller_id = -1
        self.brokers = {}
        self.topics = {}
        self.orig_broker_id = -1
        self.orig_broker_name = None

    def __repr__(self) -> str:
        return (
            f"ClusterMetadata(cluster_id={self.cluster_id!r}, controller_id={self.controller_id}, "
            f"{len(self.brokers)} brokers, {len(self.topics)} topics)"
        )

    def __str__(self) -> str:
        return str(self.cluster_id)


class BrokerMetadata:
    """One broker of the cluster.

    Attributes:
        id: The broker's node id (-1 when unset).
        host: Host name or address clients connect to.
        port: TCP port clients connect to (-1 when unset).
    """

    id: int
    host: Optional[str]
    port: int

    def __init__(self) -> None:
        self.id = -1
        self.host = None
        self.port = -1

    def __repr__(self) -> str:
        return f"BrokerMetadata(id={self.id}, host={self.host!r}, port={self.port})"

    def __str__(self) -> str:
        return f"{self.host}:{self.port}/{self.id}"


class TopicMetadata:
    """One topic and its partitions.

    Attributes:
        topic: The topic name.
        partitions: Partition id -> :class:`PartitionMetadata`.
        error: A ``KafkaError`` when the broker reported a topic-level problem
            (for instance an unknown topic), else None.
    """

    topic: Optional[str]
    partitions: Dict[int, "PartitionMetadata"]
    error: Optional["KafkaError"]

    def __init__(self) -> None:
        self.topic = None
        self.partitions = {}
        self.error = None

    def __repr__(self) -> str:
        text = f"TopicMetadata(topic={self.topic!r}, {len(self.partitions)} partitions"
        if self.error is not None:
            text += f", error={self.error!r}"
        return text + ")"

    def __str__(self) -> str:
        return str(self.topic)


class PartitionMetadata:
    """One partition of a topic.

    Attributes:
        id: The partition id.
        leader: Node id of the partition leader, -1 when there is none.
        replicas: Node ids of all replicas.
        isrs: Node ids of the in-sync replicas.
        error: A ``KafkaError`` when the broker reported a partition-level
            problem, else None.

    Replica and ISR lists reflect what the broker put in its metadata response;
    they may lag behind the real state of the cluster.
    """

    id: int
    leader: int
    replicas: List[int]
    isrs: List[int]
    error: Optional["KafkaError"]

    def __init__(self) -> None:
        self.id = -1
        self.leader = -1
        self.replicas = []
        self.isrs = []
        self.error = None

    def __repr__(self) -> str:
        text = (
            f"PartitionMetadata(id={self.id}, leader={self.leader}, "
            f"replicas={self.replicas!r}, isrs={self.isrs!r}"
        )
        if self.error is not None:
            text += f", error={self.error!r}"
        return text + ")"

    def __str__(self) -> str:
        return str(self.id)

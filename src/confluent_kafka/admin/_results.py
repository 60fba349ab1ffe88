"""What :class:`~confluent_kafka.admin.AdminClient` futures resolve to.

Plain classes with typed attributes; the client builds them from the values the C layer
produces. Each has a readable ``repr`` and compares by value.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from ._types import AclOperation, ConsumerGroupState, ConsumerGroupType, ScramCredentialInfo

__all__ = [
    "ConsumerGroupDescription",
    "ConsumerGroupListing",
    "DeletedRecords",
    "DescribeClusterResult",
    "GroupMember",
    "GroupMetadata",
    "ListConsumerGroupsResult",
    "ListOffsetsResultInfo",
    "MemberAssignment",
    "MemberDescription",
    "Node",
    "TopicDescription",
    "TopicPartitionInfo",
    "UserScramCredentialsDescription",
    "Uuid",
]


class _Value:
    """Equality by the attributes listed in ``_fields``, and a repr naming them."""

    _fields: Tuple[str, ...] = ()

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Value)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(tuple(repr(v) for v in self._values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"


class Node(_Value):
    """A broker: its node id, host, port and rack (None when the broker has none)."""

    _fields = ("id", "host", "port", "rack")

    def __init__(self, id: int, host: str, port: int, rack: Optional[str] = None) -> None:
        self.id = id
        self.id_string = str(id)
        self.host = host
        self.port = port
        self.rack = rack

    def __str__(self) -> str:
        return f"{self.host}:{self.port}/{self.id}"


class Uuid(_Value):
    """A topic id: 128 bits, shown in Kafka's base64 form."""

    _fields = ("_msb", "_lsb")

    def __init__(self, most_significant_bits: int, least_significant_bits: int, base64: str = "") -> None:
        self._msb = most_significant_bits
        self._lsb = least_significant_bits
        self._base64 = base64

    def get_most_significant_bits(self) -> int:
        """The high 64 bits of the id, as a signed integer (Java's ``Uuid`` accessor)."""
        return self._msb

    def get_least_significant_bits(self) -> int:
        """The low 64 bits of the id, as a signed integer (Java's ``Uuid`` accessor)."""
        return self._lsb

    def __str__(self) -> str:
        return self._base64

    def __repr__(self) -> str:
        return f"Uuid({self._base64!r})"


class TopicPartitionInfo(_Value):
    """One partition of a described topic: its id, leader, replicas and in-sync replicas."""

    _fields = ("id", "leader", "replicas", "isr")

    def __init__(self, id: int, leader: Optional[Node], replicas: List[Node], isr: List[Node]) -> None:
        self.id = id
        self.leader = leader
        self.replicas = replicas
        self.isr = isr


class TopicDescription(_Value):
    """The result of :meth:`AdminClient.describe_topics` for one topic.

    ``authorized_operations`` is None unless requested with
    ``include_authorized_operations=True``.
    """

    _fields = ("name", "topic_id", "is_internal", "partitions", "authorized_operations")

    def __init__(self, name: str, topic_id: Optional[Uuid], is_internal: bool,
                 partitions: List[TopicPartitionInfo],
                 authorized_operations: Optional[List[AclOperation]] = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = partitions
        self.authorized_operations = authorized_operations


class DescribeClusterResult(_Value):
    """The result of :meth:`AdminClient.describe_cluster`."""

    _fields = ("cluster_id", "controller", "nodes", "authorized_operations")

    def __init__(self, controller: Optional[Node], nodes: List[Node], cluster_id: Optional[str] = None,
                 authorized_operations: Optional[List[AclOperation]] = None) -> None:
        self.controller = controller
        self.nodes = nodes
        self.cluster_id = cluster_id
        self.authorized_operations = authorized_operations


class ConsumerGroupListing(_Value):
    """One group found by :meth:`AdminClient.list_consumer_groups`."""

    _fields = ("group_id", "is_simple_consumer_group", "state", "type")

    def __init__(self, group_id: str, is_simple_consumer_group: bool,
                 state: Optional[ConsumerGroupState] = None, type: Optional[ConsumerGroupType] = None) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self.state = state
        self.type = type


class ListConsumerGroupsResult(_Value):
    """The groups listed (``valid``) and the errors of brokers that could not be asked."""

    _fields = ("valid", "errors")

    def __init__(self, valid: Optional[List[ConsumerGroupListing]] = None,
                 errors: Optional[List[Any]] = None) -> None:
        self.valid = valid if valid is not None else []
        self.errors = errors if errors is not None else []


class MemberAssignment(_Value):
    """The partitions assigned to a group member."""

    _fields = ("topic_partitions",)

    def __init__(self, topic_partitions: Optional[List[Any]] = None) -> None:
        self.topic_partitions = topic_partitions if topic_partitions is not None else []


class MemberDescription(_Value):
    """One member of a described consumer group."""

    _fields = ("member_id", "client_id", "host", "assignment", "group_instance_id", "target_assignment")

    def __init__(self, member_id: str, client_id: str, host: str, assignment: MemberAssignment,
                 group_instance_id: Optional[str] = None,
                 target_assignment: Optional[MemberAssignment] = None) -> None:
        self.member_id = member_id
        self.client_id = client_id
        self.host = host
        self.assignment = assignment
        self.group_instance_id = group_instance_id
        self.target_assignment = target_assignment


class ConsumerGroupDescription(_Value):
    """The result of :meth:`AdminClient.describe_consumer_groups` for one group."""

    _fields = ("group_id", "is_simple_consumer_group", "members", "partition_assignor", "state", "type",
               "coordinator", "authorized_operations")

    def __init__(self, group_id: str, is_simple_consumer_group: bool, members: List[MemberDescription],
                 partition_assignor: str, state: ConsumerGroupState, coordinator: Optional[Node],
                 authorized_operations: Optional[List[AclOperation]] = None,
                 type: ConsumerGroupType = ConsumerGroupType.UNKNOWN) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self.members = members
        self.partition_assignor = partition_assignor
        self.state = state
        self.type = type
        self.coordinator = coordinator
        self.authorized_operations = authorized_operations


class ListOffsetsResultInfo(_Value):
    """The offset :meth:`AdminClient.list_offsets` found for one partition, with the timestamp of
    that message (-1 when unknown) and the leader epoch (None when unknown)."""

    _fields = ("offset", "timestamp", "leader_epoch")

    def __init__(self, offset: int, timestamp: int, leader_epoch: Optional[int]) -> None:
        self.offset = offset
        self.timestamp = timestamp
        self.leader_epoch = leader_epoch


class DeletedRecords(_Value):
    """The partition's new low watermark after :meth:`AdminClient.delete_records`."""

    _fields = ("low_watermark",)

    def __init__(self, low_watermark: int) -> None:
        self.low_watermark = low_watermark


class UserScramCredentialsDescription(_Value):
    """The SCRAM mechanisms a user has credentials for."""

    _fields = ("user", "scram_credential_infos")

    def __init__(self, user: str, scram_credential_infos: List[ScramCredentialInfo]) -> None:
        self.user = user
        self.scram_credential_infos = scram_credential_infos


class GroupMember(_Value):
    """A member of a group as :meth:`AdminClient.list_groups` reports it (raw protocol bytes)."""

    _fields = ("id", "client_id", "client_host")

    def __init__(self) -> None:
        self.id: Optional[str] = None
        self.client_id: Optional[str] = None
        self.client_host: Optional[str] = None
        self.metadata: Optional[bytes] = None
        self.assignment: Optional[bytes] = None


class GroupMetadata(_Value):
    """A group as :meth:`AdminClient.list_groups` reports it."""

    _fields = ("id", "state", "protocol_type", "protocol", "error")

    def __init__(self) -> None:
        self.broker: Any = None
        self.id: Optional[str] = None
        self.error: Any = None
        self.state: Optional[str] = None
        self.protocol_type: Optional[str] = None
        self.protocol: Optional[str] = None
        self.members: List[GroupMember] = []

    def __str__(self) -> str:
        return str(self.id)

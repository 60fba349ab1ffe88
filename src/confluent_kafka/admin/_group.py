"""Consumer group listings and descriptions."""

from __future__ import annotations

from typing import List, Optional, Union

from ..cimpl import KafkaError, TopicPartition
from ._acl import AclOperation
from ._model_types import ConsumerGroupState, ConsumerGroupType, Node
from ._util import to_enum

__all__ = ["ConsumerGroupDescription", "ConsumerGroupListing", "ListConsumerGroupsResult", "MemberAssignment",
           "MemberDescription"]


def _operations(ops: Optional[List[Union[AclOperation, str, int]]]) -> Optional[List[AclOperation]]:
    """The authorized operations as AclOperation members; None when there are none."""
    if not ops:
        return None
    return [to_enum(op, AclOperation) for op in ops]


class _Group:
    """What a listed and a described group both have; ``state`` and ``type`` only when given."""

    state: ConsumerGroupState
    type: ConsumerGroupType

    def _set_state_and_type(self, state: Optional[Union[ConsumerGroupState, str, int]],
                            type: Optional[Union[ConsumerGroupType, str, int]]) -> None:
        if state is not None:
            self.state = to_enum(state, ConsumerGroupState)
        if type is not None:
            self.type = to_enum(type, ConsumerGroupType)


class ConsumerGroupListing(_Group):
    """One group found by :meth:`AdminClient.list_consumer_groups`. ``state`` and ``type`` are
    only set when known.

    :param group_id: The group id.
    :param is_simple_consumer_group: Whether the group is a simple consumer group.
    :param state: Its :class:`ConsumerGroupState` (or the member's name or value).
    :param type: Its :class:`ConsumerGroupType` (or the member's name or value).
    """

    def __init__(
        self,
        group_id: str,
        is_simple_consumer_group: bool,
        state: Optional[Union[ConsumerGroupState, str, int]] = None,
        type: Optional[Union[ConsumerGroupType, str, int]] = None,
    ) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self._set_state_and_type(state, type)


class ListConsumerGroupsResult:
    """What :meth:`AdminClient.list_consumer_groups` found: the groups, and the errors of the
    brokers that could not be asked.

    :param valid: The :class:`ConsumerGroupListing` of each group.
    :param errors: A ``KafkaError`` per failure.
    """

    def __init__(self, valid: Optional[List[ConsumerGroupListing]] = None,
                 errors: Optional[List[KafkaError]] = None) -> None:
        self.valid = valid
        self.errors = errors


class MemberAssignment:
    """The partitions assigned to a group member.

    :param topic_partitions: The partitions (None: none).
    """

    def __init__(self, topic_partitions: Optional[List[TopicPartition]]) -> None:
        self.topic_partitions: List[TopicPartition] = topic_partitions or []


class MemberDescription:
    """One member of a described consumer group.

    :param member_id: The member id.
    :param client_id: The member's client id.
    :param host: The host the member runs on.
    :param assignment: Its current :class:`MemberAssignment`.
    :param group_instance_id: Its static group instance id, or None.
    :param target_assignment: Its target :class:`MemberAssignment` (consumer protocol), or None.
    """

    def __init__(
        self,
        member_id: str,
        client_id: str,
        host: str,
        assignment: MemberAssignment,
        group_instance_id: Optional[str] = None,
        target_assignment: Optional[MemberAssignment] = None,
    ) -> None:
        self.member_id = member_id
        self.client_id = client_id
        self.host = host
        self.assignment = assignment
        self.target_assignment = target_assignment
        self.group_instance_id = group_instance_id


class ConsumerGroupDescription(_Group):
    """One group described by :meth:`AdminClient.describe_consumer_groups`. ``state`` and
    ``type`` are only set when given; ``authorized_operations`` is None unless requested.

    :param group_id: The group id.
    :param is_simple_consumer_group: Whether the group is a simple consumer group.
    :param members: Its :class:`MemberDescription` list.
    :param partition_assignor: The partition assignor.
    :param state: Its :class:`ConsumerGroupState` (or the member's name or value).
    :param coordinator: The coordinating broker (:class:`Node`).
    :param authorized_operations: The operations allowed on the group.
    :param type: Its :class:`ConsumerGroupType` (or the member's name or value).
    """

    def __init__(
        self,
        group_id: str,
        is_simple_consumer_group: bool,
        members: List[MemberDescription],
        partition_assignor: str,
        state: Optional[Union[ConsumerGroupState, str, int]],
        coordinator: Optional[Node],
        authorized_operations: Optional[List[Union[AclOperation, str, int]]] = None,
        type: Union[ConsumerGroupType, str, int] = ConsumerGroupType.UNKNOWN,
    ) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self.members = members
        self.authorized_operations = _operations(authorized_operations)
        self.partition_assignor = partition_assignor
        self._set_state_and_type(state, type)
        self.coordinator = coordinator



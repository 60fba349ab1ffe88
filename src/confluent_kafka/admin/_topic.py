"""The result of :meth:`AdminClient.describe_topics`."""

from __future__ import annotations

from typing import List, Optional, Union

from ..cimpl import Uuid
from ._acl import AclOperation
from ._group import _operations
from ._model_types import TopicPartitionInfo

__all__ = ["TopicDescription", "TopicPartitionInfo", "Uuid"]


class TopicDescription:
    """One topic as :meth:`AdminClient.describe_topics` describes it.
    ``authorized_operations`` is None unless requested.

    :param name: The topic name.
    :param topic_id: Its id (:class:`Uuid`).
    :param is_internal: Whether the topic is internal.
    :param partitions: Its :class:`TopicPartitionInfo` list.
    :param authorized_operations: The operations allowed on the topic.
    """

    def __init__(
        self,
        name: str,
        topic_id: Optional[Uuid],
        is_internal: bool,
        partitions: List[TopicPartitionInfo],
        authorized_operations: Optional[List[Union[str, int, AclOperation]]] = None,
    ) -> None:
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = partitions
        self.authorized_operations = _operations(authorized_operations)

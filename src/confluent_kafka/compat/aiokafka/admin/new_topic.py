"""``aiokafka.admin.new_topic``: :class:`NewTopic`, a topic for ``AIOKafkaAdminClient.create_topics``."""
from __future__ import annotations

from typing import Dict, List, Optional

from ..errors import IllegalArgumentError

__all__ = ["NewTopic"]


class NewTopic:
    """A topic to create.

    Give either a partition count and a replication factor, or ``replica_assignments`` with both
    of those at -1.

    :param name: the topic's name.
    :param num_partitions: how many partitions (-1 with replica_assignments).
    :param replication_factor: how many replicas of each partition (-1 with replica_assignments).
    :param replica_assignments: ``{partition: [broker ids]}``, the first broker the preferred leader.
    :param topic_configs: ``{config key: value}`` set on the topic.
    :raises IllegalArgumentError: for both forms at once, or neither.
    """

    def __init__(self, name: str, num_partitions: int, replication_factor: int,
                 replica_assignments: Optional[Dict[int, List[int]]] = None,
                 topic_configs: Optional[Dict[str, str]] = None) -> None:
        counted = num_partitions != -1 and replication_factor != -1
        if counted == (replica_assignments is not None):
            raise IllegalArgumentError("either num_partitions/replication_factor or replica_assignment "
                                       "must be specified")
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.replica_assignments = replica_assignments or {}
        self.topic_configs = topic_configs or {}

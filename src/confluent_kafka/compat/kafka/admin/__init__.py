"""``kafka.admin``: kafka-python 3.0's :class:`KafkaAdminClient` and its types, over this
package's librdkafka admin client (see :mod:`confluent_kafka.compat.kafka.admin.client`)."""
from __future__ import annotations

from confluent_kafka.compat.kafka.admin._acls import (
    ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, ResourcePattern, ResourcePatternFilter,
    ResourceType)
from confluent_kafka.compat.kafka.admin._cluster import UpdateFeatureType
from confluent_kafka.compat.kafka.admin._configs import (
    AlterConfigOp, ConfigFilterType, ConfigResource, ConfigResourceType, ConfigSourceType, ConfigType)
from confluent_kafka.compat.kafka.admin._groups import GroupState, GroupType, MemberToRemove
from confluent_kafka.compat.kafka.admin._partitions import NewPartitions, OffsetSpec, OffsetTimestamp
from confluent_kafka.compat.kafka.admin._topics import NewTopic
from confluent_kafka.compat.kafka.admin._transactions import (
    AbortTransactionSpec, PartitionProducerState, ProducerState, TransactionDescription, TransactionListing,
    TransactionState)
from confluent_kafka.compat.kafka.admin._users import (
    ScramMechanism, UserScramCredentialDeletion, UserScramCredentialUpsertion)
from confluent_kafka.compat.kafka.admin.client import KafkaAdminClient

# As in kafka-python, NewTopic and NewPartitions (deprecated there) are importable but not in __all__.
__all__ = [
    "KafkaAdminClient",
    "ACL", "ACLFilter", "ACLOperation", "ACLPermissionType", "ACLResourcePatternType",
    "ResourceType", "ResourcePattern", "ResourcePatternFilter",
    "AlterConfigOp", "ConfigResource", "ConfigResourceType", "ConfigType", "ConfigSourceType",
    "UpdateFeatureType",
    "GroupState", "GroupType", "MemberToRemove",
    "OffsetSpec", "OffsetTimestamp",
    "AbortTransactionSpec", "PartitionProducerState", "ProducerState",
    "TransactionDescription", "TransactionListing", "TransactionState",
    "ScramMechanism", "UserScramCredentialDeletion", "UserScramCredentialUpsertion",
]

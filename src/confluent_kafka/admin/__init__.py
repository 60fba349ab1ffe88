"""Cluster administration: :class:`AdminClient`, its request and result types, and the
metadata types that ``list_topics()`` returns.

The names and submodules match upstream confluent-kafka's ``confluent_kafka.admin``
(``confluent_kafka.admin._config`` and friends are importable, with the names upstream defines
there), including the underscore aliases and constants code written for upstream imports from
here.
"""

from .. import cimpl as _cimpl
from ..cimpl import (
    CONFIG_SOURCE_DEFAULT_CONFIG,
    CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG,
    CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG,
    CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG,
    CONFIG_SOURCE_GROUP_CONFIG,
    CONFIG_SOURCE_STATIC_BROKER_CONFIG,
    CONFIG_SOURCE_UNKNOWN_CONFIG,
    OFFSET_INVALID,
    RESOURCE_ANY,
    RESOURCE_BROKER,
    RESOURCE_GROUP,
    RESOURCE_TOPIC,
    RESOURCE_TRANSACTIONAL_ID,
    RESOURCE_UNKNOWN,
    KafkaError,
    KafkaException,
    NewPartitions,
    NewTopic,
    Uuid,
    _AdminClientImpl,
)
from ..cimpl import TopicPartition as _TopicPartition
from . import (
    _acl,
    _cluster,
    _config,
    _group,
    _listoffsets,
    _metadata,
    _records,
    _resource,
    _scram,
    _topic,
)
from ._acl import AclBinding, AclBindingFilter, AclOperation, AclPermissionType
from ._client import AdminClient
from ._cluster import DescribeClusterResult
from ._config import AlterConfigOpType, ConfigEntry, ConfigResource, ConfigSource
from ._group import (
    ConsumerGroupDescription,
    ConsumerGroupListing,
    ListConsumerGroupsResult,
    MemberAssignment,
    MemberDescription,
)
from ._listoffsets import ListOffsetsResultInfo, OffsetSpec
from ._metadata import (
    BrokerMetadata,
    ClusterMetadata,
    GroupMember,
    GroupMetadata,
    PartitionMetadata,
    TopicMetadata,
)
from ._model_types import *  # noqa: F401,F403 - the model types (its __all__)
from ._model_types import ConsumerGroupState as _ConsumerGroupState
from ._model_types import ConsumerGroupTopicPartitions as _ConsumerGroupTopicPartitions
from ._model_types import ConsumerGroupType as _ConsumerGroupType
from ._model_types import ElectionType as _ElectionType
from ._model_types import IsolationLevel as _IsolationLevel
from ._model_types import TopicCollection as _TopicCollection
from ._records import DeletedRecords
from ._resource import ResourcePatternType, ResourceType
from ._scram import (
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialsDescription,
    UserScramCredentialUpsertion,
)
from ._topic import TopicDescription
from ._util import string_type

# The documented names; the constants, KafkaError/KafkaException, string_type and the underscore
# aliases above are importable from here too, as from upstream's module.
__all__ = [
    "AclBinding",
    "AclBindingFilter",
    "AclOperation",
    "AclPermissionType",
    "AdminClient",
    "AlterConfigOpType",
    "BrokerMetadata",
    "ClusterMetadata",
    "ConfigEntry",
    "ConfigResource",
    "ConfigSource",
    "ConsumerGroupDescription",
    "ConsumerGroupListing",
    "ConsumerGroupState",
    "ConsumerGroupTopicPartitions",
    "ConsumerGroupType",
    "DeletedRecords",
    "DescribeClusterResult",
    "ElectionType",
    "GroupMember",
    "GroupMetadata",
    "IsolationLevel",
    "ListConsumerGroupsResult",
    "ListOffsetsResultInfo",
    "MemberAssignment",
    "MemberDescription",
    "NewPartitions",
    "NewTopic",
    "Node",
    "OffsetSpec",
    "PartitionMetadata",
    "ResourcePatternType",
    "ResourceType",
    "ScramCredentialInfo",
    "ScramMechanism",
    "TopicCollection",
    "TopicDescription",
    "TopicMetadata",
    "TopicPartitionInfo",
    "UserScramCredentialAlteration",
    "UserScramCredentialDeletion",
    "UserScramCredentialUpsertion",
    "UserScramCredentialsDescription",
    "Uuid",
]

del _cimpl

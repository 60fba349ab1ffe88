"""Cluster administration.

For now this package holds the metadata types that ``list_topics()`` returns;
the administrative client comes later.
"""

from ._metadata import BrokerMetadata, ClusterMetadata, PartitionMetadata, TopicMetadata

__all__ = ["BrokerMetadata", "ClusterMetadata", "PartitionMetadata", "TopicMetadata"]

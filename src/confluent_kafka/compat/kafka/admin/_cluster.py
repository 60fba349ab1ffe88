"""``kafka.admin``'s cluster feature enum."""
from __future__ import annotations

from enum import IntEnum

from confluent_kafka.compat.kafka.admin._enums import EnumHelper

__all__ = ["UpdateFeatureType"]


class UpdateFeatureType(EnumHelper, IntEnum):
    """How :meth:`KafkaAdminClient.update_features` changes a feature's finalized level."""

    UNKNOWN = 0
    UPGRADE = 1
    SAFE_DOWNGRADE = 2
    UNSAFE_DOWNGRADE = 3

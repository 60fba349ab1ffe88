"""``aiokafka.admin.config_resource``: the resources whose configs ``AIOKafkaAdminClient``
describes and alters."""
from __future__ import annotations

from enum import IntEnum
from typing import Any, Dict, Optional, Union

__all__ = ["ConfigResource", "ConfigResourceType"]


class ConfigResourceType(IntEnum):
    """The kinds of config resource aiokafka knows, by their Kafka protocol numbers."""

    BROKER = 4
    TOPIC = 2


class ConfigResource:
    """A topic or broker, and the config keys to describe or the values to set.

    :param resource_type: a :class:`ConfigResourceType`, or its name in any case (``"topic"``).
    :param name: the topic's name, or the broker's id as a string.
    :param configs: ``{key: value}``: the values to set (alter_configs), or the keys to describe
        (describe_configs; None or empty: every key).
    :raises KeyError: for a resource type name that is neither TOPIC nor BROKER.
    """

    def __init__(self, resource_type: Union[ConfigResourceType, str], name: str,
                 configs: Optional[Dict[str, Any]] = None) -> None:
        if not isinstance(resource_type, ConfigResourceType):
            resource_type = ConfigResourceType[str(resource_type).upper()]
        self.resource_type = resource_type
        self.name = name
        self.configs = configs
